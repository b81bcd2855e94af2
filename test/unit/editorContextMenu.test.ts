// The editor's context menu holds one "Unified Inference" entry, a submenu with every action of the
// extension on the selection: eight items at the top level pushed VS Code's own down, and "Add
// Selection to Chat" stood there twice (VS Code's and ours).
import * as assert from 'node:assert/strict';
import { readManifest } from './manifest';

interface MenuItem {
  readonly command?: string;
  readonly submenu?: string;
  readonly when?: string;
  readonly group?: string;
}

interface Manifest {
  readonly contributes: {
    readonly menus: Record<string, MenuItem[]>;
    readonly submenus: Array<{ id: string; label: string; icon?: string }>;
  };
}

describe("the editor's context menu", () => {
  const { menus, submenus } = readManifest<Manifest>().contributes;

  it('shows one Unified Inference submenu, not each action', () => {
    assert.deepEqual(menus['editor/context'], [
      { submenu: 'unifiedInference.editorContext', group: 'unifiedInference@0' },
    ]);
    assert.deepEqual(
      submenus.find((s) => s.id === 'unifiedInference.editorContext'),
      { id: 'unifiedInference.editorContext', label: 'Unified Inference', icon: '$(sparkle)' },
    );
  });

  it('holds the selection actions in groups, each shown only where it can run', () => {
    const items = menus['unifiedInference.editorContext'] ?? [];
    assert.deepEqual(
      items.map((item) => item.command),
      [
        'unifiedInference.inlineEdit.start',
        'unifiedInference.chat.askAboutSelection',
        'unifiedInference.chat.addSelection',
        'unifiedInference.research.startFromSelection',
        'unifiedInference.media.readSelectionAloud',
        'unifiedInference.media.saveSelectionAsSpeech',
        'unifiedInference.search.rerankLines',
        'unifiedInference.search.copyEmbedding',
      ],
    );
    for (const item of items) {
      assert.ok(item.when, `${item.command} says when it applies`);
      assert.match(item.group ?? '', /^\d_[a-z]+@\d$/, `${item.command} is in a group`);
    }
  });
});
