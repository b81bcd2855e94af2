import * as assert from 'node:assert/strict';
import { parseChatToHostMessage } from '../../src/shared/chatProtocol';

describe('chat protocol: messages from the webview are validated', () => {
  it('accepts the known messages', () => {
    assert.deepEqual(parseChatToHostMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseChatToHostMessage({ type: 'runCommand', command: 'setApiKey', extra: 1 }), {
      type: 'runCommand',
      command: 'setApiKey',
    });
    assert.deepEqual(parseChatToHostMessage({ type: 'openToolDiff', callId: 'call_1' }), {
      type: 'openToolDiff',
      callId: 'call_1',
    });
    assert.equal(parseChatToHostMessage({ type: 'openToolDiff', callId: '' }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'openToolDiff', callId: 7 }), undefined);
    assert.deepEqual(parseChatToHostMessage({ type: 'openResearchJob', jobId: 'job-1' }), {
      type: 'openResearchJob',
      jobId: 'job-1',
    });
    assert.equal(parseChatToHostMessage({ type: 'openResearchJob', jobId: '' }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'openResearchJob', jobId: 'x'.repeat(201) }), undefined);
  });

  it('rejects unknown types, unknown commands and non-objects', () => {
    for (const value of [
      null,
      'ready',
      42,
      {},
      { type: 'eval' },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
    ]) {
      assert.equal(parseChatToHostMessage(value), undefined, JSON.stringify(value));
    }
  });

  it('restoreCheckpoint carries a plain turn id only', () => {
    assert.deepEqual(parseChatToHostMessage({ type: 'restoreCheckpoint', turnId: 'a-lx2k-1ab' }), {
      type: 'restoreCheckpoint',
      turnId: 'a-lx2k-1ab',
    });
    for (const turnId of [undefined, '', '../c-1', 'a/b', 42, 'x'.repeat(201)])
      assert.equal(parseChatToHostMessage({ type: 'restoreCheckpoint', turnId }), undefined, String(turnId));
  });
});

describe('chat protocol: applyCode carries a reply and a block number, never code or a path', () => {
  it('keeps the turn id and the block index, and drops anything else', () => {
    assert.deepEqual(
      parseChatToHostMessage({
        type: 'applyCode',
        turnId: 'a-1',
        blockIndex: 2,
        code: 'rm -rf /',
        path: '/etc/passwd',
      }),
      { type: 'applyCode', turnId: 'a-1', blockIndex: 2 },
    );
  });

  it('rejects a missing or odd turn id and an index that is not a small whole number', () => {
    for (const value of [
      { type: 'applyCode', blockIndex: 0 },
      { type: 'applyCode', turnId: '', blockIndex: 0 },
      { type: 'applyCode', turnId: 'x'.repeat(201), blockIndex: 0 },
      { type: 'applyCode', turnId: 'a', blockIndex: -1 },
      { type: 'applyCode', turnId: 'a', blockIndex: 1.5 },
      { type: 'applyCode', turnId: 'a', blockIndex: '1' },
      { type: 'applyCode', turnId: 'a', blockIndex: Number.NaN },
      { type: 'applyCode', turnId: 'a', blockIndex: 1e9 },
    ]) {
      assert.equal(parseChatToHostMessage(value), undefined, JSON.stringify(value));
    }
  });
});
