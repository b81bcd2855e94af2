// The extension's keyboard shortcuts do not take a key another command of this VS Code already
// binds where ours would apply: Ctrl+Alt+I was VS Code's Open Chat, so Ask about Selection took it
// from every user who had learnt it. VS Code's own list (Preferences: Open Default Keyboard
// Shortcuts (JSON)) holds every built-in and extension binding of the running version.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from './extensionHost';

interface Binding {
  readonly key: string;
  readonly command: string;
  readonly when?: string;
}

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** One spelling per chord: modifiers sorted, so "alt+ctrl+i" and "ctrl+alt+i" are the same key. */
function normalized(key: string): string {
  return key
    .toLowerCase()
    .split(' ')
    .map((chord) => {
      const parts = chord.split('+');
      const last = parts.pop() ?? '';
      return [...parts.sort(), last].join('+');
    })
    .join(' ');
}

async function defaultBindings(): Promise<Binding[]> {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  for (let i = 0; i < 100; i++) {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && /keybindings\.json$/.test(doc.uri.path) && doc.getText().includes('"command"')) {
      // JSON with comments: drop the comment lines before parsing.
      const text = doc.getText().replace(/^\s*\/\/.*$/gm, '');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      return JSON.parse(text) as Binding[];
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the default keybindings document did not open');
}

/** Ours applies only where this extension set the context: its own context key, view or panel. */
function onlyInOurContext(when: string | undefined): boolean {
  return /(^|[\s(!&|])unifiedInference\.|focusedView == unifiedInference\.|activeWebviewPanelId == '?unifiedInference\./.test(
    when ?? '',
  );
}

/** Keys VS Code binds too, where ours is deliberate, each with why the two do not fight. */
const SHARED_ON_PURPOSE: Readonly<Record<string, string>> = {
  'unifiedInference.inlineEdit.start ctrl+i':
    "Ctrl+I is inline edit in Copilot and Cursor; ours applies only with no other inline chat installed (!inlineChatHasEditsAgent), where it takes Ctrl+I from Trigger Suggest's second key (Ctrl+Space stays) and from views ours never applies in (editorTextFocus)",
  'unifiedInference.inlineEdit.start ctrl+k i':
    "Notebook cell chat's Ctrl+K I needs !inputFocus and ours needs editorTextFocus (which sets inputFocus): never both",
};

describe('keyboard shortcuts', function () {
  this.timeout(60_000);

  it('binds no key another command of VS Code binds where ours applies (Ctrl+Alt+I was Open Chat)', async () => {
    await activateExtension();
    const ours = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        contributes: { keybindings: Binding[] };
      }
    ).contributes.keybindings;
    const all = await defaultBindings();
    assert.ok(all.length > 500, `VS Code's list was read (${all.length} bindings)`);
    const others = all.filter((b) => !b.command.startsWith('unifiedInference.') && !b.command.startsWith('-'));
    const clashes = ours
      .filter((binding) => !onlyInOurContext(binding.when))
      .filter((binding) => !Object.hasOwn(SHARED_ON_PURPOSE, `${binding.command} ${binding.key}`))
      .flatMap((binding) =>
        others
          .filter((other) => normalized(other.key) === normalized(binding.key))
          .map((other) => `${binding.command} (${binding.key}) takes it from ${other.command} (when ${other.when})`),
      );
    assert.deepEqual(clashes, []);
    // The check can fail: VS Code still binds the key Ask about Selection had.
    assert.ok(others.some((b) => normalized(b.key) === 'alt+ctrl+i' && b.command === 'workbench.action.chat.open'));
  });
});
