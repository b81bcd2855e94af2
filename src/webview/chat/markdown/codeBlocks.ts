// A fenced code block as DOM: a toolbar (language, Apply, Copy, Insert at Cursor, New File) over a
// highlighted <pre><code>. The block can be updated in place while its fence is still streaming:
// the code is cut into segments and only segments whose text changed are highlighted again, so a
// block arriving token by token costs work proportional to its last segment per frame.
import { highlightToNodes, resolveLanguage } from './highlight';

/** A closed fence up to this size is highlighted as one unit (exact colours across all lines). */
const WHOLE_BLOCK_LIMIT = 8_000;
/**
 * Other blocks (a fence still open, while it streams or in a reply cut off inside it, or a long
 * one) are highlighted in independent segments of at most this many lines, so each frame
 * re-highlights at most one segment. The price: a construct spanning a segment boundary (a long
 * comment or string) may be coloured as code after the boundary. The gain: no single highlight
 * pass grows with the block. A long block keeps its segments when its fence closes: highlighting
 * 1 MB of code again in the frame that closes it would freeze the panel.
 */
const SEGMENT_LINES = 30;
/** And of at most this many characters: a segment that is one 1 MB line is cut (mid-line). */
const SEGMENT_CHARS = 4_096;

type CodeAction = 'apply' | 'copy' | 'insert' | 'newFile';

interface CodeBlockState {
  /** The code, and text after it shown but not committed yet (see appendCode). */
  committed: string;
  preview: string;
  complete: boolean;
  readonly language: string;
  /** The file the fence names (shown in the toolbar; Apply finds the same on the host). */
  readonly file: string | undefined;
  readonly grammar: string | undefined;
  readonly codeElement: HTMLElement;
  segments: { text: string; node: HTMLElement }[];
}

const codeOf = (state: CodeBlockState): string => state.committed + state.preview;

const blocks = new WeakMap<Element, CodeBlockState>();

