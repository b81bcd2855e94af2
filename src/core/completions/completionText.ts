// From what a chat model answered to what the editor inserts at the cursor. Models told to answer
// only the hole still wrap it (fences, a sentence before or after), re-type the line they were
// given, run on into the code after the cursor, and keep going past the block. Each rule below
// undoes one of those. Anything doubtful gives undefined: a completion shows nothing rather than
// something wrong (the user keeps typing; a wrong insertion costs them an undo).
import { HIDDEN } from '../../shared/visibleControls';
import { answerCode, isExplanation, withoutInlineFence } from './completionAnswer';
import type { CompletionPrompt } from './completionInput';
import {
  CLOSERS,
  OPENERS,
  hashComments,
  imbalance,
  indentOf,
  indentWidth,
  isIndentedLanguage,
  lineAfterCursor,
  lineBeforeCursor,
  lineBrackets,
  scanBrackets,
} from './completionSyntax';

/** At most this much of an answer is read (a hostile or runaway answer is bounded here). */
export const MAX_ANSWER_CHARS = 16 * 1024;
/** A line longer than this is not code anyone types (minified or garbage): nothing is shown. */
export const MAX_LINE_CHARS = 500;
/** How many lines of the prefix a model may re-type before its answer. */
const REPEAT_LINES = 8;

/**
 * Characters that act without being seen: controls (C0, C1), format characters (bidi overrides and
 * isolates that reorder what follows, zero-width spaces and joiners, the BOM, tag characters that
 * hide text, the soft hyphen), line and paragraph separators, look-alike spaces, fillers, variation
 * selectors, surrogates, private use and unassigned code points; and U+FFFD (the answer was not
 * text). An answer holding one shows nothing: ghost text is accepted with one key, unread. Tab and
 * line feed are code. src/shared/visibleControls.ts's HIDDEN, plus U+FFFD.
 */
const INVISIBLE = new RegExp(`(?![\\t\\n])(?:${HIDDEN.source}|\\uFFFD)`, 'u');

