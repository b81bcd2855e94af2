// Turns any failure of a gateway request into a plain-words report for the "Test Connection"
// command and the status bar: what happened, to which host, and one concrete next step. Reports
// name hosts, never keys, and never repeat a URL's credentials.
import { SETTINGS_SECTION } from '../../shared/settings';
import { normalizeBaseUrl } from '../transport/baseUrl';
import {
  AuthenticationError,
  GatewayError,
  InvalidRequestError,
  RateLimitError,
  TimeoutError,
  isAbortError,
} from '../errors';
import { describeProxy } from './dispatcher';
import { ProxyError } from './proxyError';

type ConnectionDiagnosisKind =
  | 'dns'
  | 'refused'
  | 'tls'
  | 'timeout'
  | 'proxy'
  | 'unauthorized'
  | 'notFound'
  | 'outOfCredits'
  | 'rateLimited'
  | 'server'
  | 'offline'
  | 'invalidUrl'
  | 'noKey'
  | 'unknown';

export interface ConnectionDiagnosis {
  kind: ConnectionDiagnosisKind;
  /** One short line, e.g. "Cannot find gateway.example.com". */
  title: string;
  /** What happened, in plain words. */
  detail: string;
  /** One concrete thing to do about it. */
  nextStep: string;
  /**
   * The full id of the setting the next step names (`http.proxy`, our CA file or base URL), so an
   * Open Settings button shows that one; absent when the fix is no setting (a renewed certificate).
   */
  setting?: string;
}

