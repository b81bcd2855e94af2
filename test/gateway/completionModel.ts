// The completion model `sim-openai/gpt-sim-complete`: its chat answer is the REAL continuation of
// the file being edited, so tests can check the shown text exactly. It reads the hole prompt the
// extension sends (format in src/core/completions/completionPrompt.ts: `Hole marker: M`, the file
// between `<|FILE_START..|>` and `<|FILE_END..|>` with M at the cursor), finds the source file
// whose text contains the end of the prefix (longest tail match, bounded work) among the files
// the gateway was given (completionFiles.ts), and answers what follows the cursor there: many
// lines, as real models keep going past the line or block they were asked for (the client must
// stop and abort). `wrap=` fault items wrap it the ways real models do (README.md).
import { badRequest } from './errors';
import type { SourceFile } from './completionFiles';
import { FAULT_HEADER } from './faults';

export type WrapKind = 'fence' | 'prefix' | 'overlap' | 'explain';
const WRAP_KINDS: readonly WrapKind[] = ['fence', 'prefix', 'overlap', 'explain'];

/** The continuation answered: at most this many lines and characters (max_tokens cuts it further). */
const CONTINUATION_LINES = 30;
const CONTINUATION_CHARS = 4000;
/** Tail lengths tried, longest first: a longer match picks the right file among similar ones. */
const TAILS = [400, 160, 64, 24];
/** How far back a candidate's match is extended to choose between occurrences. */
const EXTEND_CHARS = 4000;
const MAX_OCCURRENCES = 64;
/** Characters compared backwards per request, in all: a folder of near-identical files stays cheap. */
const COMPARE_BUDGET = 2_000_000;

export function parseWrap(value: string | undefined): ReadonlySet<WrapKind> {
  const kinds = (value ?? '').split('+').map((k) => k.trim().toLowerCase());
  if (kinds.length === 0 || kinds.some((k) => !WRAP_KINDS.includes(k as WrapKind))) {
    throw badRequest(FAULT_HEADER, `fault item 'wrap' takes ${WRAP_KINDS.join(', ')}, joined by '+'`, 'invalid_fault');
  }
  return new Set(kinds as WrapKind[]);
}

