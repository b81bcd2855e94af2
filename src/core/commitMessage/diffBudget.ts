// Cutting the diffs of a commit to a budget, fairly: small files keep their whole diff, and what
// is left is shared evenly among the large ones (water-filling), so one generated file cannot
// crowd out every other change. Files are never dropped from the list; a file whose share is too
// small to say anything is named with "diff left out", and the model is told how much was cut.
import type { ChangedFile } from './changedFiles';

/** Below this many characters a cut diff says too little to be worth sending. */
export const MIN_FILE_DIFF_CHARS = 200;

/**
 * The most input tokens one commit message may cost. A message is a few dozen words: 16k tokens
 * is several hundred changed lines, enough to name what changed, and at a premium model's
 * $3-$15 per million input tokens at most a few cents per click.
 */
export const COMMIT_INPUT_TOKEN_CAP = 16_000;
/** Room kept for the instructions, the file list and the recent subjects. */
const COMMIT_PROMPT_RESERVE_TOKENS = 2_000;
/** Room kept for the answer. */
export const COMMIT_ANSWER_TOKENS = 1_024;
/** Characters per token assumed when the budget is turned into characters (the estimate's 1/3). */
const CHARS_PER_TOKEN = 3;

/** The characters of diff one request may carry: the money cap, or less when the model's context is smaller. */
export function diffCharBudget(contextLength: number | undefined): number {
  const context = contextLength
    ? contextLength - COMMIT_ANSWER_TOKENS - COMMIT_PROMPT_RESERVE_TOKENS
    : Number.POSITIVE_INFINITY;
  const tokens = Math.max(0, Math.min(COMMIT_INPUT_TOKEN_CAP - COMMIT_PROMPT_RESERVE_TOKENS, context));
  return tokens * CHARS_PER_TOKEN;
}

export interface DiffCut {
  /** Files whose diff was left out entirely. */
  readonly filesLeftOut: number;
  /** Files whose diff was shortened. */
  readonly filesShortened: number;
  /** Diff lines not sent. */
  readonly linesLeftOut: number;
}

export interface FittedChanges {
  readonly files: readonly ChangedFile[];
  readonly cut: DiffCut;
}

function lineCount(text: string): number {
  if (!text) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** The whole lines of `text` that fit in `max` characters. */
function headLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.lastIndexOf('\n', max);
  return end <= 0 ? '' : text.slice(0, end + 1);
}

/** Shares `budget` characters among the files' diffs; the list keeps its order and every file. */
export function fitDiffs(files: readonly ChangedFile[], budget: number): FittedChanges {
  const sizes = files.map((file) => (file.content.kind === 'diff' ? file.content.text.length : 0));
  const shares = new Array<number>(files.length).fill(0);
  // Smallest first: each takes all it needs up to an even share of what is left.
  const order = sizes
    .map((size, index) => ({ size, index }))
    .filter((entry) => entry.size > 0)
    .sort((a, b) => a.size - b.size);
  let left = Math.max(0, budget);
  order.forEach((entry, position) => {
    const share = Math.floor(left / (order.length - position));
    shares[entry.index] = Math.min(entry.size, share);
    left -= shares[entry.index] as number;
  });
  let filesLeftOut = 0;
  let filesShortened = 0;
  let linesLeftOut = 0;
  const fitted = files.map((file, index): ChangedFile => {
    if (file.content.kind !== 'diff') return file;
    const text = file.content.text;
    const share = shares[index] as number;
    if (share >= text.length) return file;
    const kept = share >= MIN_FILE_DIFF_CHARS ? headLines(text, share) : '';
    const lost = lineCount(text) - lineCount(kept);
    linesLeftOut += lost;
    if (!kept) {
      filesLeftOut++;
      return { ...file, content: { kind: 'withheld', reason: 'budget' } };
    }
    filesShortened++;
    return { ...file, content: { kind: 'diff', text: `${kept}[... ${lost} more lines of this diff not sent]\n` } };
  });
  return { files: fitted, cut: { filesLeftOut, filesShortened, linesLeftOut } };
}

/** The note to the model when the diff was cut, or undefined when it is whole. */
export function cutNote(cut: DiffCut): string | undefined {
  if (cut.linesLeftOut === 0 && cut.filesLeftOut === 0 && cut.filesShortened === 0) return undefined;
  const files = cut.filesLeftOut + cut.filesShortened;
  return `diff cut: ${files} ${files === 1 ? 'file' : 'files'} / ${cut.linesLeftOut} ${cut.linesLeftOut === 1 ? 'line' : 'lines'} left out (${cut.filesLeftOut} without any diff, ${cut.filesShortened} shortened) to keep the request small; the file list above is complete. Describe the change from what you see and the file names.`;
}
