// The manifest's texts as a real VS Code loads them: package.json's %key% placeholders resolved
// from package.nls.json (the unit tests check the files; this checks VS Code reads them).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from './extensionHost';

describe('localization: the manifest in a real VS Code', () => {
  before(async () => {
    await activateExtension();
  });

  it('shows the manifest with every %key% replaced by its text from package.nls.json', () => {
    const manifest = vscode.extensions.getExtension('unified-inference.unified-inference')!.packageJSON as {
      displayName: string;
      l10n?: string;
      contributes: {
        commands: { command: string; title: string; category: string }[];
        configuration: { properties: Record<string, { markdownDescription?: string }> };
      };
    };
    assert.equal(manifest.displayName, 'Unified Inference');
    const setKey = manifest.contributes.commands.find((command) => command.command === 'unifiedInference.setApiKey');
    assert.deepEqual([setKey?.category, setKey?.title], ['Unified Inference', 'Set API Key']);
    const unresolved = JSON.stringify(manifest).match(/"%[\w.-]+%"/g) ?? [];
    assert.deepEqual(unresolved, [], 'no placeholder is left for the user to see');
    assert.match(
      manifest.contributes.configuration.properties['unifiedInference.baseUrl']?.markdownDescription ?? '',
      /gateway/i,
    );
    assert.equal(manifest.l10n, './l10n');
  });
});
