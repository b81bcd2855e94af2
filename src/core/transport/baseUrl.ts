// The user's base URL setting, made into the address requests go to (wire-conventions "Addresses").
import { InvalidRequestError } from '../errors';
import { addressClass, bareHost, isLocalhostName } from '../net/addressClass';

const API_SUFFIX = '/api/v1';
/** A last path segment that names an API version (`v1`, `v2`): a proxy's own API prefix. */
const VERSION_SEGMENT = /\/v\d+$/i;

/**
 * The gateway root without a trailing slash and without `/api/v1`: `https://h/x/`, `https://h/x`
 * and `https://h/x/api/v1/` all give `https://h/x`. Throws InvalidRequestError('baseUrl') for
 * anything that is not an http(s) URL. Credentials, query and fragment are dropped so that they
 * can never end up in a request line or an error message.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new InvalidRequestError('baseUrl', 'the gateway address is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError('baseUrl', 'the gateway address must start with http:// or https://');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(API_SUFFIX)) path = path.slice(0, -API_SUFFIX.length).replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * The prefix requests go below: `{root}/api/v1` for a base URL in any of the accepted forms, or
 * the address as given when its path already ends in a version segment (`/v1`, `/openai/v1`,
 * `/v2`), as proxies placed in front of the gateway serve it. Never doubles a version.
 */
export function apiBaseUrl(baseUrl: string): string {
  const root = normalizeBaseUrl(baseUrl);
  return VERSION_SEGMENT.test(new URL(root).pathname) ? root : `${root}${API_SUFFIX}`;
}

/**
 * Whether requests to this address carry the key in clear text over a network: `http://` to a
 * host that is not this machine (loopback addresses 127.0.0.0/8 and ::1, `localhost`). False for
 * https, loopback, and anything that is not an http(s) URL.
 */
export function sendsKeyInClearText(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = bareHost(url.hostname);
  const kind = addressClass(host);
  // 0.0.0.0 and :: are reached on this machine too.
  return !(isLocalhostName(host) || kind === 'loopback' || kind === 'unspecified');
}
