// The request of an inline edit and the replacement out of the model's answer. The model sees the
// file's path and language, a bounded window of the code around the selection (what it needs to
// match names and style, not the whole file), the selection and the instruction; on a refinement
// also its previous proposal. It answers with the replacement for the selection only, in one fence;
// the fence and the prose real models add around it are dropped (Apply's extraction, mergeAnswer.ts).
import { codeFromAnswer, fenceFor } from '../apply/mergeAnswer';
import { lineEndingOf, withLineEnding } from '../edits/lineEndings';

/** Characters of code kept on each side of the selection (about 1,500 tokens each). */
const INLINE_EDIT_CONTEXT_CHARS = 6_000;
/** The selection sent at most: a larger one is refused (an inline edit is not a whole-file rewrite). */
export const MAX_INLINE_EDIT_SELECTION_CHARS = 40_000;
/** Characters of answer kept: past this the stream is stopped and the edit refused (a runaway model). */
export const MAX_INLINE_EDIT_ANSWER_CHARS = 120_000;

export interface InlineEditRequestText {
  /** Workspace-relative path, as the user knows it. */
  readonly path: string;
  readonly language: string;
  readonly before: string;
  readonly selection: string;
  readonly after: string;
  readonly instruction: string;
  /** A refinement: the instructions so far (oldest first) and the proposal the last one gave. */
  readonly previous?: { readonly instructions: readonly string[]; readonly proposal: string };
}

export interface InlineEditPrompt {
  readonly system: string;
  readonly user: string;
  readonly fence: string;
}

/**
 * The code around [start, end) of `text`, at most `budget` characters each side, cut at line
 * starts so the model never sees half a line (a partial first line reads as broken code).
 */
export function surroundingCode(
  text: string,
  start: number,
  end: number,
  budget = INLINE_EDIT_CONTEXT_CHARS,
): { before: string; after: string } {
  let from = Math.max(0, start - budget);
  if (from > 0) {
    const nextLine = text.indexOf('\n', from);
    from = nextLine < 0 || nextLine >= start ? start : nextLine + 1;
  }
  let to = Math.min(text.length, end + budget);
  if (to < text.length) {
    const lineEnd = text.lastIndexOf('\n', to - 1);
    to = lineEnd < end ? end : lineEnd + 1;
  }
  return { before: text.slice(from, start), after: text.slice(end, to) };
}

function fenced(fence: string, language: string, code: string): string {
  return `${fence}${language}\n${code.endsWith('\n') ? code : code === '' ? '' : `${code}\n`}${fence}`;
}

export function inlineEditPrompt(request: InlineEditRequestText): InlineEditPrompt {
  const fence = fenceFor(request.before, request.selection, request.after, request.previous?.proposal ?? '');
  const empty = request.selection.trim() === '';
  const system = [
    "You edit code in the user's editor. You are given the code around the place, the selected code and an instruction.",
    `Answer with the code that replaces the selection and nothing else, inside one code block fenced with ${fence}: no explanation before or after it.`,
    'Keep the indentation, style and line endings of the surrounding code. Never repeat the code before or after the selection. Keep what the instruction does not ask to change exactly as it is.',
    ...(empty ? ['The selection is empty: answer with the code to insert at that place.'] : []),
  ].join('\n');
  const parts = [
    `File: ${request.path} (${request.language})`,
    '',
    'Code before the selection:',
    fenced(fence, request.language, request.before),
    '',
    'The selection:',
    fenced(fence, request.language, request.selection),
    '',
    'Code after the selection:',
    fenced(fence, request.language, request.after),
    '',
  ];
  if (request.previous) {
    parts.push(
      `Earlier instructions for this selection: ${request.previous.instructions.map((i) => JSON.stringify(i)).join(', ')}`,
      'Your previous proposal for the selection (the user has not accepted it yet):',
      fenced(fence, request.language, request.previous.proposal),
      '',
      `Refine your previous proposal: ${request.instruction}`,
    );
  } else {
    parts.push(`Instruction: ${request.instruction}`);
  }
  return { system, user: parts.join('\n'), fence };
}

/**
 * The replacement for `selection` out of a complete answer: the code inside the fence (prose
 * around it dropped), in the selection's line endings, ending with a line break when the selection
 * did (a whole-line selection must stay whole lines, or the next line would join the last one).
 */
export function replacementFromAnswer(answer: string, selection: string, fence?: string): string {
  let code = codeFromAnswer(answer, fence);
  // A model that answered with no fence but a language tag line or only prose: taken as it is.
  const eol = lineEndingOf(selection);
  code = withLineEnding(code, eol);
  const endsWithBreak = /(\r\n|\n)$/.test(selection);
  if (endsWithBreak && code !== '' && !code.endsWith(eol)) code += eol;
  if (!endsWithBreak && code.endsWith(eol) && selection !== '') code = code.slice(0, -eol.length);
  return code;
}
