// Reading the API key from its source, once per request, and the header that carries it. Shared
// by the transport and the image downloader, so both refuse the same unusable keys.
import { AuthenticationError } from '../errors';
import type { AuthHeader } from '../../shared/settings';
import type { ApiKeySource } from '../types/common';

/** The key, trimmed; AuthenticationError when it is missing, unreadable or cannot go in a header. */
export async function resolveApiKey(source: ApiKeySource): Promise<string> {
  let key: string | undefined;
  try {
    key = typeof source === 'string' ? source : await source();
  } catch (error) {
    throw new AuthenticationError('Could not read the API key', { cause: error });
  }
  key = key?.trim();
  if (!key) throw new AuthenticationError('No API key is set');
  // A header value is Latin-1 without control characters (tab allowed). undici would refuse
  // anything else as a connection failure (and retry it), with a message that could quote the key.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(key))
    throw new AuthenticationError('The API key contains characters that cannot be sent in a header');
  return key;
}

/** The one header that carries the key, lower-case. */
export function keyHeader(authHeader: AuthHeader, key: string): Record<string, string> {
  return authHeader === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}
