// Whether a fenced code block has its closing fence: the chat view waits for it before a block is
// complete, and Apply refuses a block cut off inside (a reply that stopped partway).

/** Whether a code token's source has its closing fence (indented code has none to wait for). */
export function isClosedFence(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  if (!open) return true;
  const lines = raw.replace(/\n+$/, '').split('\n');
  const last = lines.length > 1 ? (lines[lines.length - 1] ?? '') : '';
  return new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}[ \\t]*$`).test(last);
}

// Which file a fence names in its info string, as models write it (```ts src/a.ts, ```src/a.ts,
// ```ts title="src/a.ts", ```ts:src/a.ts): the chat shows it on the block, and Apply takes it as the
// block's target (core/apply/codeTarget.ts). Model output is untrusted: a candidate only.

/** Longest path taken from a reply; longer text is prose, not a path. */
export const MAX_PATH = 300;

/**
 * Whether `word` reads as a file path rather than a language name or prose: it has a folder
 * separator or an extension, no spaces, no scheme, no wildcard.
 */
export function looksLikePath(word: string): boolean {
  if (!word || word.length > MAX_PATH) return false;
  if (/[\s*?<>|"`\0]/.test(word)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word) || word.startsWith('//')) return false; // a URL
  if (/^\.{1,2}$/.test(word) || word.endsWith('/') || word.endsWith('\\')) return false;
  const name = word.split(/[\\/]/).pop() ?? '';
  const hasFolder = /[\\/]/.test(word);
  // An extension: a dot followed by a short run of letters/digits, and something before it
  // (".env" and ".gitignore" are file names too).
  const hasExtension = /^[^.]*\.[\w-]{1,12}$|\.[\w-]{1,12}$/.test(name) && name !== '.' && !/\.$/.test(name);
  // Version numbers and numbers are not files ("1.2", "v2.0").
  if (!hasFolder && /^v?\d+(\.\d+)+$/i.test(name)) return false;
  return hasFolder ? name.length > 0 : hasExtension;
}

/** `candidate` without quotes and trailing punctuation, when it reads as a path. */
export function cleanPath(candidate: string): string | undefined {
  const trimmed = candidate
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .replace(/[:,;]+$/, '');
  return looksLikePath(trimmed) ? trimmed : undefined;
}

/** A path named in a fence's info string, if any. */
export function pathFromFenceInfo(info: string): string | undefined {
  const text = info.trim();
  if (!text) return undefined;
  // title="src/a.ts", file=src/a.ts, filename: src/a.ts, path='src/a.ts'
  const attribute = /\b(?:title|file|filename|path|name)\s*[=:]\s*("([^"]*)"|'([^']*)'|(\S+))/i.exec(text);
  if (attribute) {
    const found = cleanPath(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    if (found) return found;
  }
  const words = text.split(/\s+/);
  const first = words[0] ?? '';
  // ```ts:src/a.ts
  const colon = /^[\w#+.-]{1,40}:(.+)$/.exec(first);
  if (colon && !/^[a-z]:[\\/]/i.test(first) && !first.includes('://')) {
    const found = cleanPath(colon[1] ?? '');
    if (found) return found;
  }
  // ```ts src/a.ts or ```src/a.ts (a language name alone, "```python", is not a path)
  for (const word of words.slice(0, 3)) {
    const found = cleanPath(word);
    if (found) return found;
  }
  return undefined;
}
