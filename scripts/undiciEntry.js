// What the extension bundle gets for `import ... from 'undici'` (esbuild.js points the import
// here): the members src/ uses, each loaded on first use, instead of undici's index.js, which
// loads every part of undici (fetch, WebSocket, caches, mocks, cookies...) when the bundle is
// evaluated. That was about 520 KB of the 1 MB bundle and the largest part of VS Code's
// "Load Code" for the extension (npm run bench -- bundles activation).
// Plain Node (unit tests) uses undici itself; test/unit/undiciEntry.test.ts checks that every
// member src/ imports is here and is the very same object undici exports.
'use strict';

let apiInstalled = false;
/** undici's index.js adds request(), stream()... to every Dispatcher; do the same before handing one out. */
function withApi(value) {
  if (!apiInstalled) {
    Object.assign(require('undici/lib/dispatcher/dispatcher').prototype, require('undici/lib/api'));
    apiInstalled = true;
  }
  return value;
}

/** undici's top-level request(url, opts): the same steps as its index.js (makeDispatcher). */
function request(url, opts, handler) {
  withApi();
  const { InvalidArgumentError } = require('undici/lib/core/errors');
  const util = require('undici/lib/core/util');
  const { getGlobalDispatcher } = require('undici/lib/global');
  if (typeof opts === 'function') {
    handler = opts;
    opts = null;
  }
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL)))
    throw new InvalidArgumentError('invalid url');
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return require('undici/lib/api').request.call(
    dispatcher,
    {
      ...opts,
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET'),
    },
    handler,
  );
}

const lazy = (load) => ({ enumerable: true, get: load });
Object.defineProperties(module.exports, {
  Agent: lazy(() => withApi(require('undici/lib/dispatcher/agent'))),
  Pool: lazy(() => withApi(require('undici/lib/dispatcher/pool'))),
  ProxyAgent: lazy(() => withApi(require('undici/lib/dispatcher/proxy-agent'))),
  EnvHttpProxyAgent: lazy(() => withApi(require('undici/lib/dispatcher/env-http-proxy-agent'))),
  getGlobalDispatcher: lazy(() => withApi(require('undici/lib/global').getGlobalDispatcher)),
  setGlobalDispatcher: lazy(() => withApi(require('undici/lib/global').setGlobalDispatcher)),
  FormData: lazy(() => require('undici/lib/web/fetch/formdata').FormData),
  interceptors: lazy(() => ({
    get dns() {
      return require('undici/lib/interceptor/dns');
    },
    get redirect() {
      return require('undici/lib/interceptor/redirect');
    },
    get retry() {
      return require('undici/lib/interceptor/retry');
    },
  })),
  request: { enumerable: true, value: request },
});
