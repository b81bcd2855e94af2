// The undici dispatcher requests go through: direct (Agent) or via an HTTP(S) proxy (ProxyAgent),
// with the TLS policy of VS Code's `http.proxyStrictSSL` and an optional extra CA. Proxy
// credentials come from the proxy URL's user:password and travel only in Proxy-Authorization.
import * as tls from 'node:tls';
import { Agent, Pool, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { translateTunnelError, withProxyErrors } from './proxyError';

export interface DispatcherOptions {
  /** `http://[user:password@]host:port` (https:// proxies work too). No proxy when absent or blank. */
  proxyUrl?: string;
  /** Verify server certificates (VS Code's `http.proxyStrictSSL`). Default true. */
  strictSSL?: boolean;
  /** Extra CA certificate(s) in PEM, trusted in addition to the default roots (never instead of them). */
  ca?: string | Buffer;
}

/** Thrown for a proxy setting that is not a URL; the message never repeats it (it may hold a password). */
export class InvalidProxyUrlError extends Error {
  constructor() {
    super('The proxy address is not a valid URL (expected http://host:port)');
    this.name = 'InvalidProxyUrlError';
  }
}

export function createDispatcher(options: DispatcherOptions = {}): Dispatcher {
  const connectTls = tlsConnectOptions(options);
  const proxy = options.proxyUrl?.trim();
  if (!proxy) return new Agent({ connect: connectTls });
  const parsed = parseProxyUrl(proxy);
  const token = proxyAuthorization(parsed);
  // Credentials go in `token` and out of the URL, so the URL undici keeps (and may put in an error)
  // holds none, and a user name without a password still authenticates.
  parsed.username = '';
  parsed.password = '';
  const { TranslatingProxyAgent, TunnelPool } = translatingClasses();
  return new TranslatingProxyAgent({
    uri: parsed.href,
    ...(token === undefined ? {} : { token }),
    // Plain http goes as absolute-URI requests (what curl and most corporate proxies expect: many
    // only allow CONNECT to 443); https always tunnels with CONNECT.
    proxyTunnel: false,
    requestTls: connectTls,
    proxyTls: connectTls,
    clientFactory: (origin: URL, options: object): Dispatcher => new TunnelPool(origin, options),
  });
}

type TunnelConnectOptions = Omit<Dispatcher.ConnectOptions, 'origin'>;

interface ProxyClasses {
  TranslatingProxyAgent: typeof ProxyAgent;
  TunnelPool: typeof Pool;
}
let proxyClasses: ProxyClasses | undefined;

/**
 * The two undici subclasses, defined on first use: `extends ProxyAgent` at module level would load
 * undici's dispatchers when the extension bundle loads, before any request (undici is loaded lazily).
 */
function translatingClasses(): ProxyClasses {
  if (proxyClasses) return proxyClasses;
  /** A ProxyAgent whose refusals come out as ProxyError (see proxyError.ts). */
  class TranslatingProxyAgent extends ProxyAgent {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return super.dispatch(options, withProxyErrors(handler));
    }
  }
  /** The connection to the proxy, whose failed CONNECTs end the request instead of looping (see translateTunnelError). */
  class TunnelPool extends Pool {
    override connect(options: TunnelConnectOptions): Promise<Dispatcher.ConnectData>;
    override connect(
      options: TunnelConnectOptions,
      callback: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): void;
    override connect(
      options: TunnelConnectOptions,
      callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): void | Promise<Dispatcher.ConnectData> {
      if (callback) {
        super.connect(options, (error, data) => callback(error ? (translateTunnelError(error) as Error) : null, data));
        return;
      }
      return super.connect(options).catch((error: unknown) => {
        throw translateTunnelError(error);
      });
    }
  }
  proxyClasses = { TranslatingProxyAgent, TunnelPool };
  return proxyClasses;
}

/** The proxy URL for display and logs: scheme, host and port, never the credentials. */
export function describeProxy(proxyUrl: string): string {
  const trimmed = proxyUrl.trim();
  try {
    const url = new URL(withScheme(trimmed));
    return `${url.protocol}//${url.host}`;
  } catch {
    // Not a URL: still drop anything that looks like `user:password@`.
    return trimmed.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i, '$1');
  }
}

/** `proxy:8080` is how people often write it; undici (and URL) need a scheme. */
function withScheme(proxyUrl: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxyUrl) ? proxyUrl : `http://${proxyUrl}`;
}

/** Whether createDispatcher accepts this proxy address (checked without loading undici). */
export function isValidProxyUrl(proxyUrl: string): boolean {
  try {
    parseProxyUrl(proxyUrl.trim());
    return true;
  } catch {
    return false;
  }
}

function parseProxyUrl(proxyUrl: string): URL {
  let url: URL;
  try {
    url = new URL(withScheme(proxyUrl));
  } catch {
    throw new InvalidProxyUrlError();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw new InvalidProxyUrlError();
  return url;
}

function proxyAuthorization(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  // URL keeps them percent-encoded; the proxy wants the plain text, base64'd.
  const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The TLS options of every connection (exported for tests: the default roots must stay in). */
export function tlsConnectOptions(options: DispatcherOptions): {
  rejectUnauthorized: boolean;
  ca?: (string | Buffer)[];
} {
  const rejectUnauthorized = options.strictSSL ?? true;
  if (options.ca === undefined || options.ca.length === 0) return { rejectUnauthorized };
  // Setting `ca` replaces Node's trust store for the connection, so the defaults are passed along.
  return { rejectUnauthorized, ca: [...defaultCaCertificates(), options.ca] };
}

/**
 * Node's default trust store. Node >= 22.15 (the VS Code extension host) reports it with
 * getCACertificates('default'), which also holds NODE_EXTRA_CA_CERTS and, with --use-system-ca,
 * the system store; older Node only has the bundled roots.
 */
function defaultCaCertificates(): readonly string[] {
  return typeof tls.getCACertificates === 'function' ? tls.getCACertificates('default') : tls.rootCertificates;
}
