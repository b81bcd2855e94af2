import * as assert from 'node:assert/strict';
import { parseChatToHostMessage } from '../../src/shared/chatProtocol';

describe('chat protocol: messages from the webview are validated', () => {
  it('accepts the known messages', () => {
    assert.deepEqual(parseChatToHostMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseChatToHostMessage({ type: 'runCommand', command: 'setApiKey', extra: 1 }), { type: 'runCommand', command: 'setApiKey' });
  });

  it('rejects unknown types, unknown commands and non-objects', () => {
    for (const value of [null, 'ready', 42, {}, { type: 'eval' }, { type: 'runCommand', command: 'workbench.action.terminal.new' }]) {
      assert.equal(parseChatToHostMessage(value), undefined, JSON.stringify(value));
    }
  });
});