export interface HolePrompt {
  readonly language: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** Reads the hole prompt; undefined when the message is not one (the model then chats as the others do). */
export function parseHolePrompt(user: string): HolePrompt | undefined {
  const head = user.slice(0, 2000);
  const marker = /^Hole marker: (<\|FILL_HERE(?:_\d+)?\|>)$/m.exec(head)?.[1];
  if (!marker) return undefined;
  const start = `${marker.replace('FILL_HERE', 'FILE_START')}\n`;
  const end = `\n${marker.replace('FILL_HERE', 'FILE_END')}`;
  const from = user.indexOf(start);
  const at = user.indexOf(marker, from + start.length);
  if (from < 0 || at < 0 || !user.endsWith(end)) return undefined;
  const language = /^Language: (.*)$/m.exec(head)?.[1] ?? '';
  return {
    language,
    prefix: user.slice(from + start.length, at),
    suffix: user.slice(at + marker.length, user.length - end.length),
  };
}

/** How many characters before `at` in `text` equal the end of `prefix` (at most EXTEND_CHARS). */
function backMatch(text: string, at: number, prefix: string, budget: { left: number }): number {
  const limit = Math.min(EXTEND_CHARS, at, prefix.length, Math.max(0, budget.left));
  let n = 0;
  while (n < limit && text.charCodeAt(at - 1 - n) === prefix.charCodeAt(prefix.length - 1 - n)) n++;
  budget.left -= n + 1;
  return n;
}

/** The file and position where the prefix ends, by the longest tail match; undefined when none. */
function findCursor(
  files: readonly SourceFile[],
  prefix: string,
): { readonly file: SourceFile; readonly at: number } | undefined {
  const sizes = [...new Set(TAILS.map((size) => Math.min(size, prefix.length)))];
  const budget = { left: COMPARE_BUDGET };
  for (const size of sizes) {
    const tail = prefix.slice(prefix.length - size);
    if (tail.trim().length < 8) return undefined;
    let best: { file: SourceFile; at: number; score: number } | undefined;
    for (const file of files) {
      let from = 0;
      for (let n = 0; n < MAX_OCCURRENCES; n++) {
        const found = file.text.indexOf(tail, from);
        if (found < 0) break;
        const at = found + tail.length;
        const score = backMatch(file.text, at, prefix, budget);
        if (!best || score > best.score) best = { file, at, score };
        from = found + 1;
      }
    }
    if (best) return { file: best.file, at: best.at };
  }
  return undefined;
}

/** Where the text after the cursor starts again in the file (the hole's end), if it does. */
function holeEnd(text: string, at: number, suffix: string): number | undefined {
  const window = text.slice(at, at + 16 * 1024);
  for (const size of [200, 60, 20]) {
    const head = suffix.slice(0, size);
    if (head.trim() === '') continue;
    const found = window.indexOf(head);
    if (found >= 0) return at + found;
    if (head.length < size) break;
  }
  return undefined;
}

function continuation(text: string, at: number): string {
  let end = at;
  for (let n = 0; n < CONTINUATION_LINES && end < text.length; n++) {
    const nl = text.indexOf('\n', end);
    end = nl < 0 ? text.length : nl + 1;
  }
  return text.slice(at, Math.min(end, at + CONTINUATION_CHARS));
}

/** The prefix from the start of its last line with text (what a model re-types before its answer). */
function repeatedPrefix(prefix: string): string {
  let start = prefix.lastIndexOf('\n') + 1;
  while (start > 0 && prefix.slice(start).trim() === '') start = prefix.lastIndexOf('\n', start - 2) + 1;
  return prefix.slice(Math.max(start, prefix.length - 400));
}

/** The text after the cursor up to the end of its first line with text. */
function suffixHead(suffix: string): string {
  const text = /^\s*\S[^\n]*/.exec(suffix.slice(0, 2000))?.[0];
  return text ?? '';
}

const FENCE_LANGUAGE: Readonly<Record<string, string>> = {
  typescript: 'ts',
  javascript: 'js',
  typescriptreact: 'tsx',
  javascriptreact: 'jsx',
  python: 'python',
  shellscript: 'bash',
};

/** The answer to a hole prompt, wrapped as asked; `// sim: no continuation found` when no file matches. */
export function completionAnswer(
  files: readonly SourceFile[],
  hole: HolePrompt,
  wrap: ReadonlySet<WrapKind> = new Set(),
): string {
  const cursor = findCursor(files, hole.prefix);
  // sim: no continuation found: a short plausible line that says so rather than guessing code.
  let core = cursor
    ? continuation(cursor.file.text, cursor.at)
    : `${hole.language === 'python' ? '#' : '//'} sim: no continuation found`;
  if (cursor && wrap.has('overlap')) {
    // A model that answered the hole and then the text after the cursor, and stopped.
    const end = holeEnd(cursor.file.text, cursor.at, hole.suffix);
    const hole_ =
      end === undefined
        ? core.slice(0, core.indexOf('\n') < 0 ? core.length : core.indexOf('\n'))
        : cursor.file.text.slice(cursor.at, end);
    core = hole_ + suffixHead(hole.suffix);
  }
  let text = wrap.has('prefix') ? repeatedPrefix(hole.prefix) + core : core;
  if (wrap.has('fence'))
    text = `\`\`\`${FENCE_LANGUAGE[hole.language] ?? hole.language}\n${text}${text.endsWith('\n') ? '' : '\n'}\`\`\`\n`;
  if (wrap.has('explain'))
    text = wrap.has('fence')
      ? `Here is the completion:\n\n${text}\nThis continues the code at the marker.\n`
      : `Here is the completion:\n${text}`;
  return text;
}
