// When to stop paying for an answer. The provider calls this on every delta and aborts the request
// as soon as it says true: the connection closes and the gateway stops generating, so the user
// does not pay for the lines post-processing would throw away (real models keep going well past
// the line or block they were asked for). The rules mirror completionText.ts: a line answer is
// complete at its first newline after code, a block answer when its block closes (bracket depth
// below where it started, or a dedent below the cursor's indentation), at a closing fence, or when
// it starts repeating the code after the cursor.
//
// Cheap: whole lines are read once (the state lives beside the prompt object, reset if the text is
// not the continuation of what was seen); only the unfinished last line is read again, and it is
// bounded by MAX_LINE_CHARS (a longer line stops the answer: it is garbage anyway).
import { newAnswerState, readAnswerLine, type AnswerState } from './completionAnswer';
import type { CompletionPrompt } from './completionInput';
import {
  hashComments,
  indentOf,
  indentWidth,
  isIndentedLanguage,
  lineBeforeCursor,
  lineBrackets,
} from './completionSyntax';
import {
  MAX_ANSWER_CHARS,
  MAX_LINE_CHARS,
  atTopLevel,
  distinctSuffixLine,
  topLevelStep,
  type TopLevelState,
} from './completionText';

interface StopState {
  /** The first characters of the text seen: a different text resets the state. */
  head: string;
  /** Characters read as whole lines. */
  consumed: number;
  answer: AnswerState;
  /** Code lines read so far. */
  codeLines: number;
  depth: number;
  /** Prefix lines the model is re-typing (their brackets do not count); -1 once it stopped repeating. */
  repeatAt: number;
  complete: boolean;
  /** At top level (PromptFacts.topLevel): where the answer's first block or paragraph ends. */
  top: TopLevelState;
}

interface PromptFacts {
  readonly hash: boolean;
  readonly byIndent: boolean;
  readonly cursorIndent: number;
  /** The cursor is outside every block: the answer ends with its first block or paragraph (topLevelStep). */
  readonly topLevel: boolean;
  readonly suffixLine: string | undefined;
  /** The prefix's last lines before the cursor line, trimmed. */
  readonly recent: readonly string[];
}

const states = new WeakMap<CompletionPrompt, StopState>();
const facts = new WeakMap<CompletionPrompt, PromptFacts>();

function factsOf(prompt: CompletionPrompt): PromptFacts {
  let known = facts.get(prompt);
  if (known) return known;
  const lines = prompt.sentPrefix.slice(Math.max(0, prompt.sentPrefix.length - 4000)).split('\n');
  lines.pop();
  const recent = lines.slice(-8).map((line) => line.trim());
  const previous = [...recent].reverse().find((line) => line !== '') ?? '';
  const hash = hashComments(prompt.languageId);
  const cursorIndent = indentWidth(indentOf(lineBeforeCursor(prompt.sentPrefix)));
  known = {
    hash,
    topLevel: atTopLevel(prompt.sentPrefix, cursorIndent, hash),
    byIndent: isIndentedLanguage(prompt.languageId) || /:$/.test(previous),
    cursorIndent,
    suffixLine: distinctSuffixLine(prompt.sentSuffix),
    recent,
  };
  facts.set(prompt, known);
  return known;
}

/** Whether one code line ends the answer (whole: `partial` false; the unfinished last line: true). */
function endsAnswer(
  state: StopState,
  line: string,
  prompt: CompletionPrompt,
  known: PromptFacts,
  partial: boolean,
): boolean {
  const index = state.codeLines;
  if (prompt.shape === 'line') return !partial && line.trim() !== '';
  const trimmed = line.trim();
  if (index > 0 && trimmed !== '' && known.byIndent && indentWidth(indentOf(line)) < known.cursorIndent) return true;
  if (!partial && index > 0 && known.suffixLine !== undefined && trimmed === known.suffixLine) return true;
  // A re-typed prefix line opens brackets the answer will close: they do not count.
  if (state.repeatAt >= 0 && trimmed !== '') {
    const at = state.repeatAt === 0 && index === 0 ? known.recent.indexOf(trimmed) : state.repeatAt;
    if (at >= 0 && known.recent[at] === trimmed) {
      if (!partial) state.repeatAt = at + 1 < known.recent.length ? at + 1 : -1;
      return false;
    }
    if (!partial) state.repeatAt = -1;
  }
  const { net, min } = lineBrackets(line, known.hash);
  if (state.depth + min < 0) return true;
  if (known.topLevel) {
    // The partial line is read on a copy: it is read again once it is whole.
    const step = topLevelStep(partial ? { ...state.top } : state.top, line, known.cursorIndent, known.hash);
    if (step === 'before' || (step === 'after' && !partial)) return true;
  }
  if (!partial) state.depth += net;
  return false;
}

export function completionIsComplete(rawSoFar: string, prompt: CompletionPrompt): boolean {
  if (rawSoFar.length >= MAX_ANSWER_CHARS) return true;
  const known = factsOf(prompt);
  let state = states.get(prompt);
  if (!state || rawSoFar.length < state.consumed || !rawSoFar.startsWith(state.head)) {
    state = {
      head: rawSoFar.slice(0, 64),
      consumed: 0,
      answer: newAnswerState(),
      codeLines: 0,
      depth: 0,
      repeatAt: 0,
      complete: false,
      top: { depth: 0, sawCode: false, afterBlank: false },
    };
    states.set(prompt, state);
  }
  if (state.head.length < 64) state.head = rawSoFar.slice(0, 64);
  if (state.complete) return true;
  for (let nl = rawSoFar.indexOf('\n', state.consumed); nl >= 0; nl = rawSoFar.indexOf('\n', state.consumed)) {
    const line = rawSoFar.slice(state.consumed, nl).replace(/\r$/, '');
    state.consumed = nl + 1;
    for (const code of readAnswerLine(state.answer, line)) {
      if (endsAnswer(state, code, prompt, known, false)) return (state.complete = true);
      state.codeLines++;
    }
    if (state.answer.phase === 'done') return (state.complete = true);
  }
  const partial = rawSoFar.slice(state.consumed);
  if (partial.length > MAX_LINE_CHARS) return (state.complete = true);
  // The unfinished line can already close the block (`}` arrived) or dedent.
  if (state.answer.phase === 'code' && !/^\s*(?:```|~~~)/.test(partial))
    return endsAnswer(state, partial, prompt, known, true);
  return false;
}
