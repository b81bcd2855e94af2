// The Source Control title's Write / Stop pair for commit messages is per repository: each
// repository's title shows Stop only while its own message is written (the writer keeps the root
// URIs in a list context key, matched against the title's scmProviderRootUri), so Stop in one
// repository never hides the sparkle, or stops the request, of another.
import * as assert from 'node:assert/strict';
import { readRawManifest } from './manifest';

// commitMessageWriter.ts's WRITING_ROOTS_CONTEXT_KEY (that file needs vscode, which unit tests do not load).
const WRITING_ROOTS_CONTEXT_KEY = 'unifiedInference.commitMessage.writingRoots';

interface MenuItem {
  readonly command: string;
  readonly when?: string;
}

describe('commit message menus', () => {
  const title = (): MenuItem[] =>
    (readRawManifest() as { contributes: { menus: Record<string, MenuItem[]> } }).contributes.menus['scm/title'] ?? [];

  it("the Source Control title shows Write or Stop by its own repository's state", () => {
    const when = (command: string): string | undefined => title().find((item) => item.command === command)?.when;
    assert.equal(
      when('unifiedInference.commitMessage.write'),
      `scmProvider == git && scmProviderRootUri not in ${WRITING_ROOTS_CONTEXT_KEY}`,
    );
    assert.equal(
      when('unifiedInference.commitMessage.stop'),
      `scmProvider == git && scmProviderRootUri in ${WRITING_ROOTS_CONTEXT_KEY}`,
    );
  });
});
