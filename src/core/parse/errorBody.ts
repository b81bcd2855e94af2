import { isRecord, str, strOrNum, tryParseJson } from './json';

export interface ErrorBody {
  message: string;
  type?: string;
  code?: string;
  /** `error.param` (OpenAI style), used to spot a rejected `stream_options`. */
  param?: string;
}

/**
 * Reads an error body of any of the shapes in wire-conventions "Errors and retries": the message is
 * the first of `error` (a string), `error.message`, `message`, else exactly `HTTP <status>`. A body
 * that is not a JSON object (a proxy's "Bad Gateway" page) gives the fallback too: the transport
 * keeps its text on the error as `body`, for a details view, not in the message.
 */
export function parseErrorBody(status: number | undefined, text: string): ErrorBody {
  const fallback = status === undefined ? 'Gateway error' : `HTTP ${status}`;
  const json = text === '' ? undefined : tryParseJson(text);
  if (!isRecord(json)) return { message: fallback };
  return parseErrorObject(json, fallback);
}

/** The same rules for an already-parsed value (mid-stream error events carry one). */
export function parseErrorObject(json: unknown, fallback: string): ErrorBody {
  if (typeof json === 'string') return { message: json || fallback };
  if (!isRecord(json)) return { message: fallback };
  const error = json.error;
  const inner = isRecord(error) ? error : undefined;
  const message = str(error) || str(inner?.message) || str(json.message) || str(inner?.error) || fallback;
  const result: ErrorBody = { message };
  const type = str(inner?.type) ?? str(json.type);
  const code = strOrNum(inner?.code) ?? strOrNum(json.code);
  const param = str(inner?.param) ?? str(json.param);
  // An Anthropic error event is {type: "error", error: {...}}: the outer type says nothing.
  if (type !== undefined && type !== 'error') result.type = type;
  if (code !== undefined) result.code = code;
  if (param !== undefined) result.param = param;
  return result;
}
