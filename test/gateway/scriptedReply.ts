// `reply=<base64url>`: the text answer of chat and messages is exactly the decoded UTF-8 text,
// streamed in the usual pieces (word by word), instead of the simulation's own markdown. Tests use
// it to make a model answer with what a real one would (a reply naming a file in a code block, the
// merged file Apply asks for), chosen per request like any fault (header or `::reply=...` suffix).
import { badRequest } from './errors';
import { FAULT_HEADER } from './faults';

/** At most this much scripted text (decoded): a whole source file with room to spare. */
const MAX_SCRIPTED_BYTES = 256 * 1024;

export function parseScriptedReply(value: string | undefined): string {
  if (!value || !/^[A-Za-z0-9_-]+={0,2}$/.test(value))
    throw badRequest(FAULT_HEADER, "fault item 'reply' needs base64url text (A-Z a-z 0-9 - _)", 'invalid_fault');
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length > MAX_SCRIPTED_BYTES)
    throw badRequest(FAULT_HEADER, `fault item 'reply' is longer than ${MAX_SCRIPTED_BYTES} bytes`, 'invalid_fault');
  return bytes.toString('utf8');
}

/** The `reply=` item for `text` (what a test puts after `::` or in the header). */
export function scriptedReplyItem(text: string): string {
  return `reply=${Buffer.from(text, 'utf8').toString('base64url')}`;
}
