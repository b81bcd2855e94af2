// The `echo-key` fault: a gateway or proxy that repeats the caller's key back, in error texts, in
// response headers and in error events inside streams. `echo-key=escaped` writes the JSON the way
// some servers do (`\/` for slashes) and spells the key with `\u` escapes, so only a client that
// redacts after parsing, not in the raw bytes, keeps it out of what it shows and stores.

export type EchoMode = 'plain' | 'escaped';

export interface KeyEcho {
  readonly key: string;
  readonly mode: EchoMode;
}

/** The headers an echoing gateway adds to every answer (a request id is shown to users and support). */
export function echoHeaders(echo: KeyEcho): Record<string, string> {
  return { 'x-request-id': echo.key, 'x-echoed-authorization': `Bearer ${echo.key}` };
}

/** JSON text for a body or an event's data, escaped as `echo.mode` asks. */
export function echoJson(echo: KeyEcho, text: string): string {
  if (echo.mode === 'plain') return text;
  const spelled = [...echo.key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const escapedKey = JSON.stringify(echo.key).slice(1, -1);
  return text.split(escapedKey).join(spelled).replace(/\//g, '\\/');
}

/** An error object of either API's shape (`{error: {...}}` or `{type: 'error', error: {...}}`) with the key in its message, code and (chat) type. */
export function echoIntoError(echo: KeyEcho, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const outer = value as Record<string, unknown>;
  const inner = outer.error;
  if (typeof inner === 'string') return { ...outer, error: `${inner} (the key sent was ${echo.key})` };
  if (typeof inner !== 'object' || inner === null) return value;
  const error = { ...(inner as Record<string, unknown>) };
  error.message = `${String(error.message ?? '')} (the key sent was ${echo.key})`;
  error.code = `${String(error.code ?? 'echo')}:${echo.key}`;
  // Anthropic's error type names the failure the client acts on (overloaded_error); chat's may carry it.
  if (outer.type !== 'error') error.type = `${String(error.type ?? 'error')} ${echo.key}`;
  return { ...outer, error };
}
