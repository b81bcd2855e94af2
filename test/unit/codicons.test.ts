// Every codicon a webview names is in the codicon font the extension ships (a missing one draws as
// nothing). The host's names are checked against the workbench's own icon registry in the UI suite
// (test/ui/account.test.ts), since the workbench, not this package, draws them.
import * as assert from 'node:assert/strict';
import { hostCodicons, shippedCodicons, webviewCodicons } from '../harness/codiconNames';

describe('codicons the extension names', () => {
  it('finds the names in every form the sources use (a collector that finds nothing proves nothing)', () => {
    const host = hostCodicons();
    // `$(name)` in a label, `$(name~spin)`, a ThemeIcon ternary, a map of icons, package.json.
    for (const name of ['debug-disconnect', 'sync', 'star-full', 'comment-discussion', 'key'])
      assert.ok(host.has(name), name);
    const webview = webviewCodicons();
    // `codicon-name` classes, icon('name'), iconButton('name', ...), a ternary, a map of icons.
    for (const name of ['diff-single', 'lightbulb', 'send', 'selection', 'question'])
      assert.ok(webview.has(name), name);
    assert.ok(!webview.has('modifier-spin') && !webview.has('Copy'), 'modifiers and labels are not icons');
  });

  it('finds every webview codicon in the shipped font', () => {
    const shipped = shippedCodicons();
    assert.ok(shipped.size > 300, 'the stylesheet was read');
    const missing = [...webviewCodicons()].filter((name) => !shipped.has(name));
    assert.deepEqual(missing, [], `not in @vscode/codicons: ${missing.join(', ')}`);
  });
});