/** Whether `text` holds a character a reader would not see (INVISIBLE). */
export function hasInvisibleCharacter(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Removes an echoed hole marker and the file delimiters of the prompt (every marker completionPrompt.ts makes). */
function withoutMarkers(code: string): string {
  const text = code.replace(/<\|FILL_HERE(?:_\d+)?\|>/g, '');
  return text
    .split('\n')
    .filter((line) => !/^\s*<\|FILE_(?:START|END)(?:_\d+)?\|>\s*$/.test(line))
    .join('\n');
}

/** Line starts of the last REPEAT_LINES lines of `prefix`, farthest first. */
function recentLineStarts(prefix: string): number[] {
  const starts: number[] = [];
  let at = prefix.length;
  for (let n = 0; n < REPEAT_LINES && at > 0; n++) {
    const nl = prefix.lastIndexOf('\n', at - 1);
    starts.unshift(nl + 1);
    if (nl < 0) break;
    at = nl;
  }
  return starts;
}

/** The model re-typed the current line (or the last lines) before its answer: drop the repeat. */
function withoutRepeatedPrefix(code: string, prefix: string): string {
  for (const start of recentLineStarts(prefix)) {
    const tail = prefix.slice(start);
    if (tail.trim() === '') continue;
    if (code.startsWith(tail)) return code.slice(tail.length);
    // Re-typed without the indentation (or with another one).
    const bare = tail.trimStart();
    const codeBare = code.trimStart();
    if (bare.length >= 3 && codeBare.startsWith(bare)) return codeBare.slice(bare.length);
  }
  const cursorLine = lineBeforeCursor(prefix);
  // At an indented empty line the model often indents its first line again: the cursor already is there.
  if (
    cursorLine !== '' &&
    cursorLine.trim() === '' &&
    code.startsWith(cursorLine) &&
    /\S/.test(code.charAt(cursorLine.length))
  )
    return code.slice(cursorLine.length);
  return code;
}

/** Where a line ends (its newline's index) or the text's end. */
function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

/**
 * Whether the cursor stands outside every block (after a comment, a signature or a docblock at
 * indentation 0): there no closing bracket or dedent ends the answer, and models write function
 * after function until max_tokens.
 */
export function atTopLevel(prefix: string, cursorIndent: number, hash: boolean): boolean {
  if (cursorIndent === 0) return true;
  const scan = scanBrackets(prefix.slice(Math.max(0, prefix.length - 16_000)), hash, false);
  return scan.depth === 0 && scan.min === 0;
}

/**
 * One line of a top-level answer, read in order: whether the answer ends before it (a line at the
 * cursor's indentation after a blank line that followed code) or after it (it brings the depth of
 * a block the answer opened back to 0 at the cursor's indentation). completionStop.ts reads the
 * stream with the same rule.
 */
export interface TopLevelState {
  depth: number;
  sawCode: boolean;
  afterBlank: boolean;
}

export function topLevelStep(
  state: TopLevelState,
  line: string,
  cursorIndent: number,
  hash: boolean,
): 'before' | 'after' | undefined {
  const trimmed = line.trim();
  if (trimmed === '') {
    state.afterBlank = state.sawCode;
    return undefined;
  }
  const atCursor = indentWidth(indentOf(line)) <= cursorIndent;
  if (state.afterBlank && state.depth === 0 && atCursor) return 'before';
  state.afterBlank = false;
  state.sawCode = true;
  const before = state.depth;
  state.depth += lineBrackets(line, hash).net;
  return before > 0 && state.depth <= 0 && atCursor ? 'after' : undefined;
}

function cutAtTopLevelEnd(code: string, cursorIndent: number, hash: boolean): string {
  const lines = code.split('\n');
  const state: TopLevelState = { depth: 0, sawCode: false, afterBlank: false };
  for (let i = 0; i < lines.length; i++) {
    const step = topLevelStep(state, lines[i] as string, cursorIndent, hash);
    if (step === 'before') return lines.slice(0, i).join('\n');
    if (step === 'after') return lines.slice(0, i + 1).join('\n');
  }
  return code;
}

/** A block answer ends where the block the cursor is in closes (or, at top level, where its first block or paragraph ends). */
function cutAtBlockEnd(code: string, prompt: CompletionPrompt): string {
  const cursorLine = lineBeforeCursor(prompt.sentPrefix);
  const hash = hashComments(prompt.languageId);
  const cursorIndent = indentWidth(indentOf(cursorLine));
  if (atTopLevel(prompt.sentPrefix, cursorIndent, hash)) code = cutAtTopLevelEnd(code, cursorIndent, hash);
  if (isIndentedLanguage(prompt.languageId) || /:\s*$/.test(lastCodeLine(prompt.sentPrefix))) {
    const lines = code.split('\n');
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.trim() !== '' && indentWidth(indentOf(line)) < cursorIndent) return lines.slice(0, i).join('\n');
    }
    if (isIndentedLanguage(prompt.languageId)) return code;
  }
  const scan = scanBrackets(code, hash);
  if (scan.underflowAt < 0) return code;
  const closer = code.charAt(scan.underflowAt);
  const start = code.lastIndexOf('\n', scan.underflowAt - 1) + 1;
  const suffixCloses = prompt.sentSuffix.trimStart().startsWith(closer);
  if (code.slice(start, scan.underflowAt).trim() === '') {
    // The closing line: the suffix already has it (the editor closed the bracket), or the answer brings it.
    return suffixCloses ? code.slice(0, Math.max(0, start - 1)) : code.slice(0, lineEnd(code, scan.underflowAt));
  }
  return suffixCloses ? code.slice(0, scan.underflowAt) : code.slice(0, scan.underflowAt + 1);
}

function lastCodeLine(prefix: string): string {
  const lines = prefix.slice(Math.max(0, prefix.length - 2000)).split('\n');
  for (let i = lines.length - 2; i >= 0; i--) if ((lines[i] as string).trim() !== '') return lines[i] as string;
  return '';
}

/**
 * A model that wrote the block without its base indentation (lines 2+ less indented than the
 * cursor, though still inside the block: the block's end was cut before) gets the cursor's
 * indentation added to them, so the inserted lines line up with the code around them.
 */
