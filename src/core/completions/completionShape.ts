// One line or a block? Decides how much the model is asked for (max_tokens) and where the answer
// is cut. Mid-line, the user is finishing what they type: one line, because a longer guess there
// is mostly wrong and costs more. At the start of a block (the line after `{`, `:` in Python,
// `=>`, a signature, a comment that says what follows), the useful suggestion is the body.
import type { CompletionShape } from './completionInput';
import { lineAfterCursor, lineBeforeCursor } from './completionSyntax';

/** Text after the cursor that does not make it "mid-line": closing brackets, quotes, `;`, `,`. */
const CLOSING_ONLY = /^[\s)\]}>'"`;,]*$/;

/** A line after which a block starts. */
const OPENS_BLOCK = /(?:[{([]|=>|->|:|\bdo|\bthen|\bbegin|\belse|\btry|\bfinally)\s*$/;
/** A comment line (which describes what follows when it is the last line before a blank one). */
const COMMENT_LINE = /^\s*(?:\/\/|#(?![![]|include|define|if|else|endif|pragma|import)|\/\*|\*|--|"""|'''|<!--|%|;;)/;
/** A declaration without its body yet (brace on the next line, or a declaration in a header). */
const SIGNATURE =
  /^\s*(?:(?:export|public|private|protected|internal|static|async|abstract|override|virtual|final|pub|unsafe|inline)\s+)*(?:function\*?|def|fn|func|fun|class|interface|struct|enum|impl|trait|module|namespace|sub|procedure|void|int|bool|string|[A-Za-z_][\w<>,\s[\]]*\s+[A-Za-z_]\w*\s*\()[^;]*\)?\s*(?:->\s*[^;{]+|:\s*[^;{=]+)?$/;

/** The last non-blank line of `prefix` before the cursor's line. */
function previousLine(prefix: string): string {
  let end = prefix.lastIndexOf('\n');
  // Bounded: at most 50 blank lines are skipped (a completion after more is not a block start).
  for (let n = 0; end > 0 && n < 50; n++) {
    const start = prefix.lastIndexOf('\n', end - 1) + 1;
    const line = prefix.slice(start, end).replace(/\r$/, '');
    if (line.trim() !== '') return line;
    end = start - 1;
  }
  return '';
}

export function completionShape(prefix: string, suffix: string): CompletionShape {
  const before = lineBeforeCursor(prefix);
  const after = lineAfterCursor(suffix);
  if (!CLOSING_ONLY.test(after)) return 'line';
  if (before.trim() !== '') {
    // `function f() {|}` or `if (x) {|`: the user is about to write the body.
    if (/\{\s*$/.test(before) && /^\s*(?:\}[\s)\];,]*)?$/.test(after)) return 'block';
    return 'line';
  }
  const previous = previousLine(prefix);
  // A minified or generated line says nothing about blocks (and the patterns stay cheap).
  if (previous === '' || previous.length > 400) return 'line';
  if (COMMENT_LINE.test(previous) && !/^\s*\*\/\s*$/.test(previous)) return 'block';
  // A closing docblock line (`*/`): what follows is the declaration it documents.
  if (/^\s*\*\/\s*$/.test(previous) || /^\s*@\w+/.test(previous)) return 'block';
  const code = previous.replace(/\s*(?:\/\/.*)?$/, '');
  if (OPENS_BLOCK.test(code)) return 'block';
  if (SIGNATURE.test(code) && !/[;,]$/.test(code)) return 'block';
  return 'line';
}
