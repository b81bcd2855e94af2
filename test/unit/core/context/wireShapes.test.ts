// The token estimate counts the chat's own wire parts (src/shared/chatModel.ts WirePart): every
// kind of part a conversation stores and replays must cost characters, or compaction would plan
// with a request smaller than the one sent.
import * as assert from 'node:assert/strict';
import { estimateMessageTokens, messageChars } from '../../../../src/core/context/tokenEstimate';
import type { WireMessage } from '../../../../src/shared/chatModel';

describe('wire parts and token-estimate parts', () => {
  it('are the same shape, so every stored part is counted', () => {
    const message: WireMessage = {
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'abc' },
        { kind: 'thinking', thinking: 'defg', signature: 'sig' },
        { kind: 'redactedThinking', data: 'hi' },
        { kind: 'toolCall', id: 'c1', name: 'read', input: { p: 1 } },
        { kind: 'toolResult', callId: 'c1', content: 'done' },
      ],
    };
    // text 3 + thinking 4 + redacted 2 + call (name 4 + '{"p":1}' 7) + result 4
    assert.equal(messageChars(message), 24);
    assert.ok(estimateMessageTokens(message) > 8);
  });
});
