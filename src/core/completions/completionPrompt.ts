// The chat request that makes a chat model fill a hole: the gateway has no fill-in-the-middle
// endpoint, so the hole is spelled out in text and the system prompt says what to answer.
//
// THE FORMAT (the local gateway's completion model parses it: test/gateway/completionModel.ts):
//
//   system: instructions naming the marker (answer only the code that replaces it, ...)
//   user:
//     Path: <workspace-relative path, control characters replaced by spaces>
//     Language: <language id>
//     Hole marker: <|FILL_HERE|>                       (the marker M, see below)
//     <blank line>
//     [Other files, for reference only (not part of this file):
//      <each snippet: `<comment>Path: <path>` then every line of it behind the comment start>
//      <blank line>]
//     [Imports of this file (above the part shown):
//      <the import lines>
//      <blank line>]
//     <|FILE_START|>
//     <sentPrefix><|FILL_HERE|><sentSuffix>
//     <|FILE_END|>
//
// M is `<|FILL_HERE|>`; when any text sent (path, snippets, imports, prefix, suffix) contains it
// or one of its delimiters, `<|FILL_HERE_1|>`, `_2`... is used, with `<|FILE_START_1|>` and
// `<|FILE_END_1|>` alongside: the three appear exactly once each in the user message. So a reader
// takes M from the `Hole marker:` line; sentPrefix is the text between `<|FILE_START..|>\n` and
// M, sentSuffix the text between M and `\n<|FILE_END..|>` (the message's end).
//
// The budget: the input may spend min(maxInputTokens, contextTokens - maxTokens) tokens
// (estimated by estimateTextTokens, pessimistic); the instructions come off first, then the
// prefix gets 70% of the rest and the suffix 20% (each giving what it does not use to the other),
// then the imports and, with whatever room is left, whole lines of the snippets in order.
import { estimateTextTokens, DEFAULT_TOKENS_PER_CHAR } from '../context/tokenEstimate';
import type { CompletionBudget, CompletionInput, CompletionPrompt, CompletionShape } from './completionInput';
import { completionShape } from './completionShape';
import { commentStyle } from './completionSyntax';

export const LINE_MAX_TOKENS = 64;
export const BLOCK_MAX_TOKENS = 256;
/** Role markers and the chat template around two messages (see MESSAGE_OVERHEAD_TOKENS). */
const OVERHEAD_TOKENS = 16;

/** The marker and its two delimiters for candidate n (0: the plain ones). */
function holeMarkers(n: number): { readonly marker: string; readonly start: string; readonly end: string } {
  const tag = n === 0 ? '' : `_${n}`;
  return { marker: `<|FILL_HERE${tag}|>`, start: `<|FILE_START${tag}|>`, end: `<|FILE_END${tag}|>` };
}

const MARKER_IN_TEXT = /<\|(?:FILL_HERE|FILE_START|FILE_END)(?:_(\d{1,6}))?\|>/g;

/**
 * The smallest n whose three markers appear in none of `texts`: one pass over each text (a file
 * full of markers cannot make this try marker after marker, each a scan of the whole prompt).
 */
function freeMarkerNumber(texts: readonly string[]): number {
  const used = new Set<number>();
  for (const text of texts)
    for (const match of text.matchAll(MARKER_IN_TEXT)) used.add(match[1] === undefined ? 0 : Number(match[1]));
  let n = 0;
  while (used.has(n)) n++;
  return n;
}

function systemText(marker: string, shape: CompletionShape): string {
  const what =
    shape === 'line'
      ? 'Complete the current line only: answer at most one line, starting exactly at the marker.'
      : 'Write the code that starts at the marker (several lines if the block needs them), indented like the surrounding code, and stop where the block the marker is in ends.';
  return [
    `You are a code completion engine. The user message shows a file with a hole marked ${marker}.`,
    `Answer ONLY the code that replaces ${marker}, exactly as it would be typed there.`,
    'No markdown fences, no explanation, no comments about the answer, and do not repeat the code before or after the hole.',
    what,
    'If nothing sensible fits, answer with nothing.',
  ].join('\n');
}

/** How many characters `tokens` may hold by the pessimistic estimate. */
function charsFor(tokens: number): number {
  return Math.max(0, Math.floor(tokens / DEFAULT_TOKENS_PER_CHAR));
}

