import type { IncomingMessage } from 'node:http';

export type AuthResult =
  | { readonly ok: true; readonly key: string; readonly header: 'authorization' | 'x-api-key' }
  | { readonly ok: false; readonly message: string };

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads the key from `Authorization: Bearer <key>` or `x-api-key: <key>` (either is enough).
 * The messages never contain the key: it must not leak into logs or error text.
 */
export function authenticate(req: IncomingMessage, isKnown: (key: string) => boolean): AuthResult {
  const bearer = single(req.headers.authorization)?.match(/^\s*Bearer\s+(\S+)\s*$/i)?.[1];
  const headerKey = single(req.headers['x-api-key'])?.trim();
  if (bearer && isKnown(bearer)) return { ok: true, key: bearer, header: 'authorization' };
  if (headerKey && isKnown(headerKey)) return { ok: true, key: headerKey, header: 'x-api-key' };
  if (!bearer && !headerKey) {
    const malformed = req.headers.authorization !== undefined;
    return {
      ok: false,
      message: malformed
        ? 'Malformed Authorization header: use "Bearer <API key>"'
        : 'Missing API key: send "Authorization: Bearer <key>" or "x-api-key: <key>"',
    };
  }
  return { ok: false, message: 'Invalid API key' };
}
