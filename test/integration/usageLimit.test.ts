import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn } from '../../src/shared/chatModel';
import type { CreditsState } from '../../src/core/account/creditsPresentation';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  recordNotifications,
  setSetting,
  waitFor,
} from './extensionHost';

// The spec's 429, "usage limit or plan limit reached", as a real gateway may send it: in words
// only (gateway mode `limit-words`). The chat and the status bar must treat it as a limit: no
// retries, the reset time from /quota in the chat's error, the credits item out of credits, and
// kept so even though the balance still reads above zero (a spend window's limit).
describe('a usage limit said only in words', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  const state = (): CreditsState => api.credits.state;

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    await api.credits.refresh();
    await waitFor(state, (s) => s.kind === 'ok', 'a balance reading');
  });

  after(async () => {
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('ends the chat reply with the reset time, once, and switches the status bar to out of credits', async () => {
    const model = 'sim-openai/gpt-sim-mini::limit-words';
    api.chat.attach(() => undefined);
    await setSetting('defaultModels.chat', model);
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').get<string>('defaultModels.chat'),
      (seen) => seen === model,
      'the model setting',
    );
    await api.chat.handle({ type: 'newConversation' });
    const notes = recordNotifications();
    let notices = 0;
    const noticing = api.credits.onDidShowOutOfCreditsNotice(() => notices++);
    try {
      gateway.clearRequests();
      await api.chat.handle({ type: 'send', text: 'Hello past the limit' });
      const reply = api.chat.current.turns.at(-1) as AssistantTurn;
      assert.equal(reply.status, 'error');
      assert.equal(reply.error?.kind, 'outOfCredits');
      assert.match(reply.error?.message ?? '', /Usage limit reached/);
      const reset = (await api.connection.setup.client!.quota.get()).reset;
      const resetShown = new Date(reset).toISOString().replace('T', ' ').slice(0, 16);
      assert.ok(
        reply.error?.message.includes(`resets at ${resetShown} UTC`),
        `${reply.error?.message} names ${resetShown}`,
      );
      assert.ok(reply.error?.actions.includes('refreshCredits'));
      assert.equal(gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').length, 1, 'no retry');

      await waitFor(
        () => api.creditsItem.presentation?.text,
        (text) => text === '$(error) Out of credits',
        'the status bar out of credits',
      );
      // The reply's error card says it with the reset time: no notification repeats it (the monitor
      // decided when the failure was reported, before the reply ended).
      assert.deepEqual(
        notes.shown.filter((n) => /out of credits/i.test(n.message)),
        [],
        'no second out-of-credits notification',
      );
      assert.equal(notices, 0, 'the credits monitor decided against its notice');
      // The balance still reads above zero (a window limit): a refresh must not flip the item back to it.
      const after = await api.credits.refresh();
      assert.equal(after.kind, 'outOfCredits');
      assert.ok(after.kind === 'outOfCredits' && (after.last?.credits ?? 0) > 0, 'the reading is kept for the tooltip');
      assert.equal(api.creditsItem.presentation?.text, '$(error) Out of credits');
    } finally {
      noticing.dispose();
      notes.restore();
    }
  });
});
