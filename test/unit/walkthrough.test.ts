// The getting-started walkthrough's steps tick when the user did them anywhere (the palette, the
// status bar, the Chat view), not only from the walkthrough's buttons: each waits for a context key
// the extension sets (src/extension/contextKeys.ts) when the thing is done, never for a command
// that was merely run (a cancelled Set API Key) or a setting that merely changed (to empty).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRawManifest, REPO_ROOT } from './manifest';

interface Step {
  readonly id: string;
  readonly completionEvents?: readonly string[];
}

function steps(): Step[] {
  const manifest = readRawManifest() as { contributes: { walkthroughs: { steps: Step[] }[] } };
  return manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);
}

/** The keys contextKeys.ts names for the walkthrough (read as text: the module needs vscode). */
function keysTheExtensionSets(): string[] {
  const source = readFileSync(join(REPO_ROOT, 'src', 'extension', 'contextKeys.ts'), 'utf8');
  const block = /WALKTHROUGH_KEYS = \{([\s\S]*?)\} as const/.exec(source)?.[1] ?? '';
  return [...block.matchAll(/'(unifiedInference\.[\w.]+)'/g)].map((match) => match[1] as string);
}

describe('walkthrough completion events', () => {
  const expected: Record<string, string> = {
    setBaseUrl: 'onContext:unifiedInference.hasBaseUrl',
    setApiKey: 'onContext:unifiedInference.hasApiKey',
    testConnection: 'onContext:unifiedInference.connectionTested',
    openChat: 'onContext:unifiedInference.chatOpened',
  };

  it('each step done elsewhere ticks on the context key the extension sets when it is done', () => {
    const byId = new Map(steps().map((step) => [step.id, step]));
    for (const [id, event] of Object.entries(expected))
      assert.ok(byId.get(id)?.completionEvents?.includes(event), `${id}: ${event} in ${JSON.stringify(byId.get(id))}`);
  });

  it('no step of those ticks on a command run or a setting changed (a cancelled or undone step is not done)', () => {
    for (const step of steps().filter((s) => s.id in expected))
      for (const event of step.completionEvents ?? [])
        assert.doesNotMatch(event, /^(onCommand|onSettingChanged):/, `${step.id}: ${event}`);
  });

  it('every key a step waits for is one the extension sets', () => {
    const set = keysTheExtensionSets();
    assert.deepEqual(set.sort(), [
      'unifiedInference.chatOpened',
      'unifiedInference.connectionTested',
      'unifiedInference.hasApiKey',
      'unifiedInference.hasBaseUrl',
    ]);
    for (const step of steps())
      for (const event of step.completionEvents ?? []) {
        const key = /^onContext:(.+)$/.exec(event)?.[1];
        if (key) assert.ok(set.includes(key), `${step.id} waits for ${key}, which nothing sets`);
      }
  });
});