function withBaseIndent(code: string, prompt: CompletionPrompt): string {
  const cursorLine = lineBeforeCursor(prompt.sentPrefix);
  if (cursorLine === '' || cursorLine.trim() !== '' || isIndentedLanguage(prompt.languageId)) return code;
  const lines = code.split('\n');
  // The closing line the answer brings (the suffix did not close the block) stands outside it.
  const last = lines.length - 1;
  const closing = last > 0 && /^\s*[)\]}]/.test(lines[last] as string) ? last : -1;
  const width = indentWidth(cursorLine);
  if (!lines.some((line, i) => i > 0 && i !== closing && line.trim() !== '' && indentWidth(indentOf(line)) < width))
    return code;
  return lines.map((line, i) => (i === 0 || i === closing || line.trim() === '' ? line : cursorLine + line)).join('\n');
}

/** The first line after the cursor worth recognising (not blank, not only closing brackets). */
export function distinctSuffixLine(suffix: string): string | undefined {
  const lines = suffix.slice(0, 4000).split('\n');
  for (let i = 1; i < Math.min(lines.length, 6); i++) {
    const text = (lines[i] as string).trim();
    if (text === '') continue;
    if (/^[\s)\]};,]*$/.test(text)) return undefined;
    return text.length >= 6 ? text : undefined;
  }
  return undefined;
}

/** The answer ran on into the code after the cursor: cut it where it starts repeating that code. */
function cutAtSuffixRepeat(code: string, suffix: string): string {
  const target = distinctSuffixLine(suffix);
  if (!target) return code;
  const lines = code.split('\n');
  for (let i = 1; i < lines.length; i++)
    if ((lines[i] as string).trim() === target) return lines.slice(0, i).join('\n');
  return code;
}

/** Sentences after the code ("This code adds ..."), after a blank line. */
function withoutTrailingExplanation(code: string): string {
  const lines = code.split('\n');
  for (let i = 1; i < lines.length; i++) {
    if ((lines[i - 1] as string).trim() === '' && isExplanation(lines[i] as string) && !/^\s/.test(lines[i] as string))
      return lines.slice(0, i).join('\n');
  }
  return code;
}

/**
 * The answer ends with text that is already after the cursor (`b);` before `);`): cut it. Only
 * when cutting balances the answer (`bar()` before `)` keeps its own `)`) or the repeated text is
 * long enough not to be a coincidence.
 */
function withoutSuffixOverlap(code: string, target: string, languageId: string | undefined): string {
  const limit = Math.min(code.length, target.length, 1000);
  for (let k = limit; k > 0; k--) {
    const overlap = target.slice(0, k);
    if (!code.endsWith(overlap) || overlap.trim() === '') continue;
    const cut = code.slice(0, code.length - k);
    const punctuation = !/[\p{L}\p{N}_]/u.test(overlap);
    if (punctuation ? imbalance(cut, languageId) <= imbalance(code, languageId) : overlap.trim().length >= 4)
      return cut;
  }
  return code;
}

function isGarbage(text: string): boolean {
  return hasInvisibleCharacter(text) || text.split('\n').some((line) => line.length > MAX_LINE_CHARS);
}

export function insertionFrom(raw: string, prompt: CompletionPrompt): string | undefined {
  const { code: fenced } = answerCode(raw.slice(0, MAX_ANSWER_CHARS));
  let code = withoutRepeatedPrefix(withoutInlineFence(withoutMarkers(fenced), prompt.languageId), prompt.sentPrefix);
  if (prompt.shape === 'line') {
    const lead = /^\n+/.exec(code)?.[0] ?? '';
    if (lead && lineAfterCursor(prompt.sentSuffix).trim() !== '') return undefined;
    const rest = code.slice(lead.length).replace(/^\n+/, '');
    code = (lead ? '\n' : '') + rest.slice(0, lineEnd(rest, 0));
    code = withoutSuffixOverlap(code.trimEnd(), lineAfterCursor(prompt.sentSuffix), prompt.languageId);
  } else {
    code = cutAtBlockEnd(withoutTrailingExplanation(code), prompt);
    code = withBaseIndent(cutAtSuffixRepeat(code, prompt.sentSuffix), prompt);
    code = withoutSuffixOverlap(code.trimEnd(), prompt.sentSuffix.slice(0, 1000), prompt.languageId);
  }
  code = code.trimEnd();
  if (code.trim() === '' || isGarbage(code)) return undefined;
  // A lone closing bracket the text after the cursor already has is never worth showing.
  if (code.trim().length === 1 && CLOSERS.includes(code.trim()) && !OPENERS.includes(code.trim())) return undefined;
  return code;
}
