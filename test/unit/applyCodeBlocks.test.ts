// The host numbers a reply's code blocks (replyCodeBlocks) the way the webview shows them, so the
// Apply button of block n applies the host's block n; and the button sends that number only.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replyCodeBlocks } from '../../src/core/apply/replyCodeBlocks';
import { attachMarkdownActions } from '../../src/webview/chat/markdown/markdownActions';
import { codeBlockOf } from '../../src/webview/chat/markdown/codeBlocks';
import { recorder, render } from './markdownKit';

const REPLY = [
  'Change `src/a.ts`:',
  '',
  '```ts src/a.ts',
  'export const a = 1;',
  '```',
  '',
  '1. First, in a list:',
  '',
  '   ```py',
  '   print("list")',
  '   ```',
  '',
  '> quoted:',
  '> ```sh',
  '> echo quote',
  '> ```',
  '',
  'Indented:',
  '',
  '    indented code',
  '',
  'File: tools/run.py',
  '```python',
  'print("run")',
  '```',
  '',
  '```ts',
  'still open',
].join('\n');

describe('apply: code blocks numbered as the webview shows them', () => {
  it('finds the same blocks, with the same code, in the same order as the rendered reply', () => {
    const host = replyCodeBlocks(REPLY);
    const shown = Array.from(render(REPLY).querySelectorAll('.md-code-block')).map((block) => codeBlockOf(block)?.code);
    assert.equal(shown.length, 6);
    assert.deepEqual(
      host.map((block) => block.code),
      shown,
    );
  });

  it('keeps what names the file: the info string and the line above; tells an open fence', () => {
    const [first, , , , labelled, open] = replyCodeBlocks(REPLY);
    assert.equal(first?.info, 'ts src/a.ts');
    assert.equal(first?.lineAbove, 'Change `src/a.ts`:');
    assert.equal(labelled?.lineAbove, 'File: tools/run.py');
    assert.equal(first?.closed, true);
    assert.equal(open?.closed, false);
  });

  it('leaves out blocks inside a top-level block the webview shows as plain text', () => {
    const longList = `- item\n\n  \`\`\`js\n  inside()\n  \`\`\`\n${'- filler line of a long list\n'.repeat(700)}\n\`\`\`js\nafter()\n\`\`\`\n`;
    const host = replyCodeBlocks(longList);
    const shown = Array.from(render(longList).querySelectorAll('.md-code-block')).map(
      (block) => codeBlockOf(block)?.code,
    );
    assert.deepEqual(
      host.map((block) => block.code),
      shown,
    );
    assert.deepEqual(shown, ['after()']);
  });

  it('the Apply button is a labelled button that sends its block number and nothing else', () => {
    const element = render(REPLY);
    const actions = recorder();
    attachMarkdownActions(element, actions);
    const buttons = element.querySelectorAll<HTMLButtonElement>('button[data-md-action="apply"]');
    assert.equal(buttons.length, 6);
    assert.equal(buttons[0]?.getAttribute('aria-label'), 'Apply to File');
    assert.equal(buttons[0]?.type, 'button', 'a real button: reachable with Tab, pressed with Enter or Space');
    buttons[2]?.click();
    buttons[4]?.click();
    assert.deepEqual(actions.calls, [
      ['apply', '2'],
      ['apply', '4'],
    ]);
    // Its icon is one the bundled codicon font has (an unknown class shows an empty button).
    const icon =
      buttons[0]
        ?.querySelector('.codicon')
        ?.className.split(' ')
        .find((name) => name !== 'codicon') ?? '';
    const css = readFileSync(
      join(__dirname, '..', '..', '..', 'node_modules', '@vscode', 'codicons', 'dist', 'codicon.css'),
      'utf8',
    );
    assert.ok(css.includes(`.${icon}:before`), `${icon} is in codicon.css`);
  });
});
