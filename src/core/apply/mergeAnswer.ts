// The merge request for a partial code block and the file out of the model's answer. The model is
// asked for the whole updated file in one fence longer than any backtick run in the file, and is
// often chatty anyway ("Here is the updated file:"): the wrapping fence and a few lines of prose
// around it are stripped. Fences inside the file (a markdown file, a template) stay: the wrapper
// is the first fence line and the last matching closing line, and only when little prose is
// outside them.

/** Lines of prose tolerated before the opening fence and after the closing one. */
const PROSE_LINES = 5;

/** A fence of backticks longer than any run of backticks in `texts` (at least three). */
export function fenceFor(...texts: string[]): string {
  let longest = 0;
  for (const text of texts) for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

const OPENING = /^ {0,3}(`{3,}|~{3,})[^`]*$/;

/**
 * The file in a model's answer: the content of the fence that wraps it, or the answer itself
 * when there is no such fence. Line endings inside are kept as the model sent them.
 */
export function codeFromAnswer(answer: string, expectedFence?: string): string {
  const lines = answer.split(/(?<=\n)/);
  const isBlank = (line: string): boolean => line.trim() === '';
  const bare = (line: string): string => line.replace(/\r?\n$/, '');
  // The fence the request asked for, when the model used it: fences inside the file are shorter.
  const asked = expectedFence
    ? lines.findIndex((line) => new RegExp(`^ {0,3}${expectedFence}(?!\`)[^\`]*$`).test(bare(line)))
    : -1;
  const openAt = asked >= 0 ? asked : lines.findIndex((line) => OPENING.test(bare(line)));
  if (openAt < 0) return answer;
  const opener = /^ {0,3}(`{3,}|~{3,})/.exec(lines[openAt] as string)?.[1] ?? '```';
  const closing = new RegExp(`^ {0,3}${opener[0] === '`' ? '`' : '~'}{${opener.length},}[ \\t]*$`);
  let closeAt = -1;
  for (let i = lines.length - 1; i > openAt; i--) {
    if (closing.test(bare(lines[i] as string))) {
      closeAt = i;
      break;
    }
  }
  const before = lines.slice(0, openAt).filter((line) => !isBlank(line));
  const after = lines.slice(closeAt < 0 ? lines.length : closeAt + 1).filter((line) => !isBlank(line));
  if (before.length > PROSE_LINES || after.length > PROSE_LINES) return answer;
  // A cut stream may lack the closing fence: everything after the opener is the file so far.
  const inner = lines.slice(openAt + 1, closeAt < 0 ? lines.length : closeAt).join('');
  return inner;
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
