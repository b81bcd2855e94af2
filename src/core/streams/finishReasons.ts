// Which finish/stop reasons end an answer normally, and which name an error: a translating proxy
// passes an upstream's mid-stream error as a finish_reason such as `overloaded_error`
// (wire-conventions "Chat completions").
import { StreamError } from '../errors';

/** The reasons a model ends an answer with: chat completions' and /messages' stop reasons. */
const NORMAL = new Set([
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'function_call',
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
]);

/** `error`, `overloaded_error`, `api_error`, `error_upstream`: "error" as a word of the reason. */
const NAMES_AN_ERROR = /(^|[_.\-\s])error($|[_.\-\s])/i;

/** Whether a finish/stop reason reports an error rather than an end (an unknown other value is kept as text). */
export function isErrorFinishReason(reason: string): boolean {
  return !NORMAL.has(reason) && NAMES_AN_ERROR.test(reason);
}

/**
 * The error a stream ends with for such a reason: the upstream's error type is the reason, so an
 * `overloaded_error` reads as an overloaded model (describeError); what arrived before it is kept.
 */
export function finishReasonError(reason: string): StreamError {
  return new StreamError(`The stream ended with finish_reason ${reason}`, { type: reason });
}
