// The merged file out of a model's answer to Apply's merge request, or the reason the answer is not
// a file. Real models answer a merge with prose around the file, with the file and a second
// snippet, with two halves of the change and no file, with "// ... rest unchanged ..." in place of
// code, or with an apology: writing such an answer over the file proposes to delete most of it
// (the review would show 19 lines of markdown in place of the source). So the answer is taken
// only when it reads as the whole file:
//   - the code is the fence that covers the merged file best (among the asked fence, the only
//     one, or several, the one that keeps most lines of the file and of the block: bestCandidate);
//   - it keeps the file: it drops at most as many of the file's significant lines as the block
//     has, plus a quarter of the file (a partial block replaces a part, it does not shrink the
//     file to a snippet; a snippet, half a file or a summary drops far more);
//   - an answer with no fence is not mostly prose (lines found neither in the file nor in the
//     block: an apology, an explanation);
//   - it holds no fence line and no elision marker ("// ... existing code ...") that the file and
//     the block do not hold (those are the answer's markdown and the model's shortcuts, not code);
//   - a fence that never closed reached the end of the file (its last significant line, or the
//     block's when the block changes the end): an answer that stopped early is half a file.
// Anything else is refused, and the user is told what the answer was (AnswerShape).
import { isElisionLine } from './wholeFile';
import { answerParts, answerSpan, codeFromAnswer, isFenceLine, type AnswerParts } from './mergeAnswer';

/** What an answer that is not the file was, for the message that says so. */
export interface AnswerShape {
  /**
   * Why it is not the file: no code at all, code that is not the file, code with parts left out,
   * or a fence that stopped before the file's end.
   */
  readonly reason: 'prose' | 'snippets' | 'elided' | 'ended-early';
  /** Code blocks in the answer (fenced, or the answer itself when it is code without a fence). */
  readonly snippets: number;
  /** Whether the answer has prose outside its fences. */
  readonly prose: boolean;
  /** Lines of the code taken from the answer, and of the file. */
  readonly lines: number;
  readonly fileLines: number;
}

export type MergedFile =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly shape: AnswerShape };

/** A line that says something: not blank, not only punctuation like "}" or "]);". */
function significantLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && /[\p{L}\p{N}]/u.test(line));
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(text) ? 1 : 0);
}

/** How many of the file's significant lines `code` keeps (each line of the file counted once per time it is there). */
function keptLines(fileLines: readonly string[], code: string): number {
  const available = new Map<string, number>();
  for (const line of significantLines(code)) available.set(line, (available.get(line) ?? 0) + 1);
  let kept = 0;
  for (const line of fileLines) {
    const left = available.get(line) ?? 0;
    if (left > 0) {
      kept++;
      available.set(line, left - 1);
    }
  }
  return kept;
}

/**
 * The code of the answer that is most likely the merged file: the candidate that keeps most lines
 * of the file and of the block together, then most of the block's (a "before" copy of the file
 * beside the "after" keeps the file but not the edit), then the one with fewest lines (the same
 * file with less prose or fewer fence lines around), then codeFromAnswer's pick. The candidates:
 * that pick, each fence, and the span from the first opener to the last closing line (a file
 * whose own fences are inside a short wrapper, when the file has such fences).
 */
function bestCandidate(
  parts: AnswerParts,
  answer: string,
  fileLines: readonly string[],
  blockLines: readonly string[],
  fence: string,
): { code: string; closed: boolean } {
  const inFile = new Set(fileLines);
  const newLines = blockLines.filter((line) => !inFile.has(line));
  const pick = codeFromAnswer(answer, fence);
  // The span carries fence lines between its ends: only a file with backtick runs of its own (the
  // fence asked for is longer than three) can hold them.
  const span = fence.length > 3 ? answerSpan(parts) : undefined;
  const candidates = [
    { code: pick, closed: parts.fences.find((f) => f.code === pick)?.closed ?? true },
    ...parts.fences,
    ...(span ? [span] : []),
  ].map((c) => {
    const edit = keptLines(newLines, c.code);
    return {
      code: c.code,
      closed: c.closed,
      kept: keptLines(fileLines, c.code) + edit,
      edit,
      lines: lineCount(c.code),
    };
  });
  const better = (a: (typeof candidates)[number], b: (typeof candidates)[number]): boolean =>
    a.kept !== b.kept ? a.kept > b.kept : a.edit !== b.edit ? a.edit > b.edit : a.lines < b.lines;
  let best = candidates[0] as (typeof candidates)[number];
  for (const candidate of candidates) if (better(candidate, best)) best = candidate;
  return best;
}

/**
 * The merged file in `answer` to the merge of `block` into `current` (the request asked for the
 * file in `fence`), or what the answer was instead.
 */
export function mergedFileFromAnswer(answer: string, current: string, block: string, fence: string): MergedFile {
  const parts = answerParts(answer);
  const fileLines = significantLines(current);
  // The block's code without its elision markers: the lines it brings.
  const blockLines = significantLines(block).filter((line) => !isElisionLine(line));
  const known = new Set([...fileLines, ...blockLines]);
  const { code, closed } = bestCandidate(parts, answer, fileLines, blockLines, fence);
  const codeLines = significantLines(code);
  const shape = (reason: AnswerShape['reason']): MergedFile => ({
    ok: false,
    shape: {
      reason,
      // Code with no fence around it is one snippet, and no prose.
      snippets: Math.max(1, parts.fences.length),
      prose: parts.fences.length > 0 && parts.proseLines > 0,
      lines: lineCount(code),
      fileLines: lineCount(current),
    },
  });
  const trimmedLines = (text: string): Set<string> => new Set(text.split(/\r\n|\r|\n/).map((line) => line.trim()));
  const inFile = trimmedLines(current);
  const inBlock = trimmedLines(block);
  const foreign = (test: (line: string) => boolean, allowed: (line: string) => boolean): boolean =>
    code.split(/\r\n|\r|\n/).some((line) => test(line) && !allowed(line.trim()));
  if (parts.fences.length === 0 && codeLines.filter((line) => !known.has(line)).length * 2 > codeLines.length)
    return shape('prose');
  // A fence line may come from the block (a fence added to a markdown file); a marker never: it
  // stands for the file's own lines. Only a bare "..." may be the block's code (Python's Ellipsis).
  if (foreign(isFenceLine, (line) => inFile.has(line) || inBlock.has(line))) return shape('snippets');
  if (foreign(isElisionLine, (line) => inFile.has(line) || (line === '...' && inBlock.has(line))))
    return shape('elided');
  const allowedDrop = blockLines.length + fileLines.length / 4;
  if (fileLines.length - keptLines(fileLines, code) > allowedDrop) return shape(closed ? 'snippets' : 'ended-early');
  if (!closed) {
    const last = codeLines[codeLines.length - 1];
    if (last === undefined || (last !== fileLines[fileLines.length - 1] && last !== blockLines[blockLines.length - 1]))
      return shape('ended-early');
  }
  return { ok: true, text: code };
}
