// What the credit balance is known to be: a reading, or why there is none. The monitor
// (src/extension/account/creditsMonitor.ts) produces these; the status item, the tooltip, chat and
// the tools show them.
import { errorMessage } from '../../shared/errorMessage';
import { AuthenticationError, RateLimitError } from '../errors';

export interface CreditsReading {
  readonly credits: number;
  /** ISO 8601, as the gateway sent it. */
  readonly reset: string;
  /** When it was read (ms since epoch). */
  readonly at: number;
}

export type CreditsState =
  | { readonly kind: 'noBaseUrl' }
  | { readonly kind: 'noKey' }
  | { readonly kind: 'loading'; readonly last?: CreditsReading }
  | { readonly kind: 'ok'; readonly reading: CreditsReading }
  | { readonly kind: 'badKey'; readonly message: string }
  | { readonly kind: 'outOfCredits'; readonly last?: CreditsReading }
  | { readonly kind: 'offline'; readonly message: string; readonly last?: CreditsReading }
  | { readonly kind: 'error'; readonly message: string; readonly last?: CreditsReading };

/** Out of credits, keeping the last reading when there is one (it still says when credits return). */
export function outOfCredits(last: CreditsReading | undefined): CreditsState {
  return last ? { kind: 'outOfCredits', last } : { kind: 'outOfCredits' };
}

/**
 * The state a failed quota read leaves: a refused key, no credits, no network, or another failure.
 * `describeConnectionFailure` words a failed connection as Test Connection does (cause and next step).
 */
export function creditsStateForError(
  error: unknown,
  last: CreditsReading | undefined,
  describeConnectionFailure: (error: unknown) => string = errorMessage,
): CreditsState {
  const message = errorMessage(error);
  if (error instanceof AuthenticationError) return { kind: 'badKey', message };
  if (error instanceof RateLimitError && error.quotaExhausted) return outOfCredits(last);
  const name = error instanceof Error ? error.name : '';
  const offline = name === 'ConnectionError' || name === 'TimeoutError';
  const withLast = last ? { last } : {};
  if (!offline) return { kind: 'error', message, ...withLast };
  return {
    kind: 'offline',
    message: name === 'ConnectionError' ? describeConnectionFailure(error) : message,
    ...withLast,
  };
}
