// Where the code is in what a chat model answers. Told to answer only code, real models still
// open with a sentence ("Here is the completion:"), wrap the code in a markdown fence, and close
// with a sentence about it. This reads the answer line by line the way both the stop rule (on
// every delta) and the post-processing (once) need it: the lead-in skipped, the code lines, and
// whether a closing fence ended them.

/** The opening words of a sentence about the answer rather than code (refusals and hedges too). */
const EXPLAIN_START =
  /^(?:here(?:'s| is| are)\b|sure\b|certainly\b|of course\b|okay\b|ok\b|below\b|the (?:following|completion|missing|code|rest|answer|hole|line|snippet)\b|this (?:is|completes|code|line|will|fills|should|adds|function|snippet|completion|implementation|replaces)\b|that (?:is|completes|should|will)\b|i(?:'ve| have|'ll| will)\b|to (?:complete|fill)\b|you can\b|completion\b|answer\b|explanation\b|note\b|output\b|i(?:'m| am) (?:sorry|unable|not able)\b|sorry\b|i can(?:'t|not| not)\b|unfortunately\b|it (?:looks|seems) like\b|as an ai\b)/i;
const MARKDOWN_LABEL = /^\*\*[^*]{1,60}\*\*:?$/;
const FENCE_OPEN = /^\s*(?:```+|~~~+)\s*[\w+#.-]*\s*$/;
const FENCE_CLOSE = /^\s*(?:```+|~~~+)\s*$/;

/** A line that talks about the answer (skipped before the code, cut after it). */
export function isExplanation(line: string): boolean {
  const text = line.trim();
  if (text === '' || text.length > 300) return false;
  if (MARKDOWN_LABEL.test(text)) return true;
  if (!EXPLAIN_START.test(text)) return false;
  // "this.value = x" or "here(x)" are code; a sentence has words and ends like one, or has no code punctuation.
  return /[:.!]$/.test(text) || (!/[;{}()=<>[\]]/.test(text) && /\s/.test(text));
}

function isFenceOpen(line: string): boolean {
  return FENCE_OPEN.test(line);
}

function isFenceClose(line: string): boolean {
  return FENCE_CLOSE.test(line);
}

/** The reader's state between lines (kept across deltas by the stop rule). */
export interface AnswerState {
  /** `lead`: before the code (blank lines, sentences, an opening fence); `code`; `done`: a fence ended the code. */
  phase: 'lead' | 'code' | 'done';
  fenced: boolean;
  /** Blank lines seen in the lead-in, kept if the code follows them directly (a suggestion that starts on the next line). */
  pendingBlank: number;
  /** A sentence came first: blank lines after it separate it from the code, they are not code. */
  explained: boolean;
}

export function newAnswerState(): AnswerState {
  return { phase: 'lead', fenced: false, pendingBlank: 0, explained: false };
}

/**
 * Feeds one whole line (without its newline). Returns the code lines it contributes (the pending
 * blank lines with the first code line), or none.
 */
export function readAnswerLine(state: AnswerState, line: string): string[] {
  if (state.phase === 'done') return [];
  if (state.phase === 'lead') {
    if (line.trim() === '') {
      state.pendingBlank++;
      return [];
    }
    if (isFenceOpen(line)) {
      state.fenced = true;
      state.phase = 'code';
      state.pendingBlank = 0;
      return [];
    }
    if (isExplanation(line)) {
      state.pendingBlank = 0;
      state.explained = true;
      return [];
    }
    state.phase = 'code';
    const blanks = state.fenced || state.explained ? [] : Array.from({ length: state.pendingBlank }, () => '');
    state.pendingBlank = 0;
    return [...blanks, line];
  }
  if (state.fenced ? isFenceClose(line) : /^\s*(?:```|~~~)/.test(line)) {
    state.phase = 'done';
    return [];
  }
  return [line];
}

/** The code of a whole answer: lead-in and fences removed; `closed` when a fence ended it. */
export function answerCode(raw: string): { readonly code: string; readonly closed: boolean } {
  const state = newAnswerState();
  const lines: string[] = [];
  for (const line of raw.replace(/\r\n?/g, '\n').split('\n')) {
    lines.push(...readAnswerLine(state, line));
    if (state.phase === 'done') break;
  }
  return { code: lines.join('\n'), closed: state.phase === 'done' };
}

/** Languages where a backtick is code (template literals, raw strings, commands, quoted names). */
const BACKTICK_LANGUAGES =
  /^(?:javascript|typescript|javascriptreact|typescriptreact|vue|svelte|go|shellscript|bash|sh|zsh|powershell|perl|ruby|kotlin|scala|sql|mysql|haskell|r|markdown|latex|nim|julia|elixir|fsharp|swift|dart)$/;

/**
 * A one-line answer wrapped in an inline fence (```foo();```) or, where a backtick is no code, in
 * backticks (`foo()`): the wrapping pair removed. A model formatting its line as markdown.
 */
export function withoutInlineFence(code: string, languageId: string | undefined): string {
  if (code.includes('\n')) return code;
  const fenced = /^(\s*)```+([^`]+?)```+\s*$/.exec(code);
  if (fenced) return (fenced[1] ?? '') + (fenced[2] ?? '').trim();
  if (languageId !== undefined && BACKTICK_LANGUAGES.test(languageId)) return code;
  const ticked = /^(\s*)`([^`]+)`\s*$/.exec(code);
  return ticked ? (ticked[1] ?? '') + (ticked[2] ?? '') : code;
}
