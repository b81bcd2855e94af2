// The `echo-key` fault: a gateway or proxy that repeats the caller's key back, in error texts, in
// response headers and in error events inside streams. `echo-key=escaped` writes the JSON the way
// some servers do (`\/` for slashes) and spells the key with `\u` escapes, so only a client that
// redacts after parsing, not in the raw bytes, keeps it out of what it shows and stores.
// `echo-key=split` has the model write the key into its answer, each time split across deltas and
// re-encoded as a proxy or a model might (plain, base64, base64url inside `user:<key>`, upper-case
// hex, upper case), and into its reasoning in upper case: only redaction of the stream with a
// carry-over window, matching every form, keeps it out.
import type { SimPlan } from './chatSim';

export type EchoMode = 'plain' | 'escaped' | 'split';

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
  if (echo.mode !== 'escaped') return text;
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

/** The last piece of a `split` echo's answer: a test waits for it to know every form went by. */
export const SPLIT_ECHO_END = 'End of the echo.';

/** The forms `echo-key=split` writes, each cut into three deltas. */
function splitEchoPieces(key: string): string[] {
  const forms: [string, string][] = [
    ['plain', key],
    ['base64', Buffer.from(key, 'utf8').toString('base64')],
    ['basic', Buffer.from(`user:${key}`, 'utf8').toString('base64url')],
    ['hex', Buffer.from(key, 'utf8').toString('hex').toUpperCase()],
    ['upper', key.toUpperCase()],
  ];
  const pieces: string[] = ['\n\nThe key, as I received it:'];
  for (const [label, form] of forms) {
    const a = Math.floor(form.length / 3);
    const b = Math.floor((form.length * 2) / 3);
    pieces.push(` ${label} `, form.slice(0, a), form.slice(a, b), form.slice(b), ';');
  }
  pieces.push(` ${SPLIT_ECHO_END}`);
  return pieces;
}

/** The plan of an answer whose model echoes the key (`echo-key=split`); other modes leave it as it is. */
export function echoIntoPlan(echo: KeyEcho | undefined, plan: SimPlan): SimPlan {
  if (echo?.mode !== 'split' || plan.toolCall) return plan;
  return {
    ...plan,
    contentPieces: [...plan.contentPieces, ...splitEchoPieces(echo.key)],
    ...(plan.reasoning ? { reasoning: `${plan.reasoning} The key is ${echo.key.toUpperCase()} here.` } : {}),
  };
}

/** A catalog entry from an echoing gateway: the key in a known field (`owned_by`) and in a field of its own. */
export function echoIntoModel(echo: KeyEcho | undefined, model: Record<string, unknown>): Record<string, unknown> {
  return echo
    ? { ...model, owned_by: `${String(model.owned_by)} ${echo.key}`, echoed_authorization: `Bearer ${echo.key}` }
    : model;
}
