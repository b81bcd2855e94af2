import * as assert from 'node:assert/strict';
import { ChatNotices } from '../../../../src/core/chat/chatNotices';
import type { HostToChatMessage } from '../../../../src/shared/chatProtocol';

describe('chat notices: answers in the chat to what was done in it', () => {
  it('posts each notice with a new id, and its button label only when it has an action', () => {
    const posted: HostToChatMessage[] = [];
    const notices = new ChatNotices((message) => posted.push(message));
    notices.show('No editor is open.', 'warning');
    notices.show('Deleted "A".', 'info', { label: 'Undo', run: async () => undefined });
    assert.deepEqual(posted, [
      { type: 'notice', notice: { id: 1, text: 'No editor is open.', severity: 'warning' } },
      { type: 'notice', notice: { id: 2, text: 'Deleted "A".', severity: 'info', action: 'Undo' } },
    ]);
  });

  it("runs a button's action once, and only while its notice is the latest (an old Undo does nothing)", async () => {
    const notices = new ChatNotices(() => undefined);
    const runs: string[] = [];
    notices.show('Deleted "A".', 'info', { label: 'Undo', run: async () => runs.push('undo A') });
    notices.show('Deleted "B".', 'info', { label: 'Undo', run: async () => runs.push('undo B') });
    await notices.act(1);
    assert.deepEqual(runs, [], 'the first notice was replaced');
    await notices.act(2);
    await notices.act(2);
    assert.deepEqual(runs, ['undo B'], 'once');
    notices.show('Exported.', 'info');
    await notices.act(3);
    assert.deepEqual(runs, ['undo B'], 'a notice without a button runs nothing');
  });
});
