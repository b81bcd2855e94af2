import * as assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  InvalidRequestError,
  RateLimitError,
  StreamError,
  TimeoutError,
  UnexpectedContentError,
} from '../../../../src/core/errors';
import { InvalidProxyUrlError } from '../../../../src/core/net/dispatcher';
import {
  chatErrorInfo,
  describeError,
  type ErrorContext,
  type ErrorDescription,
} from '../../../../src/core/failures/describeError';
import { describeInWords } from '../../../../src/core/failures/errorWords';
import { missingSetup, SetupRequiredError } from '../../../../src/core/failures/setupError';
import { describeJobFailure } from '../../../../src/core/research/jobPresentation';
import { connectionFailureText, diagnoseConnectionError } from '../../../../src/core/net/diagnose';
import { ProxyError } from '../../../../src/core/net/proxyError';

const NOW = Date.parse('2026-11-23T13:00:00Z');
const ctx: ErrorContext = { baseUrl: 'http://gw.local', now: NOW };

describe('describeError: one description of a failure for every feature', () => {
  it('setup: no API key names the key and offers Set API Key; no address offers Set Gateway Address', () => {
    const noKey = describeError(new SetupRequiredError('apiKey'), ctx);
    assert.equal(noKey.kind, 'setup');
    assert.match(noKey.message, /No API key is set .*Set one .*then try again/);
    assert.deepEqual(noKey.actions, ['setApiKey']);
    const noAddress = describeError(new SetupRequiredError('baseUrl'), { baseUrl: '' });
    assert.match(noAddress.message, /gateway address is not set/);
    assert.deepEqual(noAddress.actions, ['setBaseUrl']);
  });

  it('missingSetup: the address first, then the key', () => {
    assert.equal(missingSetup({ client: undefined, baseUrl: '', hasKey: false }), 'baseUrl');
    assert.equal(missingSetup({ client: {}, baseUrl: 'http://x', hasKey: false }), 'apiKey');
    assert.equal(missingSetup({ client: {}, baseUrl: 'http://x', hasKey: true }), undefined);
  });

  it('auth: the refusal, its status, and setting a valid key', () => {
    const shown = describeError(new AuthenticationError('Invalid API key', { status: 401 }), ctx);
    assert.equal(shown.kind, 'auth');
    assert.match(shown.message, /refused the API key \(401\): Invalid API key\. Set a valid key, then try again\./);
    assert.deepEqual(shown.actions, ['setApiKey', 'retry']);
    assert.equal(shown.detail, 'Invalid API key');
  });

  it("outOfCredits: the server's words, the reset time from the last reading, Refresh Credits", () => {
    const error = new RateLimitError('Usage limit reached', { status: 429, quotaExhausted: true });
    const shown = describeError(error, { ...ctx, reset: '2026-11-23T15:00:00Z' });
    assert.equal(shown.kind, 'outOfCredits');
    assert.match(
      shown.message,
      /Usage limit reached.*resets at 2026-11-23 15:00 UTC \(in 2 h 0 min\).*wait for the reset/,
    );
    assert.deepEqual(shown.actions, ['refreshCredits', 'retry']);
    assert.match(
      describeError(error, ctx).message,
      /New credits arrive when the quota window resets\./,
      'no reading: said without a time',
    );
  });

  it('rateLimited: the wait the gateway asked for, or a moment', () => {
    assert.match(
      describeError(new RateLimitError('slow down', { status: 429, retryAfterMs: 3_000 }), ctx).message,
      /try again in 3 s/,
    );
    assert.match(
      describeError(new RateLimitError('slow down', { status: 429, retryAfterMs: 150_000 }), ctx).message,
      /try again in 3 min/,
    );
    const bare = describeError(new RateLimitError('slow down', { status: 429 }), ctx);
    assert.equal(bare.kind, 'rateLimited');
    assert.match(bare.message, /try again in a moment/);
    assert.deepEqual(bare.actions, ['retry']);
  });

  it("unreachable: Test Connection's words for the cause and its next step, Open Settings and Show Log", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new ConnectionError('Could not reach the gateway at gw.local: connect ECONNREFUSED 127.0.0.1:9', {
      cause: refused,
    });
    const shown = describeError(error, ctx);
    assert.equal(shown.kind, 'unreachable');
    assert.equal(shown.message, connectionFailureText(diagnoseConnectionError(error, { baseUrl: ctx.baseUrl })));
    assert.match(
      shown.message,
      /^gw\.local refused the connection\. .*Start the gateway, or correct the port in the base URL setting\.$/,
    );
    assert.deepEqual(shown.actions, ['retry', 'openSettings', 'showLog']);
    assert.match(
      describeError(new ConnectionError('refused'), { baseUrl: '' }).message,
      /^No gateway address\. The base URL setting is empty.* Set it to your gateway/,
    );
  });

  it('unreachable through a proxy: the proxy in use is named, with what to fix in its setting', () => {
    const error = new ConnectionError('Could not reach the gateway at gw.local: proxy', { cause: new ProxyError(407) });
    const connection = { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' };
    const shown = describeError(error, { ...ctx, connection });
    assert.equal(shown.message, connectionFailureText(diagnoseConnectionError(error, connection)));
    assert.match(
      shown.message,
      /^The proxy needs a user name and password\. .*proxy\.corp:3128.*http\.proxy or HTTPS_PROXY\.$/,
    );
  });

  it('a connection cut once the answer had begun: no advice about the address', () => {
    const cut = describeError(
      new ConnectionError('The connection to gw.local closed while the answer was being read (other side closed)'),
      ctx,
    );
    assert.equal(cut.kind, 'unreachable');
    assert.equal(
      cut.message,
      'The connection to gw.local closed while the answer was being read (other side closed). Try again; the log has the details.',
    );
    assert.deepEqual(cut.actions, ['retry', 'showLog']);
    const portal = describeError(
      new UnexpectedContentError('The gateway answered with a web page', { contentType: 'text/html' }),
      ctx,
    );
    assert.equal(portal.kind, 'unreachable');
  });

  it("an invalid proxy address: VS Code's proxy setting to correct, not the gateway address", () => {
    const shown = describeError(new InvalidProxyUrlError(), ctx);
    assert.equal(shown.kind, 'invalid');
    assert.match(
      shown.message,
      /^The proxy address is not a valid URL \(expected http:\/\/host:port\)\. Correct VS Code's http\.proxy setting/,
    );
    assert.deepEqual(shown.actions, ['showLog']);
  });

  it("timeout: the core's phase message as it is, or the address when no phase is known", () => {
    const connect = describeError(
      new TimeoutError('No connection within 10 s: check the address.', { phase: 'connect' }),
      ctx,
    );
    assert.equal(connect.message, 'No connection within 10 s: check the address.');
    assert.deepEqual(connect.actions, ['retry', 'openSettings', 'showLog']);
    assert.deepEqual(describeError(new TimeoutError('silent 60 s', { phase: 'idle' }), ctx).actions, [
      'retry',
      'showLog',
    ]);
    assert.match(
      describeError(new TimeoutError('too slow'), ctx).message,
      /gateway at http:\/\/gw\.local took too long/,
    );
  });

  it('interrupted and server: what arrived is kept; 5xx and overloaded say to try again', () => {
    const cut = describeError(new StreamError('closed', { interrupted: true }), ctx);
    assert.equal(cut.kind, 'interrupted');
    assert.match(cut.message, /What arrived is kept/);
    const failed = describeError(new GatewayError('Service Unavailable', { status: 503 }), ctx);
    assert.equal(failed.kind, 'server');
    assert.match(failed.message, /failed \(503\).*Try again in a few minutes/);
    assert.deepEqual(failed.actions, ['retry', 'showLog']);
    assert.match(
      describeError(new GatewayError('Overloaded', { status: 529, type: 'overloaded_error' }), ctx).message,
      /overloaded \(529\).*Try again/,
    );
    assert.equal(describeError(new StreamError('boom'), ctx).kind, 'server');
  });

  it('invalid: a request refused before or by the gateway, and an upload too large (413)', () => {
    const before = describeError(new InvalidRequestError('input', 'input is longer than 4096 characters'), ctx);
    assert.equal(before.kind, 'invalid');
    assert.match(before.message, /^The request was not sent: /);
    const large = describeError(new GatewayError('Payload Too Large', { status: 413 }), ctx);
    assert.match(large.message, /too large \(HTTP 413\)\. Shorten or compress/);
    assert.deepEqual(large.actions, [], 'Retry would send the same file again');
    const refused = describeError(new GatewayError('model_not_found', { status: 400 }), ctx);
    assert.equal(refused.kind, 'invalid');
    assert.deepEqual(refused.actions, ['openSettings', 'showLog']);
  });

  it('contextLength: what to shorten or change', () => {
    const overflow = Object.assign(new Error('The conversation does not fit.'), { name: 'ContextOverflowError' });
    const shown = describeError(overflow, ctx);
    assert.equal(shown.kind, 'contextLength');
    assert.match(shown.message, /Start a new conversation/);
  });

  it('other: a plain error or a thrown string keeps its words, with Retry and Show Log', () => {
    const plain = describeError(new Error('The gateway answered without an image.'), ctx);
    assert.deepEqual(
      [plain.kind, plain.message, plain.actions],
      ['other', 'The gateway answered without an image.', ['retry', 'showLog']],
    );
    assert.equal(describeError('odd', ctx).message, 'odd.', 'a sentence, ended');
    assert.equal(describeError(undefined, ctx).kind, 'other');
  });

  it("chatErrorInfo: the webview's shape; the address is set through Open Settings there", () => {
    const info = chatErrorInfo(describeError(new SetupRequiredError('baseUrl'), ctx));
    assert.deepEqual(Object.keys(info).sort(), ['actions', 'kind', 'message']);
    assert.deepEqual(info.actions, ['openSettings']);
  });
});