/** The end of `text` in at most `chars` characters, starting at a line start when it had to cut. */
function keepEnd(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const nl = cut.indexOf('\n');
  return nl < 0 ? cut : cut.slice(nl + 1);
}

/** The start of `text` in at most `chars` characters, ending at a line end when it had to cut. */
function keepStart(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const nl = cut.lastIndexOf('\n');
  return nl < 0 ? cut : cut.slice(0, nl + 1);
}

/** Whole lines of `text` from its start, at most `chars` characters in all. */
function wholeLines(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const nl = text.lastIndexOf('\n', chars);
  return nl < 0 ? '' : text.slice(0, nl);
}

function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 300);
}

/** The snippet as comments (a `Path:` line, then each line), in whole lines within `room` characters. */
function commented(path: string, text: string, languageId: string, room: number): string | undefined {
  const { open, close } = commentStyle(languageId);
  // Never split more than can be sent (a huge neighbouring file costs no more than the room).
  const lines = [
    `Path: ${oneLine(path)}`,
    ...wholeLines(text, Math.max(0, room)).replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n'),
  ];
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const out = `${open}${line}${close}`.trimEnd();
    if (used + out.length + 1 > room) break;
    kept.push(out);
    used += out.length + 1;
  }
  return kept.length < 2 ? undefined : kept.join('\n');
}

export function buildCompletionPrompt(input: CompletionInput, budget: CompletionBudget): CompletionPrompt {
  const shape = completionShape(input.prefix, input.suffix);
  const maxTokens = Math.max(
    1,
    Math.min(shape === 'line' ? LINE_MAX_TOKENS : BLOCK_MAX_TOKENS, Math.floor(budget.contextTokens / 4)),
  );
  const inputTokens = Math.max(0, Math.min(budget.maxInputTokens, budget.contextTokens - maxTokens) - OVERHEAD_TOKENS);
  const header = (marker: string): string =>
    `Path: ${oneLine(input.path)}\nLanguage: ${oneLine(input.languageId)}\nHole marker: ${marker}\n\n`;
  // The fixed parts, measured with the longest marker they could carry.
  const fixed =
    estimateTextTokens(
      systemText(holeMarkers(99).marker, shape) +
        header(holeMarkers(99).marker) +
        holeMarkers(99).start +
        holeMarkers(99).end +
        holeMarkers(99).marker,
    ) + 4;
  let room = charsFor(inputTokens - fixed);
  const prefixShare = Math.floor(room * 0.7);
  const suffixShare = Math.floor(room * 0.2);
  // What one side does not use goes to the other (a cursor near the end gets a longer prefix).
  const suffixWanted = Math.min(input.suffix.length, suffixShare + Math.max(0, prefixShare - input.prefix.length));
  const sentPrefix = keepEnd(input.prefix, prefixShare + Math.max(0, suffixShare - input.suffix.length));
  const sentSuffix = keepStart(input.suffix, suffixWanted);
  room -= sentPrefix.length + sentSuffix.length;
  const parts: string[] = [];
  const imports = input.imports.replace(/\n+$/, '');
  if (imports.trim() !== '' && !sentPrefix.includes(imports.trim())) {
    const section = `Imports of this file (above the part shown):\n${wholeLines(imports, Math.max(0, room - 60))}\n\n`;
    if (section.length <= room && section.trim().split('\n').length > 1) {
      parts.push(section);
      room -= section.length;
    }
  }
  const snippets: string[] = [];
  const title = 'Other files, for reference only (not part of this file):\n';
  room -= title.length + 2;
  for (const snippet of input.snippets) {
    if (room <= 80) break;
    const text = commented(snippet.path, snippet.text, input.languageId, room);
    if (text === undefined) continue;
    snippets.push(text);
    room -= text.length + 1;
  }
  if (snippets.length) parts.unshift(`${title}${snippets.join('\n')}\n\n`);
  const body = parts.join('');
  const { marker, start, end } = holeMarkers(freeMarkerNumber([input.path, body, sentPrefix, sentSuffix]));
  const user = `${header(marker)}${body}${start}\n${sentPrefix}${marker}${sentSuffix}\n${end}`;
  return {
    system: systemText(marker, shape),
    user,
    shape,
    maxTokens,
    sentPrefix,
    sentSuffix,
    languageId: input.languageId,
    marker,
  };
}
