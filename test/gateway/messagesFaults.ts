import { createHmac, randomBytes } from 'node:crypto';
import type { SseEvent } from './sse';

/**
 * The /messages stream modes (README "Fault injection"): `ping` events anywhere, an
 * `overloaded_error` event after some text, and `redacted_thinking` blocks whose opaque `data` must
 * come back byte for byte on the next turn.
 */

const NONCE_BYTES = 45;

/** Opaque data for a redacted_thinking block: base64 of a nonce and its HMAC (with `+`, `/` and padding a careless client might mangle). */
export function redactedThinkingData(secret: string): string {
  for (;;) {
    const nonce = randomBytes(NONCE_BYTES);
    const data = Buffer.concat([nonce, createHmac('sha256', secret).update(nonce).digest()]).toString('base64');
    // Keep only data that shows the characters a URL-safe or trimming re-encoding would change.
    if (/[+/]/.test(data)) return data; // 77 bytes: the text also ends in one '=' of padding
  }
}

/** True when `data` is exactly what this gateway issued (base64 is decoded leniently, so the text is compared too). */
export function isIssuedRedactedData(secret: string, data: string): boolean {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== NONCE_BYTES + 32 || bytes.toString('base64') !== data) return false;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  return createHmac('sha256', secret).update(nonce).digest().equals(bytes.subarray(NONCE_BYTES));
}

const ping: SseEvent = { event: 'ping', data: '{"type": "ping"}' };

/** A ping before every event and one at the very end: the stream must read the same with them. */
export function withPings(events: readonly SseEvent[]): SseEvent[] {
  return [...events.flatMap((event) => [ping, event]), ping];
}

const OVERLOADED_EVENT: SseEvent = {
  event: 'error',
  data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
};

/**
 * The stream up to the middle of its text deltas (at least one), then the `overloaded_error` event
 * the real API sends when it sheds load mid-answer; no message_stop follows.
 */
export function overloadedMid(events: readonly SseEvent[]): SseEvent[] {
  const textAt = events.flatMap((event, i) => (event.data.includes('"text_delta"') ? [i] : []));
  const half = textAt[Math.max(0, Math.floor(textAt.length / 2) - 1)] ?? Math.floor(events.length / 2);
  return [...events.slice(0, half + 1), OVERLOADED_EVENT];
}
