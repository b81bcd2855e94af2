// Every kind of failure, described: each sentence ends with a full stop before the next step,
// nothing is said twice (the gateway's address once, no "Could not reach the gateway at X" inside
// "The request to X failed"), and the first action, the one VS Code shows as the primary button
// and the chat's error box as its primary one, is the one that fixes the problem.
import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  InvalidRequestError,
  RateLimitError,
  StreamError,
} from '../../../../src/core/errors';
import { unexpectedContent } from '../../../../src/core/answers/unexpectedContent';
import { describeError, type ErrorAction, type ErrorContext } from '../../../../src/core/failures/describeError';
import { describeInWords } from '../../../../src/core/failures/errorWords';
import { SetupRequiredError } from '../../../../src/core/failures/setupError';
import { InvalidProxyUrlError } from '../../../../src/core/net/dispatcher';
import { connectionFailureText, diagnoseConnectionError } from '../../../../src/core/net/diagnose';
import { ProxyError } from '../../../../src/core/net/proxyError';
import { EVENT_TOO_LARGE } from '../../../../src/core/streams/sse';
import { phaseTimeout } from '../../../../src/core/transport/timeouts';
import { GatewayClient } from '../../../../src/core/transport/client';
import { closedPort } from '../netFixtures';
import { rejectionOf } from '../testUtil';
import { repeatedPhrase, sentenceProblems, timesNamed } from './sentenceChecks';

const HOST = 'gw.local:8080';
const ctx: ErrorContext = { baseUrl: `http://${HOST}`, now: Date.parse('2026-11-23T13:00:00Z') };

const codeError = (code: string, message = code): Error => Object.assign(new Error(message), { code });
/** As the transport wraps a socket failure (answerErrors.ts). */
const wrapped = (cause: Error): ConnectionError =>
  new ConnectionError(`Could not reach the gateway at ${HOST}: ${cause.message}`, { cause });

interface Case {
  readonly name: string;
  readonly error: unknown;
  /** The action that fixes it, first. */
  readonly first?: ErrorAction;
  /** A failure of the connection to the gateway itself (not a proxy's): its address is said once. */
  readonly gatewayOnce?: boolean;
  readonly context?: ErrorContext;
}

