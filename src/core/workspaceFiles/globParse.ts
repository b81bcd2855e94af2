// A glob (or the body of a .gitignore line) read into a small tree, with the meaning the old
// regular-expression translation gave it, so that globMachine.ts can match it without
// backtracking: `*` / `?` within one path segment, `**` across segments (`**/` any number of
// whole folders, `x/**` x itself and everything below), `{a,b}` alternatives (nested too; an
// unclosed brace is closed at the end), `[abc]` / `[!abc]` / `[^abc]` classes with ranges (a
// negated class never matches `/`), `\` to escape.

export type GlobNode =
  /** One character, exactly (case folded when the matcher is case-insensitive). */
  | { readonly kind: 'char'; readonly code: number }
  /** One character in (or, negated, neither in nor `/`) the inclusive code ranges. */
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: ReadonlyArray<readonly [number, number]> }
  /** One character: any but `/` (`?`), or any at all. */
  | { readonly kind: 'one'; readonly crossesFolders: boolean }
  /** Any number of characters: none of them `/` (`*`), or any (`**`). */
  | { readonly kind: 'many'; readonly crossesFolders: boolean }
  /** The body, or nothing. */
  | { readonly kind: 'optional'; readonly body: readonly GlobNode[] }
  /** One of the branches. */
  | { readonly kind: 'either'; readonly branches: ReadonlyArray<readonly GlobNode[]> };

/**
 * Globs longer than this are refused: a match costs up to (pattern length x path length) steps,
 * and no real exclude list, .gitignore line or tool argument needs more.
 */
export const MAX_GLOB_LENGTH = 4096;
/** Braces nested deeper than this are refused (the tree is compiled recursively). */
export const MAX_BRACE_DEPTH = 32;

const SLASH = 0x2f;
const char = (text: string): GlobNode => ({ kind: 'char', code: text.charCodeAt(0) });
const many = (crossesFolders: boolean): GlobNode => ({ kind: 'many', crossesFolders });

interface OpenBrace {
  readonly branches: GlobNode[][];
  readonly parent: GlobNode[];
}

/** The tree of `glob`, or undefined when it is refused (too long, braces too deep, a range such as `[z-a]`). */
export function parseGlob(glob: string): GlobNode[] | undefined {
  if (glob.length > MAX_GLOB_LENGTH) return undefined;
  const top: GlobNode[] = [];
  const open: OpenBrace[] = [];
  let seq = top;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    const inBraces = open.length > 0;
    if (c === '\\' && i + 1 < glob.length) {
      seq.push(char(glob[++i] as string));
    } else if (c === '*') {
      let end = i;
      while (glob[end + 1] === '*') end++;
      const before = i === 0 ? '/' : glob[i - 1];
      const after = glob[end + 1];
      const segmentStart = before === '/' || (inBraces && (before === '{' || before === ','));
      const segmentEnd = after === undefined || after === '/' || (inBraces && (after === ',' || after === '}'));
      if (end > i && segmentStart && segmentEnd) {
        const last = seq[seq.length - 1];
        if (after === '/') {
          // `**/`: any number of whole folders, none included.
          seq.push({ kind: 'optional', body: [many(true), char('/')] });
          end++;
        } else if (last?.kind === 'char' && last.code === SLASH) {
          // `x/**`: x itself and everything below it.
          seq.pop();
          seq.push({ kind: 'optional', body: [char('/'), many(true)] });
        } else {
          seq.push(many(true));
        }
      } else {
        seq.push(many(false));
      }
      i = end;
    } else if (c === '?') {
      seq.push({ kind: 'one', crossesFolders: false });
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        seq.push(char('['));
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      const ranges = classRanges(body);
      if (!ranges) return undefined;
      seq.push({ kind: 'class', negated, ranges });
      i = close;
    } else if (c === '{') {
      if (open.length >= MAX_BRACE_DEPTH) return undefined;
      const branch: GlobNode[] = [];
      open.push({ branches: [branch], parent: seq });
      seq = branch;
    } else if (c === '}' && inBraces) {
      seq = closeBrace(open.pop() as OpenBrace);
    } else if (c === ',' && inBraces) {
      const branch: GlobNode[] = [];
      (open[open.length - 1] as OpenBrace).branches.push(branch);
      seq = branch;
    } else {
      seq.push(char(c));
    }
  }
  // An unclosed brace is closed at the end.
  while (open.length) closeBrace(open.pop() as OpenBrace);
  return top;
}

function closeBrace(brace: OpenBrace): GlobNode[] {
  brace.parent.push({ kind: 'either', branches: brace.branches });
  return brace.parent;
}

/**
 * The ranges of a class body, every character literal (`\` too) but `a-b`, read left to right
 * as a regular expression reads them; undefined for a range whose ends are out of order.
 */
function classRanges(body: string): Array<readonly [number, number]> | undefined {
  const ranges: Array<readonly [number, number]> = [];
  for (let j = 0; j < body.length;) {
    const low = body.charCodeAt(j);
    if (body[j + 1] === '-' && j + 2 < body.length) {
      const high = body.charCodeAt(j + 2);
      if (low > high) return undefined;
      ranges.push([low, high]);
      j += 3;
    } else {
      ranges.push([low, low]);
      j++;
    }
  }
  return ranges;
}
