// Line or block: mid-line and statement ends get one line, block starts get a block, in the
// languages people complete in most.
import * as assert from 'node:assert/strict';
import { completionShape } from '../../src/core/completions/completionShape';

/** `|` marks the cursor. */
function shape(text: string): string {
  const at = text.indexOf('|');
  return completionShape(text.slice(0, at), text.slice(at + 1));
}

describe('completionShape: one line or a block', () => {
  it('is a line mid-line, when text other than closers follows the cursor', () => {
    assert.equal(shape('const total = items.|reduce((a, b) => a + b, 0);\n'), 'line');
    assert.equal(shape('if (user.|isAdmin) {\n  grant();\n}\n'), 'line');
    assert.equal(shape('    print(f"{name|} is here")\n'), 'line');
  });

  it('is a line when only closing brackets, quotes or a semicolon follow', () => {
    assert.equal(shape('console.log(|);\n'), 'line');
    assert.equal(shape('const name = "|";\n'), 'line');
    assert.equal(shape('    result = compute(values, |)\n'), 'line');
  });

  it('is a line while finishing a statement at the end of a line', () => {
    assert.equal(shape('function f() {\n  const x = |\n}\n'), 'line');
    assert.equal(shape('def f():\n    return x +|\n'), 'line');
    assert.equal(shape('let a = 1;\n|\nlet b = 2;\n'), 'line');
  });

  it('is a block on the empty line after an opening brace (TypeScript, Go, Rust, Java)', () => {
    assert.equal(shape('export function add(a: number, b: number): number {\n  |\n}\n'), 'block');
    assert.equal(shape('func (s *Server) Start() error {\n\t|\n}\n'), 'block');
    assert.equal(shape('impl Point {\n    |\n}\n'), 'block');
    assert.equal(
      shape('public class Main {\n    public static void main(String[] args) {\n        |\n    }\n}\n'),
      'block',
    );
  });

  it('is a block after a colon in Python, an arrow, an open bracket', () => {
    assert.equal(shape('def mean(values):\n    |\n'), 'block');
    assert.equal(shape('class Stack:\n    |'), 'block');
    assert.equal(shape('for item in items:\n    |\n'), 'block');
    assert.equal(shape('const handler = (event) =>\n  |\n'), 'block');
    assert.equal(shape('const colours = [\n  |\n];\n'), 'block');
    assert.equal(shape('items.forEach((item) => {\n  |\n});\n'), 'block');
  });

  it('is a block after a comment that says what follows, a docblock or a signature on its own', () => {
    assert.equal(shape('// Sort the users by last name, then first name.\n|\n'), 'block');
    assert.equal(shape('# Parse the arguments\n|'), 'block');
    assert.equal(shape('/**\n * Adds two numbers.\n */\n|'), 'block');
    assert.equal(shape('public void run()\n|\n'), 'block');
  });

  it('is a block between a brace typed and the brace the editor closed on the same line', () => {
    assert.equal(shape('function f() {|}\n'), 'block');
  });

  it('is a line at the start of a file and after a long generated line', () => {
    assert.equal(shape('|'), 'line');
    assert.equal(shape('const data = {"inner": {\n|'), 'block');
    assert.equal(shape(`const data = {${'"k": 1, '.repeat(60)}"inner": {\n|`), 'line');
  });
});