/** Each branch of describeError, with errors shaped as the client makes them. */
const CASES: readonly Case[] = [
  { name: 'no API key', error: new SetupRequiredError('apiKey'), first: 'setApiKey' },
  { name: 'no address', error: new SetupRequiredError('baseUrl'), first: 'setBaseUrl', context: { baseUrl: '' } },
  {
    name: 'a refused key (401)',
    error: new AuthenticationError('Invalid API key', { status: 401 }),
    first: 'setApiKey',
  },
  { name: 'a forbidden key (403)', error: new AuthenticationError('Forbidden', { status: 403 }), first: 'setApiKey' },
  {
    name: 'out of credits, with the reset',
    error: new RateLimitError('Usage limit reached', { status: 429, quotaExhausted: true }),
    first: 'refreshCredits',
    context: { ...ctx, reset: '2026-11-23T15:00:00Z' },
  },
  {
    name: 'out of credits, no reading',
    error: new RateLimitError('Usage limit reached', { status: 429, quotaExhausted: true }),
    first: 'refreshCredits',
  },
  {
    name: 'rate limited, Retry-After',
    error: new RateLimitError('slow down', { status: 429, retryAfterMs: 3000 }),
    first: 'retry',
  },
  { name: 'rate limited', error: new RateLimitError('Too many requests', { status: 429 }), first: 'retry' },
  {
    name: 'refused connection',
    error: wrapped(codeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080')),
    first: 'retry',
    gatewayOnce: true,
  },
  {
    name: 'no such host',
    error: wrapped(codeError('ENOTFOUND', 'getaddrinfo ENOTFOUND gw.local')),
    first: 'openSettings',
    gatewayOnce: true,
  },
  { name: 'no network', error: wrapped(codeError('EAI_AGAIN')), first: 'retry', gatewayOnce: true },
  { name: 'connection reset', error: wrapped(codeError('ECONNRESET', 'other side closed')), gatewayOnce: true },
  { name: 'socket timeout', error: wrapped(codeError('ETIMEDOUT')), gatewayOnce: true },
  {
    name: 'https to an http port',
    error: wrapped(codeError('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number')),
    gatewayOnce: true,
  },
  { name: 'untrusted certificate', error: wrapped(codeError('SELF_SIGNED_CERT_IN_CHAIN')), gatewayOnce: true },
  { name: 'expired certificate', error: wrapped(codeError('CERT_HAS_EXPIRED')), gatewayOnce: true },
  {
    name: 'certificate for another name',
    error: wrapped(codeError('ERR_TLS_CERT_ALTNAME_INVALID')),
    gatewayOnce: true,
  },
  { name: 'other TLS failure', error: wrapped(codeError('CERT_REJECTED')), gatewayOnce: true },
  {
    name: 'not HTTP at that port (undici parser error)',
    error: wrapped(codeError('HPE_INVALID_CONSTANT', 'Response does not match the HTTP/1.1 protocol (Expected HTTP/)')),
    gatewayOnce: true,
  },
  {
    name: 'a proxy that wants credentials',
    error: wrapped(new ProxyError(407)),
    context: { ...ctx, connection: { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' } },
  },
  {
    name: 'a proxy that forbids the gateway',
    error: wrapped(new ProxyError(403)),
    context: { ...ctx, connection: { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' } },
  },
  {
    name: 'a proxy that cannot reach the gateway',
    error: wrapped(new ProxyError(502)),
    context: { ...ctx, connection: { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' } },
  },
  {
    name: 'a proxy that closed the tunnel',
    error: wrapped(new ProxyError(undefined)),
    context: { ...ctx, connection: { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' } },
  },
  {
    name: 'an unreachable proxy',
    error: wrapped(Object.assign(codeError('ECONNREFUSED'), { port: 3128 })),
    context: { ...ctx, connection: { baseUrl: ctx.baseUrl, proxyUrl: 'http://proxy.corp:3128' } },
  },
  {
    name: 'the connection cut mid-answer',
    error: new ConnectionError(`The connection to ${HOST} closed while the answer was being read (other side closed)`),
    first: 'retry',
  },
  { name: 'connect timeout', error: phaseTimeout('connect', 15_000, HOST), first: 'retry' },
  { name: 'first-byte timeout', error: phaseTimeout('firstByte', 300_000, HOST), first: 'retry' },
  { name: 'silence timeout', error: phaseTimeout('idle', 120_000, HOST), first: 'retry' },
  {
    name: 'a timeout of no known phase',
    error: Object.assign(new Error('too slow'), { name: 'TimeoutError' }),
    first: 'retry',
  },
  { name: 'a captive portal page', error: unexpectedContent('text/html', '<title>Sign in to Wi-Fi</title>', 200) },
  { name: 'a capped stream', error: new StreamError('too big', { interrupted: true, code: EVENT_TOO_LARGE }) },
  { name: 'a cut stream', error: new StreamError('closed', { interrupted: true }), first: 'retry' },
  {
    name: 'an overloaded stream',
    error: new StreamError('Overloaded', { type: 'overloaded_error' }),
    first: 'retry',
  },
  { name: 'an error event', error: new StreamError('upstream failed'), first: 'retry' },
  { name: 'an invalid proxy address', error: new InvalidProxyUrlError() },
  {
    name: 'a request refused before it was sent',
    error: new InvalidRequestError('input', 'input is longer than 4096 characters'),
    first: 'openSettings',
  },
  { name: 'too large (413)', error: new GatewayError('Payload Too Large', { status: 413 }) },
  {
    name: 'overloaded (529)',
    error: new GatewayError('Overloaded', { status: 529, type: 'overloaded_error' }),
    first: 'retry',
  },
  { name: 'server error (503)', error: new GatewayError('Service Unavailable', { status: 503 }), first: 'retry' },
  { name: 'refused request (400)', error: new GatewayError('model_not_found', { status: 400 }), first: 'openSettings' },
  {
    name: 'context window overflow',
    error: Object.assign(new Error('The conversation does not fit the context window'), {
      name: 'ContextOverflowError',
    }),
  },
  {
    name: 'context length refused by the gateway',
    error: new GatewayError("This model's maximum context length is 8192 tokens", {
      status: 400,
      code: 'context_length_exceeded',
    }),
  },
  { name: 'a feature of its own', error: new Error('The gateway answered without an image'), first: 'retry' },
  { name: 'a thrown string', error: 'odd failure' },
];

function checkText(what: string, text: string): void {
  assert.deepEqual(sentenceProblems(text), [], `${what}: ${text}`);
  assert.equal(repeatedPhrase(text), undefined, `${what} says something twice: ${text}`);
}

describe('failure sentences: a full stop before the next step, nothing said twice, the fix first', () => {
  for (const { name, error, first, gatewayOnce, context } of CASES) {
    it(name, () => {
      const description = describeError(error, context ?? ctx);
      checkText('the description', description.message);
      // As a notification shows it (Failures.present), and as a tool or vscode.lm says it.
      checkText('the notification', `Generating image failed: ${description.message}`);
      checkText('the words for a model', describeInWords(description));
      if (first) assert.equal(description.actions[0], first, `the fix first: ${description.actions.join(', ')}`);
      if (gatewayOnce) {
        assert.equal(timesNamed(description.message, HOST), 1, `names ${HOST} once: ${description.message}`);
        assert.doesNotMatch(description.message, /Could not reach the gateway at/);
      }
    });
  }

  it("Test Connection's text for every kind of diagnosis", () => {
    for (const { name, error, context } of CASES) {
      const diagnosis = diagnoseConnectionError(
        error,
        (context ?? ctx).connection ?? { baseUrl: (context ?? ctx).baseUrl },
      );
      checkText(`${name} (${diagnosis.kind})`, connectionFailureText(diagnosis));
    }
  });

  it('a refused key: Set API Key is the first action (the primary button), Retry after it', () => {
    for (const status of [401, 403]) {
      const { actions } = describeError(new AuthenticationError('bad key', { status }), ctx);
      assert.deepEqual(actions, ['setApiKey', 'retry']);
    }
  });

  describe('failures the client really produces', function () {
    this.timeout(20_000);
    const servers: Server[] = [];
    after(() => servers.forEach((server) => server.close()));

    /** A server on 127.0.0.1 that does `onSocket` with each connection. */
    async function tcpServer(onSocket: (socket: Socket) => void): Promise<string> {
      const server = createServer(onSocket);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    async function described(host: string, scheme = 'http'): Promise<string> {
      const baseUrl = `${scheme}://${host}`;
      const client = new GatewayClient({ baseUrl, apiKey: 'sk-test', maxRetries: 0 });
      const error = await rejectionOf(client.models.list());
      const { message, kind } = describeError(error, { baseUrl });
      assert.equal(kind, 'unreachable', message);
      checkText(baseUrl, message);
      assert.equal(timesNamed(message, host), 1, `names ${host} once: ${message}`);
      assert.doesNotMatch(message, /Could not reach the gateway at/);
      return message;
    }

    it('a closed port', async () => {
      assert.match(await described(`127.0.0.1:${await closedPort()}`), /refused the connection\. /);
    });

    it('a port that answers something other than HTTP', async () => {
      const message = await described(await tcpServer((socket) => socket.end('garbage\r\n\r\n')));
      assert.match(message, /^The request to 127\.0\.0\.1:\d+ failed\. Response does not match the HTTP/);
    });

    it('a port that closes at once', async () => {
      assert.match(await described(await tcpServer((socket) => socket.destroy())), /closed the connection\. /);
    });

    it('https to a port that speaks plain http', async () => {
      const host = await tcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
      assert.match(await described(host, 'https'), /does not speak https\. /);
    });
  });
});
