// Inline edit's keybindings keep out of the user's way: Escape rejects or stops only when no
// widget of the editor or workbench would take it (a hover, peek, find, suggestion, a toast...),
// Accept All is not a key people press while typing (Ctrl+Enter is Insert Line Below), and Ctrl+I
// does not fire over an open suggestion list.
import * as assert from 'node:assert/strict';
import { readRawManifest } from './manifest';

interface Binding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly when?: string;
}

const bindings = (): Binding[] =>
  (readRawManifest() as { contributes: { keybindings: Binding[] } }).contributes.keybindings;
const of = (command: string, key?: string): Binding[] =>
  bindings().filter(
    (b) => b.command === `unifiedInference.inlineEdit.${command}` && (key === undefined || b.key === key),
  );
const clauses = (when: string | undefined): string[] => (when ?? '').split('&&').map((c) => c.trim());

// Context keys of VS Code 1.139's workbench (checked in its bundle) that mean "Escape is someone else's".
const WIDGETS = [
  '!markersNavigationVisible',
  '!referenceSearchVisible',
  '!inReferenceSearchEditor',
  '!editorHoverVisible',
  '!inlineEditIsVisible',
  '!accessibilityHelpIsShown',
  '!suggestWidgetVisible',
  '!inlineSuggestionVisible',
  '!parameterHintsVisible',
  '!findWidgetVisible',
  '!renameInputVisible',
  '!inSnippetMode',
  '!notificationToastsVisible',
  '!editorHasSelection',
  '!editorHasMultipleSelections',
];

describe('inline edit keybindings', () => {
  for (const command of ['rejectAll', 'stop']) {
    it(`Escape (${command}) never fires while a widget, a selection or a toast has it`, () => {
      const [binding] = of(command, 'escape');
      assert.ok(binding, `${command} is on Escape`);
      const missing = WIDGETS.filter((c) => !clauses(binding.when).includes(c));
      assert.deepEqual(missing, [], binding.when);
    });
  }

  it('Accept All is not Ctrl/Cmd+Enter (Insert Line Below) nor Ctrl/Cmd+Shift+Enter (Insert Line Above)', () => {
    const [binding] = of('acceptAll');
    assert.ok(binding);
    for (const key of [binding.key, binding.mac])
      assert.ok(key && !/^(ctrl|cmd)(\+shift)?\+enter$/.test(key), String(key));
  });

  it('Ctrl+I does not fire over an open suggestion list', () => {
    const [binding] = of('start', 'ctrl+i');
    assert.ok(binding);
    assert.ok(clauses(binding.when).includes('!suggestWidgetVisible'), binding.when);
  });
});
