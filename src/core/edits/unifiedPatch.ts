// A unified diff from a model, applied to one file with jsdiff (the `diff` package): context and
// removed lines must match the file exactly (fuzz 0). Models write hunk headers carelessly, so the
// headers are rebuilt from the hunk bodies first (wrong counts, `@@ @@` without numbers, blank
// context lines that lost their leading space); a hunk without a line number must match one place
// only. When a hunk does not fit, the message says which, and quotes the closest lines.
import { applyPatch, parsePatch } from 'diff';
import { withLineEnding } from './lineEndings';
import { lineAt, notFoundMessage, occurrences, type EditOutcome } from './searchReplace';
import { errorMessage } from '../../shared/errorMessage';

interface Hunk {
  /** 1-based old start line as the model wrote it; undefined when the header had none. */
  oldStart: number | undefined;
  readonly header: string;
  readonly lines: string[];
}

const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,(\d+))?\s*\+(\d+)(?:,(\d+))?\s*)?@@/;
const FILE_HEADER = /^(---|\+\+\+) /;

type Parsed = { readonly ok: true; readonly hunks: Hunk[] } | { readonly ok: false; readonly message: string };

/** The hunks of a one-file diff, bodies checked; file headers and git extended headers skipped. */
function parseHunks(diff: string): Parsed {
  const lines = withLineEnding(diff, '\n').split('\n');
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hunks: Hunk[] = [];
  let newFiles = 0;
  let current: Hunk | undefined;
  for (const [index, line] of lines.entries()) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = { oldStart: header[1] !== undefined ? Number(header[1]) : undefined, header: line, lines: [] };
      hunks.push(current);
      continue;
    }
    if (FILE_HEADER.test(line) && (!current || line.startsWith('+++ ') || lines[index + 1]?.startsWith('+++ '))) {
      if (line.startsWith('+++ ')) newFiles++;
      current = undefined;
      continue;
    }
    if (!current) continue; // `diff --git`, `index ...` and other lines before a hunk
    if (line === '') current.lines.push(' ');
    else if (/^[ +\-\\]/.test(line)) current.lines.push(line);
    else
      return {
        ok: false,
        message: `Line ${index + 1} of the diff ("${line.slice(0, 80)}") is inside a hunk but starts with neither a space, "+" nor "-".`,
      };
  }
  if (newFiles > 1) return { ok: false, message: 'The diff changes several files: send one call per file.' };
  if (hunks.length === 0)
    return {
      ok: false,
      message: 'The diff has no hunk (a line starting with "@@" followed by lines starting with a space, "+" or "-").',
    };
  const empty = hunks.findIndex((hunk) => !hunk.lines.some((l) => l.startsWith('+') || l.startsWith('-')));
  if (empty >= 0) return { ok: false, message: `Hunk ${empty + 1} changes nothing (no line starts with "+" or "-").` };
  return { ok: true, hunks };
}

const oldSide = (hunk: Hunk): string[] =>
  hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('-')).map((l) => l.slice(1));

function hunkName(hunks: readonly Hunk[], index: number): string {
  const hunk = hunks[index];
  return `${hunks.length > 1 ? `hunk ${index + 1} (of ${hunks.length})` : 'the hunk'}${hunk ? ` "${hunk.header.slice(0, 60)}"` : ''}`;
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The file's text with `diff` applied, or why it does not apply. */
export function applyUnifiedDiff(text: string, diff: string): EditOutcome {
  const parsed = parseHunks(diff);
  if (!parsed.ok) return parsed;
  const { hunks } = parsed;
  const plain = withLineEnding(text, '\n');
  // A hunk without a line number is placed where its old lines occur, which must be one place.
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.oldStart !== undefined) continue;
    const old = oldSide(hunk);
    if (old.length === 0)
      return {
        ok: false,
        message: `${capital(hunkName(hunks, index))} only adds lines and has no line number: say where they go with a header like "@@ -12,0 +13,2 @@" or with context lines.`,
      };
    // Whole lines only: matched with the line break before and after each place.
    const block = `${old.join('\n')}\n`;
    const found = occurrences(`\n${plain.endsWith('\n') ? plain : `${plain}\n`}`, `\n${block}`, 11);
    if (found.length === 0)
      return { ok: false, message: notFoundMessage(plain, block, `The old lines of ${hunkName(hunks, index)}`) };
    if (found.length > 1)
      return {
        ok: false,
        message: `${capital(hunkName(hunks, index))} has no line number and its old lines match ${found.length} places (lines ${found.map((at) => lineAt(plain, at)).join(', ')}): add the line numbers ("@@ -12,3 +12,4 @@") or more context.`,
      };
    hunk.oldStart = lineAt(plain, found[0] ?? 0);
  }
  let shift = 0;
  const rebuilt = hunks.map((hunk) => {
    const oldCount = hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('-')).length;
    const newCount = hunk.lines.filter((l) => l.startsWith(' ') || l.startsWith('+')).length;
    // A pure insertion's start names the line it goes after (unified diff convention).
    const oldStart = hunk.oldStart ?? 1;
    const header = `@@ -${oldStart},${oldCount} +${Math.max(0, oldStart + shift)},${newCount} @@`;
    shift += newCount - oldCount;
    return [header, ...hunk.lines].join('\n');
  });
  let patched: string | false;
  try {
    const [patch] = parsePatch(`--- a/file\n+++ b/file\n${rebuilt.join('\n')}\n`);
    patched = patch ? applyPatch(text, patch, { fuzzFactor: 0, autoConvertLineEndings: true }) : false;
  } catch (error) {
    return { ok: false, message: `The diff could not be read: ${errorMessage(error)}` };
  }
  // autoConvertLineEndings wrote the added lines with the file's line ending.
  if (patched !== false) return { ok: true, text: patched };
  for (const [index, hunk] of hunks.entries()) {
    const old = oldSide(hunk);
    if (old.length && occurrences(plain, old.join('\n')).length === 0) {
      return {
        ok: false,
        message:
          notFoundMessage(plain, old.join('\n'), `The context and removed lines of ${hunkName(hunks, index)}`) +
          '\nNothing was changed.',
      };
    }
  }
  return {
    ok: false,
    message:
      "Each hunk matches the file on its own, but they overlap or are not in file order (or an insertion's neighbouring lines differ). Send the hunks top to bottom with exact context, or use search/replace edits. Nothing was changed.",
  };
}
