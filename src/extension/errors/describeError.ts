// Turns a failed request into what the chat shows: a specific message and the actions that fix
// it. Compared by `name`, not instanceof: a caller's copy of the error classes may not be ours.
// Pure (no vscode import): unit-tested in Node.
import { isContextLengthError } from '../../core/index';
import type { ChatErrorInfo } from '../../shared/chatModel';

export interface ErrorContext {
  readonly baseUrl: string;
  /** When the quota window resets (ISO 8601), from the last credits reading, if any. */
  readonly reset?: string;
  readonly now?: number;
}

interface ErrorLike {
  readonly name?: string;
  readonly message?: string;
  readonly status?: number;
  readonly quotaExhausted?: boolean;
  readonly retryAfterMs?: number;
  readonly interrupted?: boolean;
  /** TimeoutError: which wait ran out ('connect' | 'firstByte' | 'idle'). */
  readonly phase?: string;
  readonly type?: string;
}

/** An overloaded gateway or upstream (Anthropic's `overloaded_error`, 529): transient, worth another try. */
function isOverloaded(e: ErrorLike): boolean {
  return e.type === 'overloaded_error' || e.status === 529 || /\boverloaded\b/i.test(e.message ?? '');
}

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

function resetText(reset: string | undefined, now: number): string {
  const at = reset ? Date.parse(reset) : NaN;
  if (!Number.isFinite(at)) return 'New credits arrive when the quota window resets.';
  const minutes = Math.max(0, Math.round((at - now) / 60_000));
  const relative = minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `The quota window resets at ${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC (in ${relative}).`;
}

export function describeChatError(error: unknown, context: ErrorContext): ChatErrorInfo {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  const detail = e.message ?? 'Unknown error';
  const now = context.now ?? Date.now();
  // The chat compacts before sending and once more after such a refusal: this is what is left.
  const tooLong = 'Start a new conversation, pick a model with a larger context window, or shorten the message (or the system prompt, the instruction files, or the Max tokens parameter).';
  if (e.name === 'ContextOverflowError') return { kind: 'contextLength', message: `${detail} ${tooLong}`, actions: ['retry', 'openSettings'] };
  if (isContextLengthError(error)) return { kind: 'contextLength', message: `The gateway still found the conversation too long for the model's context window after it was compacted (${detail}). ${tooLong}`, actions: ['retry'] };
  switch (e.name) {
    case 'AuthenticationError':
      return { kind: 'auth', message: `The gateway refused the API key (${e.status ?? 401}): ${detail}`, actions: ['setApiKey', 'retry'] };
    case 'RateLimitError':
      return e.quotaExhausted
        ? { kind: 'outOfCredits', message: `Out of credits or usage limit reached (${detail}). ${resetText(context.reset, now)}`, actions: ['refreshCredits', 'retry'] }
        : { kind: 'rateLimited', message: `Rate limited by the gateway${e.retryAfterMs ? `: try again in ${waitText(e.retryAfterMs)}` : ''}. (${detail})`, actions: ['retry'] };
    case 'ConnectionError':
    case 'ProxyError':
      return { kind: 'unreachable', message: `Could not reach the gateway at ${context.baseUrl || '(no address set)'}: ${detail}`, actions: ['retry', 'openSettings', 'showLog'] };
    case 'TimeoutError':
      // The core's message names the wait (connect, first byte, silence), how long, and what to do.
      if (e.phase === 'connect') return { kind: 'timeout', message: detail, actions: ['retry', 'openSettings', 'showLog'] };
      if (e.phase !== undefined) return { kind: 'timeout', message: detail, actions: ['retry', 'showLog'] };
      return { kind: 'timeout', message: `The gateway at ${context.baseUrl} took too long to answer: ${detail}`, actions: ['retry', 'showLog'] };
    case 'UnexpectedContentError':
      // A captive portal or a proxy page: the network or the address is the thing to fix.
      return { kind: 'unreachable', message: detail, actions: ['retry', 'openSettings', 'showLog'] };
    case 'StreamError':
      return e.interrupted
        ? { kind: 'interrupted', message: 'The connection closed before the reply finished. What arrived is kept.', actions: ['retry'] }
        : isOverloaded(e)
          ? { kind: 'server', message: `The model is overloaded and stopped the reply partway (${detail}). What arrived is kept; try again in a moment.`, actions: ['retry'] }
          : { kind: 'server', message: `The gateway ended the reply with an error: ${detail}`, actions: ['retry', 'showLog'] };
    case 'InvalidRequestError':
      return { kind: 'invalid', message: `The request was not sent: ${detail}`, actions: ['openSettings'] };
    default:
      if (e.status !== undefined && isOverloaded(e)) return { kind: 'server', message: `The model is overloaded (${e.status}): ${detail}. Try again in a moment.`, actions: ['retry'] };
      if (e.status !== undefined && e.status >= 500) return { kind: 'server', message: `The gateway failed (${e.status}): ${detail}`, actions: ['retry', 'showLog'] };
      return { kind: 'other', message: detail, actions: ['retry', 'showLog'] };
  }
}
