// Removes secrets from what the client hands on: error texts, error bodies, and any JSON value a
// host is about to persist or show. Defence in depth: code never puts a key into a message, but a
// gateway or proxy that echoes a header must not get it out. Redaction of server answers happens
// after parsing, so an escaped key (`\/`, `\u0041`) has been decoded to its plain form by then;
// raw text is searched for every form a reader could recover (secretForms.ts). A key split across
// the deltas of a stream is caught by StreamRedactor (streamRedactor.ts), not here.
import { MAX_REDACTION_DEPTH } from '../limits';
import {
  foldCase,
  MIN_SECRET_LENGTH,
  replaceRanges,
  secretPatterns,
  secretRanges,
  type SecretPatterns,
} from './secretForms';

export const REDACTED = '[redacted]';

export { secretForms } from './secretForms';

function usable(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((secret): secret is string => !!secret && secret.length >= MIN_SECRET_LENGTH);
}

/** `text` with every form of each secret (secretForms.ts: escapes, base64, hex, any letter case) replaced; the same string when none occurs. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const list = usable(secrets);
  return list.length === 0 ? text : redactWith(text, secretPatterns(list));
}

function redactWith(text: string, patterns: SecretPatterns): string {
  if (text.length < MIN_SECRET_LENGTH || patterns.forms.length === 0) return text;
  return replaceRanges(text, secretRanges(foldCase(text), patterns), REDACTED);
}

/**
 * A copy of a JSON-like value with every string (and object key) redacted. Values that hold no
 * secret come back as they are (same object), so redacting a large conversation that is clean
 * allocates nothing new.
 */
export function redactValue<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const list = usable(secrets);
  if (list.length === 0) return value;
  return redactIn(value, secretPatterns(list), 0) as T;
}

/** What stands for a value nested deeper than redaction reads: never the value unread. */
const TOO_DEEP_TO_REDACT = '[nested too deep to check]';

function redactIn(value: unknown, secrets: SecretPatterns, depth: number): unknown {
  if (typeof value === 'string') return redactWith(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_REDACTION_DEPTH) return TOO_DEEP_TO_REDACT;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    let copy: unknown[] | undefined;
    items.forEach((item, index) => {
      const redacted = redactIn(item, secrets, depth + 1);
      if (redacted !== item) (copy ??= [...items])[index] = redacted;
    });
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value; // bytes, dates: no text
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redactedKey = redactWith(key, secrets);
    const redacted = redactIn(item, secrets, depth + 1);
    if (redacted === item && redactedKey === key) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    if (redactedKey !== key) delete copy[key];
    copy[redactedKey] = redacted;
  }
  return copy ?? value;
}

/** Error fields that may carry text from the server (besides message and stack). */
const TEXT_FIELDS = ['code', 'type', 'param', 'body', 'requestId'] as const;

/**
 * Redacts an error in place: its message, stack, the text fields a GatewayError carries, and its
 * causes (an undici error may quote a proxy's answer). Returns the same error.
 */
export function redactError<E>(error: E, secrets: readonly (string | undefined)[], depth = 0): E {
  const list = usable(secrets);
  if (list.length === 0 || typeof error !== 'object' || error === null || depth > 8) return error;
  const target = error as Record<string, unknown>;
  for (const field of ['message', 'stack', ...TEXT_FIELDS]) {
    const text = target[field];
    if (typeof text !== 'string') continue;
    const redacted = redactSecrets(text, list);
    if (redacted === text) continue;
    try {
      // Our error classes declare these readonly for callers; the object itself is writable.
      Object.defineProperty(error, field, {
        value: redacted,
        writable: true,
        configurable: true,
        enumerable: field !== 'message' && field !== 'stack',
      });
    } catch {
      // a frozen foreign error: the host redacts again before showing anything
    }
  }
  if ('cause' in target && target.cause !== undefined) redactError(target.cause, list, depth + 1);
  return error;
}
