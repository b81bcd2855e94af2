// `content` as servers send it (wire-conventions "Chat completions"): a string, null, or an array
// of parts. Only text parts are read; image, audio, refusal or unknown parts are skipped, so
// nothing but text reaches the reply, and nothing throws.
import { isRecord } from './json';

/**
 * The text of a `content` value: the string itself, or the text parts joined (`{type:"text",
 * text}`, a part without a type but with a string `text`, or a bare string element). Undefined
 * for null, a missing value, or anything else.
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (isRecord(part) && (part.type === 'text' || part.type === undefined) && typeof part.text === 'string')
      text += part.text;
  }
  return text;
}
