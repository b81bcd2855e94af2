// Which file a code block in a reply is meant for, as models write it: a path in the fence's info
// string (```ts src/a.ts, ```src/a.ts, ```ts title="src/a.ts", ```ts:src/a.ts) or on the line just
// above the block ("`src/a.ts`:", "File: src/a.ts", "**src/a.ts**", "### src/a.ts"). What is found
// is only a candidate: model output is untrusted, and the caller resolves it through the workspace
// files service (inside the folders, no link out, not excluded) before anything is written.
import { cleanPath, MAX_PATH, pathFromFenceInfo } from '../../shared/codeFence';

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
  return cleanPath(code ? (code[1] ?? '') : text);
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
  return comment ? cleanPath(comment[1] ?? '') : undefined;
}