/** The first word of a fence's info string (```ts title="x" -> ts), limited to a sane name. */
export function fenceLanguage(info: string | undefined): string {
  const word = (info ?? '').trim().split(/\s+/)[0] ?? '';
  return /^[\w#+.-]{1,40}$/.test(word) ? word : '';
}

export function createCodeBlock(
  doc: Document,
  code: string,
  language: string,
  complete: boolean,
  file?: string,
): HTMLElement {
  const grammar = resolveLanguage(language);
  const block = doc.createElement('div');
  block.className = 'md-code-block';

  const toolbar = doc.createElement('div');
  toolbar.className = 'md-code-toolbar';
  const label = doc.createElement('span');
  label.className = 'md-code-language';
  label.textContent = language;
  // The file the fence names, as models write it (```ts src/a.ts): text only, never a link.
  const fileLabel = doc.createElement('span');
  fileLabel.className = 'md-code-file';
  if (file) {
    fileLabel.textContent = file;
    fileLabel.title = file;
  } else fileLabel.hidden = true;
  toolbar.append(
    label,
    fileLabel,
    // Apply: to the file the block names (or the active editor), reviewed as a diff before anything is written.
    button(doc, 'apply', 'Apply to File', 'codicon-diff-single'),
    button(doc, 'copy', 'Copy', 'codicon-copy'),
    button(doc, 'insert', 'Insert at Cursor', 'codicon-insert'),
    button(doc, 'newFile', 'New File', 'codicon-new-file'),
  );

  const pre = doc.createElement('pre');
  const codeElement = doc.createElement('code');
  codeElement.className = grammar ? `hljs language-${grammar}` : 'hljs';
  pre.append(codeElement);
  block.append(toolbar, pre);

  const state: CodeBlockState = {
    committed: '',
    preview: '',
    complete,
    language,
    file,
    grammar,
    codeElement,
    segments: [],
  };
  blocks.set(block, state);
  fill(state, doc, code, complete);
  return block;
}

/** Updates a block made by createCodeBlock when the language and file are unchanged; false otherwise. */
export function updateCodeBlock(
  block: Element,
  code: string,
  language: string,
  complete: boolean,
  file?: string,
): boolean {
  const state = blocks.get(block);
  if (!state || state.language !== language || state.file !== file) return false;
  if (state.preview || state.committed !== code || state.complete !== complete)
    fill(state, block.ownerDocument, code, complete);
  return true;
}

/** Sets the code of a block made by createCodeBlock to `code`, with `preview` shown after it (see appendCode). */
export function setCode(block: Element, code: string, preview: string): void {
  const state = blocks.get(block);
  if (!state) return;
  fill(state, block.ownerDocument, code, false);
  if (preview) appendCode(block, '', preview, false);
}

/**
 * Appends `more` to the code of a block made by createCodeBlock and shows `preview` after it
 * without committing it (a line still arriving): for a fence too long to lex from its start each
 * frame (openBlocks.ts). Every segment but the last ends where the split rule put it, which depends
 * on the segment's own text, so only the segments from the one holding the end of the committed
 * code are split and highlighted again: the same segments as splitting the whole code gives.
 */
export function appendCode(block: Element, more: string, preview: string, complete: boolean): void {
  const state = blocks.get(block);
  if (!state) return;
  const committed = state.committed.length;
  // Back from the end to the segment holding the committed end, and at least to the last one (it
  // may not be full yet): segments before it are final, it and those after are split again.
  let index = state.segments.length;
  let start = committed + state.preview.length;
  while (index > 0) {
    start -= (state.segments[--index] as { text: string }).text.length;
    if (start <= committed) break;
  }
  const first = state.segments[index];
  const text = (first ? first.text.slice(0, committed - start) : '') + more + preview;
  state.committed += more;
  state.preview = preview;
  state.complete = complete;
  replaceSegments(state, block.ownerDocument, index, splitSegments(text));
}

/**
 * The number of the code block holding `element` among the code blocks under `container`, in
 * document order: the order in which marked's lexer meets the reply's code tokens, which is how
 * the host finds the same block in its own copy of the reply.
 */
export function codeBlockIndex(container: Element, element: Element): number | undefined {
  const block = element.closest('.md-code-block');
  if (!block || !container.contains(block)) return undefined;
  const index = Array.from(container.querySelectorAll('.md-code-block')).indexOf(block);
  return index < 0 ? undefined : index;
}

/** The code and fence language of the block holding `element` (for the toolbar actions). */
export function codeBlockOf(element: Element): { code: string; language: string } | undefined {
  const block = element.closest('.md-code-block');
  const state = block ? blocks.get(block) : undefined;
  return state ? { code: codeOf(state), language: state.language } : undefined;
}

function button(doc: Document, action: CodeAction, label: string, icon: string): HTMLButtonElement {
  const element = doc.createElement('button');
  element.type = 'button';
  element.className = 'md-code-button';
  element.dataset.mdAction = action;
  element.setAttribute('aria-label', label);
  element.title = label;
  const glyph = doc.createElement('span');
  glyph.className = `codicon ${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  element.append(glyph);
  return element;
}

function fill(state: CodeBlockState, doc: Document, code: string, complete: boolean): void {
  state.committed = code;
  state.preview = '';
  state.complete = complete;
  replaceSegments(state, doc, 0, complete && code.length <= WHOLE_BLOCK_LIMIT ? [code] : splitSegments(code));
}

/** Shows `texts` as the segments from `from` on, keeping the nodes of those whose text is unchanged. */
function replaceSegments(state: CodeBlockState, doc: Document, from: number, texts: readonly string[]): void {
  const kept = state.segments.slice(0, from);
  for (const [offset, text] of texts.entries()) {
    const old = state.segments[from + offset];
    if (old && old.text === text) {
      kept.push(old);
      continue;
    }
    const node = renderSegment(doc, text, state.grammar);
    if (old) old.node.replaceWith(node);
    else state.codeElement.append(node);
    kept.push({ text, node });
  }
  for (const stale of state.segments.slice(from + texts.length)) stale.node.remove();
  state.segments = kept;
}

/** `code` cut into segments of SEGMENT_LINES lines, or SEGMENT_CHARS characters where lines are long. */
function splitSegments(code: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let lines = 0;
  for (let at = start; at < code.length;) {
    const newline = code.indexOf('\n', at);
    const lineEnd = newline === -1 ? code.length : newline + 1;
    if (lineEnd - start > SEGMENT_CHARS) {
      const cut = surrogateSafe(code, start + SEGMENT_CHARS);
      segments.push(code.slice(start, cut));
      start = at = cut;
      lines = 0;
    } else if (newline !== -1 && ++lines === SEGMENT_LINES) {
      segments.push(code.slice(start, lineEnd));
      start = at = lineEnd;
      lines = 0;
    } else {
      at = lineEnd;
    }
  }
  if (start < code.length || segments.length === 0) segments.push(code.slice(start));
  return segments;
}

/** `at`, or one less when it would split a surrogate pair. */
function surrogateSafe(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

function renderSegment(doc: Document, text: string, grammar: string | undefined): HTMLElement {
  const span = doc.createElement('span');
  span.className = 'md-code-segment';
  const nodes = grammar ? highlightToNodes(text, grammar, doc) : undefined;
  if (nodes) span.append(nodes);
  else span.textContent = text;
  return span;
}
