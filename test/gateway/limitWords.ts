import { HttpError } from './errors';

/**
 * 429s that say what they mean only in words, as a real gateway may: no code, no type, no
 * Retry-After. `limit-words` is the spec's "usage limit or plan limit reached" (a client must not
 * retry it and should read /quota for the reset); `rate-words` is a plain request-rate limit (a
 * client retries it). The bodies are fixed so tests can match them.
 */
export type WordsFault = 'limit-string' | 'limit-nested' | 'limit-text' | 'rate';

export const LIMIT_WORDS_MESSAGE =
  'Usage limit reached for this billing period. Your credits reset at the start of the next period.';
const RATE_WORDS_MESSAGE = 'Rate limit exceeded';

/** The value of `limit-words[=string|nested|text]`. */
export function parseLimitWords(value: string | undefined): WordsFault | undefined {
  if (value === undefined || value === 'string') return 'limit-string';
  if (value === 'nested') return 'limit-nested';
  if (value === 'text') return 'limit-text';
  return undefined;
}

/** The 429 to send, with its body exactly as given (not in the endpoint's error shape). */
export function wordsError(kind: WordsFault): HttpError {
  const error = new HttpError(
    429,
    kind === 'rate' ? RATE_WORDS_MESSAGE : LIMIT_WORDS_MESSAGE,
    'rate_limit_error',
    'rate_limit_exceeded',
  );
  switch (kind) {
    case 'limit-string':
      error.rawBody = { error: LIMIT_WORDS_MESSAGE };
      break;
    case 'limit-nested':
      error.rawBody = { error: { message: 'Usage limit reached for this billing period' } };
      break;
    case 'limit-text':
      error.rawBody = 'Usage limit reached';
      break;
    case 'rate':
      error.rawBody = { error: { message: RATE_WORDS_MESSAGE } };
      break;
  }
  return error;
}
