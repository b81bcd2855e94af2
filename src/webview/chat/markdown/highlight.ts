// Syntax highlighting for code blocks. Only highlight.js's core plus a moderate set of common
// languages is bundled (the full build is ~1 MB of grammars); an unknown fence language renders as
// plain text instead of being guessed: auto-detection runs every grammar and would re-run on every
// streamed frame, and its guess flickers while the code is still arriving.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// The fences models write most; each grammar costs 0.1 to 14 KB of bundle (scss, swift, php,
// powershell, ruby and kotlin were left out for that: their blocks show as plain text).
const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  markdown,
  plaintext,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, definition] of Object.entries(languages)) hljs.registerLanguage(name, definition);
// Fence names models commonly write that the grammars above do not already alias.
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['text', 'txt'], { languageName: 'plaintext' });
hljs.registerAliases(['vue', 'svelte'], { languageName: 'xml' });

/** The registered grammar name for a fence language (`ts` -> `typescript`), or undefined. */
export function resolveLanguage(language: string): string | undefined {
  if (!language) return undefined;
  const found = hljs.getLanguage(language.toLowerCase());
  if (!found) return undefined;
  // getLanguage resolves aliases; map back to a registered name so the CSS class is stable.
  const lower = language.toLowerCase();
  return Object.keys(languages).find((name) => name === lower || hljs.getLanguage(name) === found);
}

/**
 * Highlighted nodes for `code` in a registered grammar, or undefined (then show plain text).
 *
 * highlight.js returns HTML. Rather than parse it (a full HTML parse plus a sanitizer pass per
 * streamed frame, for a string whose shape is known), it is read back as exactly what highlight.js
 * emits: `<span class="...">`, `</span>`, and text escaped with five entities. Anything else, or
 * text that does not add up to the original code, fails closed to plain text. The result can only
 * ever hold span elements with class names and text nodes, built with createElement/createTextNode.
 */
export function highlightToNodes(code: string, grammar: string, doc: Document): DocumentFragment | undefined {
  if (grammar === 'plaintext') return undefined;
  let html: string;
  try {
    html = hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value;
  } catch {
    // A grammar throwing on odd input must never lose the code: show it as plain text.
    return undefined;
  }
  const fragment = doc.createDocumentFragment();
  const open: Node[] = [fragment];
  let text = '';
  const piece = /<span class="([\w -]{1,100})">|<\/span>|([^<&]+)|&(amp|lt|gt|quot|#x27);/y;
  for (let at = 0; at < html.length; at = piece.lastIndex) {
    piece.lastIndex = at;
    const match = piece.exec(html);
    const parent = open[open.length - 1];
    if (!match || !parent) return undefined;
    const [whole, className, plain, entity] = match;
    if (className !== undefined) {
      const span = doc.createElement('span');
      span.className = className;
      parent.appendChild(span);
      open.push(span);
    } else if (whole === '</span>') {
      if (open.length === 1) return undefined;
      open.pop();
    } else {
      const value = plain ?? ENTITIES[entity ?? ''];
      if (value === undefined) return undefined;
      parent.appendChild(doc.createTextNode(value));
      text += value;
    }
  }
  return open.length === 1 && text === code ? fragment : undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" };
