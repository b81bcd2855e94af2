// A fenced code block as DOM: a toolbar (language, Copy, Insert at Cursor, New File) over a
// highlighted <pre><code>. The block can be updated in place while its fence is still streaming:
// the code is cut into segments and only segments whose text changed are highlighted again, so a
// block arriving token by token costs work proportional to its last segment per frame.
import { highlightToNodes, resolveLanguage } from './highlight';

/** A closed fence up to this size is highlighted as one unit (exact colours across all lines). */
const WHOLE_BLOCK_LIMIT = 8_000;
/**
 * Longer closed blocks are highlighted in independent segments of this many lines. The price: a
 * construct spanning a segment boundary (a long comment or string) may be coloured as code after
 * the boundary. The gain: no single highlight pass grows with the block.
 */
const SEGMENT_LINES = 100;
/**
 * A fence still open (streaming, or a reply cut off inside it) is highlighted in short segments,
 * so each frame re-highlights at most this many lines; when the fence closes, the block is
 * highlighted once more with the rules above.
 */
const OPEN_SEGMENT_LINES = 30;

type CodeAction = 'copy' | 'insert' | 'newFile';

interface CodeBlockState {
  code: string;
  complete: boolean;
  readonly language: string;
  readonly grammar: string | undefined;
  readonly codeElement: HTMLElement;
  segments: { text: string; node: HTMLElement }[];
}

const blocks = new WeakMap<Element, CodeBlockState>();

/** The first word of a fence's info string (```ts title="x" -> ts), limited to a sane name. */
export function fenceLanguage(info: string | undefined): string {
  const word = (info ?? '').trim().split(/\s+/)[0] ?? '';
  return /^[\w#+.-]{1,40}$/.test(word) ? word : '';
}

/** Whether a code token's source has its closing fence (indented code has none to wait for). */
export function isClosedFence(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  if (!open) return true;
  const lines = raw.replace(/\n+$/, '').split('\n');
  const last = lines.length > 1 ? lines[lines.length - 1] ?? '' : '';
  return new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}[ \\t]*$`).test(last);
}

export function createCodeBlock(doc: Document, code: string, language: string, complete: boolean): HTMLElement {
  const grammar = resolveLanguage(language);
  const block = doc.createElement('div');
  block.className = 'md-code-block';

  const toolbar = doc.createElement('div');
  toolbar.className = 'md-code-toolbar';
  const label = doc.createElement('span');
  label.className = 'md-code-language';
  label.textContent = language;
  toolbar.append(
    label,
    button(doc, 'copy', 'Copy', 'codicon-copy'),
    button(doc, 'insert', 'Insert at Cursor', 'codicon-insert'),
    button(doc, 'newFile', 'New File', 'codicon-new-file'),
  );

  const pre = doc.createElement('pre');
  const codeElement = doc.createElement('code');
  codeElement.className = grammar ? `hljs language-${grammar}` : 'hljs';
  pre.append(codeElement);
  block.append(toolbar, pre);

  const state: CodeBlockState = { code: '', complete, language, grammar, codeElement, segments: [] };
  blocks.set(block, state);
  fill(state, doc, code, complete);
  return block;
}

/** Updates a block made by createCodeBlock when the language is unchanged; false otherwise. */
export function updateCodeBlock(block: Element, code: string, language: string, complete: boolean): boolean {
  const state = blocks.get(block);
  if (!state || state.language !== language) return false;
  if (state.code !== code || state.complete !== complete) fill(state, block.ownerDocument, code, complete);
  return true;
}

/** The code and fence language of the block holding `element` (for the toolbar actions). */
export function codeBlockOf(element: Element): { code: string; language: string } | undefined {
  const block = element.closest('.md-code-block');
  const state = block ? blocks.get(block) : undefined;
  return state ? { code: state.code, language: state.language } : undefined;
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
  state.code = code;
  state.complete = complete;
  const texts = complete && code.length <= WHOLE_BLOCK_LIMIT ? [code] : splitLines(code, complete ? SEGMENT_LINES : OPEN_SEGMENT_LINES);
  const kept: CodeBlockState['segments'] = [];
  for (const [index, text] of texts.entries()) {
    const old = state.segments[index];
    if (old && old.text === text) {
      kept.push(old);
      continue;
    }
    const node = renderSegment(doc, text, state.grammar);
    if (old) old.node.replaceWith(node);
    else state.codeElement.append(node);
    kept.push({ text, node });
  }
  for (const stale of state.segments.slice(texts.length)) stale.node.remove();
  state.segments = kept;
}

function splitLines(code: string, linesPerSegment: number): string[] {
  const segments: string[] = [];
  let start = 0;
  let lines = 0;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) {
    if (++lines === linesPerSegment) {
      segments.push(code.slice(start, at + 1));
      start = at + 1;
      lines = 0;
    }
  }
  if (start < code.length || segments.length === 0) segments.push(code.slice(start));
  return segments;
}

function renderSegment(doc: Document, text: string, grammar: string | undefined): HTMLElement {
  const span = doc.createElement('span');
  span.className = 'md-code-segment';
  const nodes = grammar ? highlightToNodes(text, grammar, doc) : undefined;
  if (nodes) span.append(nodes);
  else span.textContent = text;
  return span;
}