describe('describeInWords: the next step for a reader without buttons (tools, vscode.lm)', () => {
  const words = (error: unknown, context: ErrorContext = ctx): string => describeInWords(describeError(error, context));

  it('names the command to run for a missing or refused key, and says retrying will not help', () => {
    assert.match(
      words(new SetupRequiredError('apiKey')),
      /No API key is set.*"Unified Inference: Set API Key"; retrying will not help/,
    );
    assert.match(words(new SetupRequiredError('baseUrl')), /"Unified Inference: Set Gateway Address"/);
    assert.match(
      words(new AuthenticationError('bad key', { status: 401 })),
      /refused the API key \(401\).*Set API Key/,
    );
  });

  it('out of credits: the reset time, then do not retry now', () => {
    const text = words(new RateLimitError('no credits', { status: 429, quotaExhausted: true }), {
      ...ctx,
      reset: '2026-11-23T15:00:00Z',
    });
    assert.match(text, /^Out of credits .*resets at 2026-11-23 15:00 UTC.*Do not retry now; tell the user/s);
    assert.doesNotMatch(text, /Trying again later/);
  });

  it("a feature's own error keeps its words alone (they already say what to do)", () => {
    assert.equal(
      words(new Error('The user chose not to build the semantic index.')),
      'The user chose not to build the semantic index.',
    );
  });

  it('transient failures invite a later try; unreachable ones say what to check', () => {
    assert.match(
      words(new GatewayError('down', { status: 503 })),
      /Try again in a few minutes.*Trying again later may succeed/,
    );
    assert.match(
      words(new ConnectionError('refused')),
      /check the network, and the address with "Unified Inference: Set Gateway Address"/,
    );
  });
});

describe('describeJobFailure: a failed research job, described as a failed request is', () => {
  const job = { id: 'j1', status: 'failed', topic: 'Vector databases' };

  it('gives the reason, then the next step, with Retry', () => {
    const shown: ErrorDescription = describeJobFailure({ ...job, error: { message: 'Upstream timed out' } });
    assert.equal(shown.kind, 'server');
    assert.equal(
      shown.message,
      'Vector databases: Upstream timed out. Start it again, or open the report for what the job gave.',
    );
    assert.deepEqual(shown.actions, ['retry', 'showLog']);
  });

  it('a job stopped for lack of credits says so, with Refresh Credits', () => {
    const shown = describeJobFailure({ ...job, reason: 'Usage limit reached for this billing period' });
    assert.equal(shown.kind, 'outOfCredits');
    assert.deepEqual(shown.actions, ['refreshCredits', 'retry']);
  });

  it('without a reason, the status it ended with', () => {
    assert.match(describeJobFailure({ ...job, status: 'timeout' }).message, /ended as "timeout" without a reason/);
  });
});
