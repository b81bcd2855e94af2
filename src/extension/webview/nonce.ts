import { randomBytes } from 'node:crypto';

/** A fresh, unguessable nonce for one webview page load (24 random bytes, base64). */
export function createNonce(): string {
  return randomBytes(24).toString('base64');
}
