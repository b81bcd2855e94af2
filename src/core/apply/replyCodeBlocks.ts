// The code blocks of a stored reply, numbered as the chat webview shows them: the webview renders
// every code token marked's lexer finds (fenced or indented, top level or inside lists and quotes)
// as one block with a toolbar, in document order, and names a block by that number when the user
// clicks Apply. The host finds the block here, in its own copy of the reply, so the code that is
// applied never comes from the webview.
import { Lexer, type Token, type Tokens } from 'marked';
import { isClosedFence } from '../../shared/codeFence';

/**
 * A top-level block other than a fenced code block that is longer than this is shown as plain
 * text by the webview (src/webview/chat/markdown/budgets.ts REDRAW_LIMIT), so the code blocks in
 * it have no toolbar and no number.
 */
const PLAIN_TEXT_BLOCK_CHARS = 16_384;

export interface ReplyCodeBlock {
  readonly code: string;
  /** The fence's info string ('' for an indented block). */
  readonly info: string;
  /** The last non-blank line of the text block just before it, if it had one (a label like "`src/a.ts`:"). */
  readonly lineAbove?: string;
  /** The fence is closed (a reply cut off inside a block leaves it open). */
  readonly closed: boolean;
}

function lastTextLine(token: Token | undefined): string | undefined {
  if (!token || (token.type !== 'paragraph' && token.type !== 'heading' && token.type !== 'text')) return undefined;
  const lines = token.raw.split('\n').filter((line) => line.trim() !== '');
  return lines[lines.length - 1];
}

/** The children of a block token that can hold code blocks, in document order. */
function childBlocks(token: Token): Token[][] {
  if (token.type === 'list') return (token as Tokens.List).items.map((item) => item.tokens);
  if (token.type === 'blockquote') return [(token as Tokens.Blockquote).tokens];
  return [];
}

function collect(tokens: readonly Token[], out: ReplyCodeBlock[], topLevel: boolean): void {
  let previous: Token | undefined;
  for (const token of tokens) {
    if (token.type === 'space') continue;
    if (token.type === 'code') {
      const code = token as Tokens.Code;
      const above = lastTextLine(previous);
      out.push({
        code: code.text,
        info: code.codeBlockStyle === 'indented' ? '' : (code.lang ?? ''),
        ...(above !== undefined ? { lineAbove: above } : {}),
        closed: isClosedFence(code.raw),
      });
    } else if (!(topLevel && token.raw.length > PLAIN_TEXT_BLOCK_CHARS)) {
      for (const children of childBlocks(token)) collect(children, out, false);
    }
    previous = token;
  }
}

/** Every code block of a reply's markdown, in the order the webview numbers them. */
export function replyCodeBlocks(markdown: string): ReplyCodeBlock[] {
  const out: ReplyCodeBlock[] = [];
  try {
    collect(new Lexer({ gfm: true, breaks: false }).lex(markdown.replace(/\r\n?/g, '\n')), out, true);
  } catch {
    // The webview shows a reply marked cannot lex as plain text: no code blocks to number.
  }
  return out;
}