export interface DiagnosisContext {
  /** The base URL setting as the user wrote it. */
  baseUrl: string;
  /** The proxy the request actually went through (selectProxy's answer), if any. Credentials are never shown. */
  proxyUrl?: string;
  /** The CA certificate file setting, when one is set (TLS advice then never asks to add one). */
  caCertificateFile?: string;
  /** True when that file could not be read (so only the default authorities were used). */
  caCertificateUnreadable?: boolean;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const OFFLINE_CODES = new Set(['EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EHOSTDOWN']);
const CUT_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
/** Failures of the first hop: with a proxy configured, the first hop is the proxy. */
const FIRST_HOP_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', ...OFFLINE_CODES]);
const CHECK_BASE_URL = 'Check the base URL setting (scheme, host and port).';
const BASE_URL_SETTING = `${SETTINGS_SECTION}.baseUrl`;
const CA_FILE_SETTING = `${SETTINGS_SECTION}.caCertificateFile`;
/** VS Code's own proxy settings: the extension's requests go through the proxy they name. */
const PROXY_SETTING = 'http.proxy';
const NO_PROXY_SETTING = 'http.noProxy';

export function diagnoseConnectionError(error: unknown, context: DiagnosisContext): ConnectionDiagnosis {
  const target = targetOf(context.baseUrl);
  if (target === undefined) return invalidUrl(context.baseUrl);
  const host = target.host;
  const proxy = context.proxyUrl?.trim() ? describeProxy(context.proxyUrl) : undefined;

  if (error instanceof InvalidRequestError && error.field === 'baseUrl') return invalidUrl(context.baseUrl);
  if (error instanceof AuthenticationError) return authentication(error, host);
  if (error instanceof RateLimitError) return rateLimit(error, host);
  if (error instanceof GatewayError && error.status !== undefined) return httpStatus(error, error.status, host, proxy);

  const chain = causeChain(error);
  const proxyError = chain.find((e): e is ProxyError => e instanceof ProxyError);
  if (proxyError) return proxyStatus(proxyError.statusCode, host, proxy);
  const codes = chain.map(codeOf).filter((code): code is string => code !== undefined);

  if (proxy) {
    const firstHop = chain.find((e) => FIRST_HOP_CODES.has(codeOf(e) ?? ''));
    if (firstHop && isAbout(firstHop, context.proxyUrl ?? '')) return proxyUnreachable(codeOf(firstHop) ?? '', proxy);
    if (codes.includes('UND_ERR_PRX_TLS')) {
      return make(
        'proxy',
        `Secure connection to the proxy ${proxy} failed`,
        `The proxy's certificate does not match its address.`,
        'Check the proxy setting (http.proxy or HTTPS_PROXY): use the name the proxy certificate was issued for, or an http:// proxy address.',
        PROXY_SETTING,
      );
    }
  }
  const tlsCode = codes.find((code) => TLS_CODES.has(code));
  if (tlsCode) return tls(tlsCode, chain, host, proxy, context);
  if (error instanceof TimeoutError || codes.some((code) => TIMEOUT_CODES.has(code))) {
    return make(
      'timeout',
      `${host} did not answer in time`,
      `The connection${via(proxy)} was opened or attempted, but no answer came.`,
      'Check that the gateway is running and reachable from this machine, then try again.',
    );
  }
  if (codes.includes('ENOTFOUND')) {
    return make(
      'dns',
      `Cannot find ${host}`,
      'The name could not be resolved (DNS lookup failed): there is no such host, or it is misspelled.',
      CHECK_BASE_URL,
      BASE_URL_SETTING,
    );
  }
  const offline = codes.find((code) => OFFLINE_CODES.has(code));
  if (offline) {
    return make(
      'offline',
      'No network connection',
      `${host} could not be reached: ${offline === 'EAI_AGAIN' ? 'the DNS lookup could not be done' : 'the network is unreachable'} (${offline}).`,
      'Check your network connection (or VPN), then try again.',
    );
  }
  if (codes.includes('ECONNREFUSED')) {
    return make(
      'refused',
      `${host} refused the connection`,
      `Nothing is accepting connections there${via(proxy)}: the gateway is not running, or the port is wrong.`,
      'Start the gateway, or correct the port in the base URL setting.',
      BASE_URL_SETTING,
    );
  }
  if (codes.some((code) => CUT_CODES.has(code))) {
    return make(
      'refused',
      `${host} closed the connection`,
      `No answer arrived before it closed${via(proxy)}.`,
      `Check that the base URL uses the right scheme (http:// or https://) and port${proxy ? ', and that the proxy lets the connection through' : ''}.`,
    );
  }
  if (codes.includes('ERR_INVALID_URL')) return invalidUrl(context.baseUrl);
  if (isAbortError(error))
    return make(
      'unknown',
      `The request to ${host} was cancelled`,
      'It was stopped before an answer arrived.',
      'Try again.',
    );
  return make(
    'unknown',
    `The request to ${host} failed`,
    `${scrubUrls(ownWords(error))}.`.replace(/\.\.$/, '.'),
    'Open the log (Unified Inference: Show Log) for details, then try again.',
  );
}

/**
 * The diagnosis as one text: what happened, then the one next step. Test Connection and every
 * feature that fails to connect (chat, palette commands, @unified, tools, vscode.lm) say this.
 */
export function connectionFailureText(diagnosis: ConnectionDiagnosis): string {
  return `${diagnosis.title}. ${diagnosis.detail} ${diagnosis.nextStep}`;
}

function make(
  kind: ConnectionDiagnosisKind,
  title: string,
  detail: string,
  nextStep: string,
  setting?: string,
): ConnectionDiagnosis {
  return setting === undefined ? { kind, title, detail, nextStep } : { kind, title, detail, nextStep, setting };
}

function via(proxy: string | undefined): string {
  return proxy ? ` (through the proxy ${proxy})` : '';
}

function targetOf(baseUrl: string): URL | undefined {
  if (!baseUrl.trim()) return undefined;
  try {
    return new URL(normalizeBaseUrl(baseUrl));
  } catch {
    return undefined;
  }
}

function invalidUrl(baseUrl: string): ConnectionDiagnosis {
  if (!baseUrl.trim())
    return make(
      'invalidUrl',
      'No gateway address',
      'The base URL setting is empty, so there is nothing to connect to.',
      'Set it to your gateway, e.g. https://gateway.example.com.',
    );
  return make(
    'invalidUrl',
    'The gateway address is not valid',
    'The base URL setting is not an http:// or https:// address.',
    'Set it to your gateway, e.g. https://gateway.example.com.',
  );
}

function authentication(error: AuthenticationError, host: string): ConnectionDiagnosis {
  if (error.status === undefined) {
    return make(
      'noKey',
      'No API key',
      `None is set for ${host}, so no request was sent.`,
      'Set the API key (Unified Inference: Set API Key).',
    );
  }
  if (error.status === 403) {
    return make(
      'unauthorized',
      `${host} refused the API key`,
      'The key is known, but the gateway answered 403: it is not allowed to do this.',
      "Check the key's permissions with your gateway administrator, or set another key.",
    );
  }
  return make(
    'unauthorized',
    `${host} rejected the API key`,
    'The answer was 401: the key is missing, wrong, revoked, or sent in a header the gateway does not read.',
    'Set the API key again (Unified Inference: Set API Key) and check the auth header setting (Authorization or x-api-key).',
  );
}

function rateLimit(error: RateLimitError, host: string): ConnectionDiagnosis {
  if (error.quotaExhausted) {
    return make(
      'outOfCredits',
      'Out of credits',
      `${host} answered ${error.status ?? 429}: the key has no credits left. Waiting for a retry will not help.`,
      'Add credits, or wait until the quota window resets (see the credits in the status bar).',
    );
  }
  const wait = error.retryAfterMs !== undefined ? ` It asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s.` : '';
  return make(
    'rateLimited',
    'Too many requests',
    `${host} answered ${error.status ?? 429}: too many requests in a short time.${wait}`,
    'Wait a moment, then try again.',
  );
}

function httpStatus(error: GatewayError, status: number, host: string, proxy: string | undefined): ConnectionDiagnosis {
  if (status === 404) {
    return make(
      'notFound',
      `No gateway API at ${host}`,
      'The server answered 404 for the API: it is there, but it does not serve /api/v1 at this address.',
      'Check the base URL setting: it must be the gateway root that serves /api/v1 (no extra path), or the full address of a proxy that serves the API under its own version (ending in /v1).',
    );
  }
  if (status === 407) return proxyStatus(407, host, proxy);
  if (status >= 500) {
    return make(
      'server',
      `${host} had a server error`,
      `${proxy ? `It (or the proxy ${proxy})` : 'It'} answered ${status}: the problem is on the server side.`,
      'Try again in a few minutes; if it persists, contact the gateway administrator.',
    );
  }
  return make(
    'unknown',
    `${host} answered ${status}`,
    `${scrubUrls(error.message)}.`.replace(/\.\.$/, '.'),
    'Open the log (Unified Inference: Show Log) for details, then try again.',
  );
}

function proxyStatus(status: number | undefined, host: string, proxy: string | undefined): ConnectionDiagnosis {
  const who = proxy ? `The proxy ${proxy}` : 'The proxy';
  if (status === undefined) {
    return make(
      'proxy',
      `The proxy closed the connection to ${host}`,
      `${who} gave no answer to the request to connect.`,
      'Check the proxy setting (http.proxy, or HTTPS_PROXY / HTTP_PROXY) and that the proxy is working.',
      PROXY_SETTING,
    );
  }
  if (status === 407) {
    return make(
      'proxy',
      'The proxy needs a user name and password',
      `${who} answered 407 to the request for ${host}: the proxy credentials are missing or wrong.`,
      'Put them in the proxy URL (http://user:password@host:port) in http.proxy or HTTPS_PROXY.',
      PROXY_SETTING,
    );
  }
  if (status === 403) {
    return make(
      'proxy',
      `The proxy does not allow ${host}`,
      `${who} answered 403 when asked to connect to it.`,
      `Ask your network administrator to allow ${host} through the proxy, or add ${host} to http.noProxy / NO_PROXY if it is reachable directly.`,
      NO_PROXY_SETTING,
    );
  }
  return make(
    'proxy',
    `The proxy could not reach ${host}`,
    `${who} answered ${status} when asked to connect: the gateway is not reachable from there.`,
    `Check that the gateway runs at the base URL, or add ${host} to http.noProxy / NO_PROXY if it is only reachable directly.`,
    NO_PROXY_SETTING,
  );
}

function proxyUnreachable(code: string, proxy: string): ConnectionDiagnosis {
  const what =
    code === 'ECONNREFUSED'
      ? 'refused the connection'
      : code === 'ENOTFOUND'
        ? 'could not be found (DNS lookup failed)'
        : `could not be reached (${code})`;
  return make(
    'proxy',
    `Cannot reach the proxy ${proxy}`,
    `It ${what}, so the gateway was not tried.`,
    'Check the proxy setting (http.proxy, or HTTPS_PROXY / HTTP_PROXY), or clear it if you do not need a proxy.',
    PROXY_SETTING,
  );
}

/** What to do about an untrusted certificate, given the CA file setting as it is. */
function caAdvice(context: DiagnosisContext): string {
  const file = context.caCertificateFile?.trim();
  if (!file)
    return "Add your company's CA certificate in the CA certificate file setting, or (only for testing) set http.proxyStrictSSL to false.";
  if (context.caCertificateUnreadable)
    return `The CA certificate file ${file} could not be read, so it was not used: correct the path in the CA certificate file setting or make the file readable.`;
  return `The CA certificate file ${file} is in use but does not vouch for this certificate: make sure it holds the certificate authority that signed it (PEM), or ask your administrator which CA that is.`;
}

function tls(
  code: string,
  chain: unknown[],
  host: string,
  proxy: string | undefined,
  context: DiagnosisContext,
): ConnectionDiagnosis {
  if (
    code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    (code === 'EPROTO' && chain.some((e) => /wrong version number/i.test(messageOf(e))))
  ) {
    return make(
      'tls',
      `${host} does not speak https`,
      'An https connection was attempted, but the server at that port answers plain http.',
      'Use http:// in the base URL setting, or the port where the gateway serves https.',
      BASE_URL_SETTING,
    );
  }
  const mitm = proxy ? ` A proxy that inspects traffic (${proxy}) presents its own certificate.` : '';
  if (UNTRUSTED_CODES.has(code)) {
    return make(
      'tls',
      `The certificate of ${host} is not trusted`,
      `Its certificate is not signed by a trusted authority (${code}).${mitm}`,
      caAdvice(context),
      CA_FILE_SETTING,
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return make(
      'tls',
      `The certificate of ${host} is not valid now`,
      `Its certificate ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'}. Also check this machine's clock.`,
      'Ask the gateway administrator to renew the certificate.',
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return make(
      'tls',
      `The certificate does not match ${host}`,
      `The certificate presented was issued for another name.${mitm}`,
      'Use the host name the certificate was issued for in the base URL setting.',
      BASE_URL_SETTING,
    );
  }
  const caNote = context.caCertificateFile?.trim()
    ? context.caCertificateUnreadable
      ? ` The CA certificate file ${context.caCertificateFile.trim()} could not be read: fix that setting.`
      : ''
    : '';
  return make(
    'tls',
    `Secure connection to ${host} failed`,
    `The TLS handshake failed (${code}).${mitm}`,
    `Check that the base URL uses https only where the gateway serves it, and the CA certificate file setting.${caNote}`,
    caNote ? CA_FILE_SETTING : BASE_URL_SETTING,
  );
}

/** The error, its causes, and the members of AggregateErrors (Node's happy-eyeballs connect), without cycles. */
function causeChain(error: unknown): unknown[] {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  const out: unknown[] = [];
  while (queue.length > 0 && out.length < 32) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.has(next)) continue;
    seen.add(next);
    out.push(next);
    if (typeof next !== 'object') continue;
    queue.push((next as { cause?: unknown }).cause);
    const members = (next as { errors?: unknown }).errors;
    if (Array.isArray(members)) queue.push(...(members as unknown[]));
  }
  return out;
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What the error itself says: the message of its cause when its own only frames that message
 * ("Could not reach the gateway at X: <cause>"), so the title that names X is not said twice.
 */
function ownWords(error: unknown): string {
  const message = messageOf(error);
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  const inner = cause === undefined ? undefined : messageOf(cause);
  return inner && inner !== 'unknown failure' && message.endsWith(inner) ? ownWords(cause) : message;
}

/** Its message; an error from another copy of the classes (or another extension) is not `instanceof Error`. */
function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
  return typeof message === 'string' ? message : 'unknown failure';
}

/** Whether a socket error is about the proxy's address (`hostname` for DNS, `address`/`port` for connect). */
function isAbout(error: unknown, proxyUrl: string): boolean {
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxyUrl) ? proxyUrl : `http://${proxyUrl}`);
  } catch {
    return true;
  }
  const fields = error as { hostname?: unknown; address?: unknown; port?: unknown };
  const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const proxyPort = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  if (typeof fields.hostname === 'string') return fields.hostname.toLowerCase() === proxyHost;
  // A refused connect names the address it tried; the proxy's host may be a name, so the port decides.
  if (typeof fields.port === 'number') return fields.port === proxyPort;
  // No location at all: with a proxy configured, the first hop is the proxy.
  return true;
}

/** Drops `user:password@` from any URL in a message. */
function scrubUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1');
}
