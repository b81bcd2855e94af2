// The chat's stored wire parts (src/shared/chatModel.ts WirePart) and the token estimate's parts
// (src/core/context/tokenEstimate.ts ContextPart) are one shape written twice: the layers forbid
// one file serving both (shared may not import core, nor core shared). The type check below fails
// the build the day they drift apart, so the estimate never silently skips a kind of part.
import * as assert from 'node:assert/strict';
import { estimateMessageTokens, messageChars, type ContextMessage, type ContextPart } from '../../src/core/context/tokenEstimate';
import type { WireMessage, WirePart } from '../../src/shared/chatModel';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const partsAgree: Same<WirePart, ContextPart> = true;
const messagesAgree: Same<WireMessage, ContextMessage> = true;

describe('wire parts and token-estimate parts', () => {
  it('are the same shape, so every stored part is counted', () => {
    assert.equal(partsAgree && messagesAgree, true);
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
