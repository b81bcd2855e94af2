import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/extension/chat/chatController';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
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

// One conversation open in the sidebar chat and in an editor panel at once (one store, two
// controllers): a turn sent from each is kept in both and on disk, and a delete in one place is
// not undone by a later save from the other.
describe('chat: one conversation in the sidebar and an editor panel', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let notes: ReturnType<typeof recordNotifications>;
  let panel: ChatController | undefined;

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    await setSetting('defaultModels.chat', 'sim-openai/gpt-sim-mini');
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').get<string>('defaultModels.chat'),
      (seen) => seen === 'sim-openai/gpt-sim-mini',
      'the model setting',
    );
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    panel?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  async function historyOf(
    chat: ChatController,
    query: string,
  ): Promise<Extract<HostToChatMessage, { type: 'history' }> | undefined> {
    const posted: HostToChatMessage[] = [];
    chat.attach((message) => posted.push(message));
    await chat.handle({ type: 'searchHistory', query });
    return posted.find((m): m is Extract<HostToChatMessage, { type: 'history' }> => m.type === 'history');
  }

  it('keeps the turns sent from both places, and a delete in one sticks', async () => {
    const sidebar = api.chat;
    sidebar.attach(() => undefined);
    await sidebar.handle({ type: 'newConversation' });
    await sidebar.handle({ type: 'send', text: 'Shared plans for the garden' });
    const id = sidebar.current.id;
    const returned = await vscode.commands.executeCommand<unknown>('unifiedInference.chat.openInEditor');
    assert.equal(returned, undefined, 'the command hands nothing back (any extension may run it)');
    panel = api.chatPanel();
    assert.ok(panel, 'the panel chat (through the test API)');
    assert.equal(panel.current.id, id, 'the panel has the conversation');
    // The user opens the same conversation in the sidebar again, from its history.
    await sidebar.handle({ type: 'openConversation', id });
    assert.equal(sidebar.current.id, id);

    await panel.handle({ type: 'send', text: 'From the panel: tomatoes' });
    await sidebar.handle({ type: 'send', text: 'From the sidebar: beans' });
    const texts = (turns: typeof sidebar.current.turns): string[] =>
      turns.filter((t) => t.role === 'user').map((t) => (t.role === 'user' ? t.text : ''));
    assert.deepEqual(
      texts(sidebar.current.turns),
      ['Shared plans for the garden', 'From the panel: tomatoes', 'From the sidebar: beans'],
      "the sidebar took in the panel's turn",
    );
    assert.equal(sidebar.current.turns.length, 6, 'every reply kept');
    assert.ok(
      notes.shown.some((n) => n.kind === 'info' && /also changed in another chat view/.test(n.message)),
      'the user was told',
    );
    const listed = await historyOf(sidebar, 'garden');
    assert.equal(listed?.conversations.find((c) => c.id === id)?.turnCount, 6, 'on disk too');

    // The sidebar deletes it; the panel's next message must not bring it back.
    await sidebar.handle({ type: 'deleteConversation', id });
    await panel.handle({ type: 'send', text: 'From the panel after the delete' });
    assert.ok(
      notes.shown.some((n) => n.kind === 'warning' && /was deleted in another chat view/.test(n.message)),
      'the panel was told',
    );
    assert.equal(
      (await historyOf(sidebar, 'garden'))?.conversations.some((c) => c.id === id),
      false,
      'still deleted',
    );
  });
});
