// What the markdown renderer hands to marked, DOMPurify and highlight.js, counted in characters:
// the unit tests bound the work per streamed frame by these counts, never by time. The counters
// wrap the libraries' own entry points (marked's Lexer, the DOMParser DOMPurify parses with, and
// highlight.js), so they measure the renderer as it is, and the same way before and after a change.
import hljs from 'highlight.js/lib/core';
import { Lexer } from 'marked';
import { window } from './markdownKit';

export interface Work {
  /** Characters given to marked's lexer at the top (not again for what it lexes inside them). */
  lexed: number;
  /** Characters of HTML DOMPurify parsed. */
  sanitized: number;
  /** Characters of code highlight.js highlighted. */
  highlighted: number;
}

export interface WorkMeter {
  /** The work since the last take. */
  take(): Work;
  stop(): void;
}

export function meterWork(): WorkMeter {
  let work: Work = { lexed: 0, sanitized: 0, highlighted: 0 };
  let depth = 0;
  const lexer = Lexer.prototype as unknown as Record<
    'blockTokens' | 'inlineTokens',
    (this: unknown, src: string, ...rest: unknown[]) => unknown
  >;
  const originals = { blockTokens: lexer.blockTokens, inlineTokens: lexer.inlineTokens };
  for (const name of ['blockTokens', 'inlineTokens'] as const) {
    const original = originals[name];
    lexer[name] = function (this: unknown, src: string, ...rest: unknown[]): unknown {
      if (depth === 0) work.lexed += src.length;
      depth++;
      try {
        return original.call(this, src, ...rest);
      } finally {
        depth--;
      }
    };
  }
  const parser = window.DOMParser.prototype;
  const parseFromString = parser.parseFromString;
  parser.parseFromString = function (this: DOMParser, html: string, type: DOMParserSupportedType): Document {
    work.sanitized += html.length;
    return parseFromString.call(this, html, type);
  };
  const highlight = hljs.highlight;
  const call = highlight as (this: unknown, ...args: unknown[]) => ReturnType<typeof hljs.highlight>;
  hljs.highlight = (code: string, ...rest: unknown[]) => {
    work.highlighted += code.length;
    return call.call(hljs, code, ...rest);
  };
  return {
    take() {
      const taken = work;
      work = { lexed: 0, sanitized: 0, highlighted: 0 };
      return taken;
    },
    stop() {
      lexer.blockTokens = originals.blockTokens;
      lexer.inlineTokens = originals.inlineTokens;
      parser.parseFromString = parseFromString;
      hljs.highlight = highlight;
    },
  };
}
