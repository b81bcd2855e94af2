// A model's answer turned into a commit message. Models wrap the message the way they wrap
// everything: a code fence, a "Here is a commit message:" preamble, quotes around the subject,
// "**Subject:**" labels, an explanation after it. The answer is untrusted text headed for the
// commit box: control and invisible characters go, the subject is one line of a sane length, and
// the whole is bounded. Runs on every streamed piece too (`partial`), so it is linear in the text.
import { hiddenCharactersOut } from './hiddenCharacters';

/** Git's convention is 50, hard tools stop at 72; past 100 a subject is a paragraph. */
export const MAX_SUBJECT_CHARS = 100;
/** A commit body of more than this is an essay the user did not ask for. */
export const MAX_MESSAGE_CHARS = 4_000;
const MAX_BODY_LINES = 40;

const FENCE = /^\s*(`{3,}|~{3,})[^\n]*$/;
/** A line that only introduces the message ("Here's a commit message for these changes:"). */
const PREAMBLE =
  /^\s*(?:\*\*|__)?\s*(?:(?:here(?:'s| is)|sure[,!.]?|okay[,!.]?|certainly[,!.]?)[^\n]*:|(?:suggested |proposed )?commit message\s*(?:\(.*\))?\s*:?)\s*(?:\*\*|__)?\s*$/i;
/** A label in front of the subject or body ("Commit message: Fix x", "**Subject:** Fix x"). */
const LABEL = /^\s*(?:\*\*|__)?(?:commit message|subject|title|summary|body|description)\s*:\s*(?:\*\*|__)?\s*/i;
/** A paragraph that talks about the message rather than being part of it. */
const EXPLANATION =
  /^\s*(?:\*\*|__)?(?:explanation|notes?|rationale|why)\s*:|^\s*(?:this (?:commit )?message|the (?:subject|message|above|commit message)|i (?:chose|used|kept|followed|wrote)|let me know|feel free|if you (?:want|would|prefer))\b/i;

/** Control, bidirectional and invisible characters out; tabs become spaces, line ends (separators too) become \n. */
function plainText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '  ')
    .replace(/\u2028|\u2029/g, '\n');
  return hiddenCharactersOut(lines, '', true);
}

/** The inside of the first fenced block, when the answer has one (an unclosed one while streaming). */
function fencedContent(lines: readonly string[]): string[] | undefined {
  const start = lines.findIndex((line) => FENCE.test(line));
  if (start < 0) return undefined;
  const marker = (FENCE.exec(lines[start] as string)?.[1] as string).slice(0, 3);
  const end = lines.findIndex((line, index) => index > start && line.trim().startsWith(marker));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}

function unquote(line: string): string {
  const trimmed = line.trim();
  const match = /^(["'`\u201c\u2018])(.*)(["'`\u201d\u2019])$/.exec(trimmed);
  return match && match[2] && !match[2].includes(match[1] as string) ? match[2].trim() : trimmed;
}

/** A message quoted as a whole ("Fix x\n\nBody."): the quotes go, the lines stay. */
function stripWholeQuotes(lines: string[]): void {
  let last = lines.length - 1;
  while (last > 0 && !(lines[last] as string).trim()) last--;
  if (last === 0) return; // one line: cleanSubject unquotes it
  const first = (lines[0] as string).trimStart();
  const end = (lines[last] as string).trimEnd();
  const open = first[0];
  const close = open === '\u201c' ? '\u201d' : open;
  if ((open === '"' || open === "'" || open === '\u201c') && end.endsWith(close as string)) {
    lines[0] = first.slice(1);
    lines[last] = end.slice(0, -1);
  }
}

/** The subject without markdown heading or emphasis, cut at a word boundary when too long. */
function cleanSubject(line: string): string {
  let subject = unquote(
    line
      .replace(LABEL, '')
      .replace(/^#{1,6}\s+/, '')
      .replace(/^(\*\*|__)(.*)\1$/, '$2')
      .replace(/^[-*]\s+/, ''),
  );
  subject = unquote(subject.replace(LABEL, ''));
  if (subject.length <= MAX_SUBJECT_CHARS) return subject;
  const cut = subject.lastIndexOf(' ', MAX_SUBJECT_CHARS);
  return subject.slice(0, cut > MAX_SUBJECT_CHARS / 2 ? cut : MAX_SUBJECT_CHARS).trimEnd();
}

/** The commit message in a model's answer; empty when there is none. */
export function cleanCommitMessage(answer: string, partial = false): string {
  let lines = plainText(answer.slice(0, MAX_MESSAGE_CHARS * 2)).split('\n');
  const fenced = fencedContent(lines);
  if (fenced) lines = fenced;
  else {
    // An answer cut mid-way may end on the start of a fence line; wait for more rather than show it.
    if (partial && /^\s*`{1,2}$|^\s*~{1,2}$/.test(lines[lines.length - 1] ?? '')) lines = lines.slice(0, -1);
  }
  // Leading preambles and blank lines; a lone "Commit message:" label line too.
  while (lines.length > 0 && (!(lines[0] as string).trim() || PREAMBLE.test(lines[0] as string))) lines.shift();
  if (lines.length === 0) return '';
  stripWholeQuotes(lines);
  const subject = cleanSubject(lines[0] as string);
  const body: string[] = [];
  for (const raw of lines.slice(1)) {
    const line = raw.replace(LABEL, (label) => (/body|description/i.test(label) ? '' : label)).trimEnd();
    const previousBlank = body.length === 0 || body[body.length - 1] === '';
    // A paragraph about the message ends it: everything after is commentary.
    if (previousBlank && EXPLANATION.test(line)) break;
    if (!line.trim() && previousBlank) {
      if (body.length > 0) continue;
    }
    body.push(line.trim() ? line : '');
    if (body.length > MAX_BODY_LINES) break;
  }
  while (body.length > 0 && !(body[0] as string).trim()) body.shift();
  while (body.length > 0 && !(body[body.length - 1] as string).trim()) body.pop();
  const message = body.length > 0 ? `${subject}\n\n${body.join('\n')}` : subject;
  return message.slice(0, MAX_MESSAGE_CHARS).trimEnd();
}
