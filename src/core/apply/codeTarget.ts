// Which file a code block in a reply is meant for, as models write it: a path in the fence's info
// string (```ts src/a.ts, ```src/a.ts, ```ts title="src/a.ts", ```ts:src/a.ts) or on the line just
// above the block ("`src/a.ts`:", "File: src/a.ts", "**src/a.ts**", "### src/a.ts"). What is found
// is only a candidate: model output is untrusted, and the caller resolves it through the workspace
// files service (inside the folders, no link out, not excluded) before anything is written.

/** Longest path taken from a reply; longer text is prose, not a path. */
const MAX_PATH = 300;

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

function clean(candidate: string): string | undefined {
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
    const found = clean(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    if (found) return found;
  }
  const words = text.split(/\s+/);
  const first = words[0] ?? '';
  // ```ts:src/a.ts
  const colon = /^[\w#+.-]{1,40}:(.+)$/.exec(first);
  if (colon && !/^[a-z]:[\\/]/i.test(first) && !first.includes('://')) {
    const found = clean(colon[1] ?? '');
    if (found) return found;
  }
  // ```ts src/a.ts or ```src/a.ts (a language name alone, "```python", is not a path)
  for (const word of words.slice(0, 3)) {
    const found = clean(word);
    if (found) return found;
  }
  return undefined;
}

/** A path named by the line just above a block, if the line is only that (a label, not a sentence). */
export function pathFromLineAbove(line: string): string | undefined {
  let text = line.trim();
  if (!text || text.length > MAX_PATH + 40) return undefined;
  text = text.replace(/^#{1,6}\s+/, ''); // a heading
  text = text.replace(/^(?:[-*+]|\d+[.)])\s+/, ''); // a list item
  text = text.replace(/:\s*$/, '');
  text = text.replace(/^(\*\*|__)(.*)\1$/, '$2').replace(/^(\*|_)(.*)\1$/, '$2'); // bold, italic
  text = text.replace(/:\s*$/, '').trim();
  // "File: src/a.ts", "In `src/a.ts`", "Update src/a.ts", "path/to/a.ts (new file)"
  const labelled =
    /^(?:(?:new |updated |changed |modified )?file(?:name)?|path|in|update|updated|edit|create|change)\s*[:\-–]?\s+(.+)$/i.exec(
      text,
    );
  if (labelled) text = labelled[1] ?? '';
  text = text
    .replace(/\s*\((?:new file|new|updated|changed|modified)\)$/i, '')
    .replace(/:\s*$/, '')
    .trim();
  text = text.replace(/^(\*\*|__)(.*)\1$/, '$2').trim();
  const code = /^`([^`]+)`$/.exec(text);
  return clean(code ? (code[1] ?? '') : text);
}

/**
 * The path a block names: its fence info first (the most deliberate place), then the line above
 * it, then a first line that is only a comment naming a file ("// src/a.ts", "# File: a.py").
 */
export function blockTargetPath(info: string, lineAbove: string | undefined, code?: string): string | undefined {
  const fromInfo = pathFromFenceInfo(info);
  if (fromInfo) return fromInfo;
  const fromAbove = lineAbove === undefined ? undefined : pathFromLineAbove(lineAbove);
  if (fromAbove) return fromAbove;
  const first = code?.split(/\r?\n/, 1)[0]?.trim() ?? '';
  const comment = /^(?:\/\/|#|--|;|<!--|\/\*)\s*(?:file(?:name)?\s*:\s*)?(\S+?)\s*(?:-->|\*\/)?$/i.exec(first);
  return comment ? clean(comment[1] ?? '') : undefined;
}
