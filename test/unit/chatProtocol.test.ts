import * as assert from 'node:assert/strict';
import { parseChatToHostMessage } from '../../src/shared/chatProtocol';

describe('chat protocol: messages from the webview are validated', () => {
  it('accepts the known messages', () => {
    assert.deepEqual(parseChatToHostMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseChatToHostMessage({ type: 'runCommand', command: 'setApiKey', extra: 1 }), { type: 'runCommand', command: 'setApiKey' });
    assert.deepEqual(parseChatToHostMessage({ type: 'openToolDiff', callId: 'call_1' }), { type: 'openToolDiff', callId: 'call_1' });
    assert.equal(parseChatToHostMessage({ type: 'openToolDiff', callId: '' }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'openToolDiff', callId: 7 }), undefined);
  });

  it('rejects unknown types, unknown commands and non-objects', () => {
    for (const value of [null, 'ready', 42, {}, { type: 'eval' }, { type: 'runCommand', command: 'workbench.action.terminal.new' }]) {
      assert.equal(parseChatToHostMessage(value), undefined, JSON.stringify(value));
    }
  });

  it('restoreCheckpoint carries a plain turn id only', () => {
    assert.deepEqual(parseChatToHostMessage({ type: 'restoreCheckpoint', turnId: 'a-lx2k-1ab' }), { type: 'restoreCheckpoint', turnId: 'a-lx2k-1ab' });
    for (const turnId of [undefined, '', '../c-1', 'a/b', 42, 'x'.repeat(201)]) assert.equal(parseChatToHostMessage({ type: 'restoreCheckpoint', turnId }), undefined, String(turnId));
  });
});
