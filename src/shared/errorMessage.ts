// What a caught value says, for a log line or a notice: anything may be thrown (an Error, a string,
// an object from another extension), and a log line must never read "[object Object]" unasked.

/** An Error's message, or the thrown value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
