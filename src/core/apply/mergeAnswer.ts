// The merge request for a partial code block and the file out of the model's answer. The model is
// asked for the whole updated file in one fence longer than any backtick run in the file, and is
// often chatty anyway ("Here is the updated file:", a list of what changed, a second snippet
// "and also..."). The answer is read as markdown reads fences (an opener, then the first closing
// line at least as long): the fence asked for is the file; else the one fence there is; else,
// among several, the longest (Apply then checks it is the file: mergedFile.ts). Prose and fence
// lines between fences are never part of the code. Only when the file itself holds fences (the
// asked fence is longer than three) can an answer without the asked fence be the file with its
// fences inside, as before: the first opener to the last closing line, with little prose outside.

/** Lines of prose tolerated around a file that holds fences of its own (the legacy reading). */
const PROSE_LINES = 5;

/** A fence of backticks longer than any run of backticks in `texts` (at least three). */
export function fenceFor(...texts: string[]): string {
  let longest = 0;
  for (const text of texts) for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const OPENING = /^ {0,3}(`{3,}|~{3,})[^`]*$/;

/** A line that opens a fence (markdown's rule: a backtick fence's info string holds no backtick). */
export function isFenceLine(line: string): boolean {
  return OPENING.test(line.replace(/\r?\n$/, ''));
}

/** One fenced block at the top level of an answer. */
interface AnswerFence {
  /** The line of the opener and of the closing fence (the end of the answer when it never closed). */
  readonly openAt: number;
  readonly closeAt: number;
  readonly closed: boolean;
  /** The opener's fence (its backticks or tildes). */
  readonly fence: string;
  /** The lines inside, as the model sent them. */
  readonly code: string;
}

/** An answer split the way markdown splits it: its lines, the fences at the top level, the rest is prose. */
export interface AnswerParts {
  readonly lines: readonly string[];
  readonly fences: readonly AnswerFence[];
  /** Lines outside every fence that are not blank. */
  readonly proseLines: number;
}

function closingFor(fence: string): RegExp {
  return new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
}

export function answerParts(answer: string): AnswerParts {
  const lines = answer.split(/(?<=\n)/);
  const bare = (line: string): string => line.replace(/\r?\n$/, '');
  const fences: AnswerFence[] = [];
  let proseLines = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = bare(lines[i] as string);
    const fence = OPENING.test(line) ? /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1] : undefined;
    if (!fence) {
      if (line.trim() !== '') proseLines++;
      continue;
    }
    const closing = closingFor(fence);
    let closeAt = i + 1;
    while (closeAt < lines.length && !closing.test(bare(lines[closeAt] as string))) closeAt++;
    const closed = closeAt < lines.length;
    fences.push({ openAt: i, closeAt, closed, fence, code: lines.slice(i + 1, closeAt).join('') });
    i = closeAt;
  }
  return { lines, fences, proseLines };
}

/**
 * The code in a model's answer (see the top of this file): the fence asked for, the one fence, the
 * longest of several, or the answer itself when it has no fence. A fence that never closed (a cut
 * answer) gives the lines after its opener. Line endings inside are kept as the model sent them.
 */
export function codeFromAnswer(answer: string, expectedFence?: string): string {
  const { fences, lines } = answerParts(answer);
  if (fences.length === 0) return answer;
  // A fence longer than three is the one asked for: no other fence of the answer is that long.
  const long = expectedFence && expectedFence.length > 3 ? expectedFence.length : undefined;
  const asked = long ? fences.find((f) => f.fence[0] === '`' && f.fence.length >= long) : undefined;
  if (asked) return asked.code;
  // The file may hold fences of its own (the fence asked for is longer than three) and the model
  // wrapped it in a shorter fence, or in none: the span from the first opener to the last closing
  // line is the file, when the prose outside it is short. Fence lines cannot be in any other file.
  if (long) {
    const span = fenceSpan(lines, fences[0] as AnswerFence);
    return span.proseOutside > PROSE_LINES ? answer : span.code;
  }
  if (fences.length === 1) return (fences[0] as AnswerFence).code;
  // Several snippets: the longest is the best guess at the file (the first of equals).
  let longest = fences[0] as AnswerFence;
  for (const fence of fences) if (lineCount(fence.code) > lineCount(longest.code)) longest = fence;
  return longest.code;
}

/**
 * The lines from the first fence's opener to the last closing line that could close it (to the
 * end when none does): the file when its own fences are inside a wrapper no longer than them.
 */
function fenceSpan(
  lines: readonly string[],
  first: AnswerFence,
): { code: string; closed: boolean; proseOutside: number } {
  const closing = closingFor(first.fence);
  let closeAt = lines.length;
  for (let i = lines.length - 1; i > first.openAt; i--) {
    if (closing.test((lines[i] as string).replace(/\r?\n$/, ''))) {
      closeAt = i;
      break;
    }
  }
  const outside = [...lines.slice(0, first.openAt), ...lines.slice(closeAt + 1)];
  return {
    code: lines.slice(first.openAt + 1, closeAt).join(''),
    closed: closeAt < lines.length,
    proseOutside: outside.filter((line) => line.trim() !== '').length,
  };
}

/** The span of fenceSpan for a whole answer (undefined when it has no fence). */
export function answerSpan(parts: AnswerParts): { code: string; closed: boolean } | undefined {
  const first = parts.fences[0];
  if (!first) return undefined;
  const { code, closed } = fenceSpan(parts.lines, first);
  return { code, closed };
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * A proposal in the file's own conventions: its line endings (a model answers with \n) and
 * whether it ends with a newline, so neither shows as a change of every line or of the last one.
 */
export function matchFileConventions(proposal: string, current: string | undefined): string {
  if (current === undefined || current === '') return proposal;
  const eol = /\r\n/.test(current) ? '\r\n' : '\n';
  let text = proposal.replace(/\r\n|\r|\n/g, eol);
  const currentEnds = /(\r\n|\n|\r)$/.test(current);
  if (!currentEnds && text.endsWith(eol)) text = text.slice(0, -eol.length);
  else if (currentEnds && text !== '' && !text.endsWith(eol)) text += eol;
  return text;
}

export interface MergePrompt {
  readonly system: string;
  readonly user: string;
}

/** The request that asks a chat model to rewrite `current` with `block` applied. */
export function mergePrompt(path: string, current: string, block: string): MergePrompt {
  const fence = fenceFor(current, block);
  const system = [
    'You apply a code edit to a file. Answer with the complete updated file and nothing else, inside one code block fenced with ' +
      fence +
      '.',
    'Change only what the edit changes: every other line of the file stays exactly as it is, including comments, blank lines and formatting.',
    'Comments in the edit such as "// ... existing code ..." or a line "..." stand for the unchanged original code at that place: keep the original there, never copy the marker into the file.',
  ].join('\n');
  const user = [
    `The file ${path}:`,
    fence,
    current.endsWith('\n') ? current.slice(0, -1) : current,
    fence,
    '',
    'The edit to apply:',
    fence,
    block.endsWith('\n') ? block.slice(0, -1) : block,
    fence,
  ].join('\n');
  return { system, user };
}
