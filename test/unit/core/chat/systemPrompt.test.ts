// The chat's one system-prompt builder, and the two places that use it: the reply's requests
// (through the context keeper) and the context meter's estimate. Both must carry the trust note
// when the workspace tools are withheld.
import * as assert from 'node:assert/strict';
import { systemPrompt, UNTRUSTED_WORKSPACE_NOTE } from '../../../../src/core/chat/systemPrompt';
import { estimateTextTokens } from '../../../../src/core/context/tokenEstimate';
import type { GatewayClient } from '../../../../src/core/transport/client';
import { ContextKeeper } from '../../../../src/core/chat/context/contextKeeper';
import { estimateContextMeter } from '../../../../src/core/chat/context/meterEstimate';
import type { AssistantTurn, Conversation } from '../../../../src/shared/chatModel';

const conversation = (systemPromptText?: string): Conversation => ({
  id: 'c1',
  title: 'T',
  model: 'm',
  parameters: systemPromptText ? { systemPrompt: systemPromptText } : {},
  turns: [{ role: 'user', id: 'u1', text: 'Hello there', attachments: [], createdAt: 1 }],
  createdAt: 1,
  updatedAt: 1,
});

describe('systemPrompt: one builder for every chat request and the meter', () => {
  it('says why the workspace tools are off when they are withheld, and only then', () => {
    assert.ok(systemPrompt({ toolsWithheld: true }).includes(UNTRUSTED_WORKSPACE_NOTE));
    assert.equal(systemPrompt({ toolsWithheld: false }), '');
    assert.match(UNTRUSTED_WORKSPACE_NOTE, /not trusted in VS Code \(Restricted Mode\)/);
  });

  it("puts the parts in a fixed order (the user's prompt, the trust note, the instructions, the compaction note) and leaves empty ones out", () => {
    const prompt = systemPrompt({
      conversationPrompt: 'Be brief.',
      toolsWithheld: true,
      instructions: 'INSTRUCTIONS',
      compaction: 'COMPACTION',
    });
    assert.equal(prompt, ['Be brief.', UNTRUSTED_WORKSPACE_NOTE, 'INSTRUCTIONS', 'COMPACTION'].join('\n\n'));
    assert.equal(systemPrompt({ conversationPrompt: '  ', toolsWithheld: false, instructions: '' }), '');
    assert.equal(
      systemPrompt({ conversationPrompt: 'Be brief.', toolsWithheld: false, compaction: 'COMPACTION' }),
      'Be brief.\n\nCOMPACTION',
    );
  });

  it('the context meter counts the trust note when the tools are withheld', () => {
    const input = {
      conversation: conversation('Be brief.'),
      attachments: [],
      instructionFiles: [],
      model: 'm',
      toolChars: 0,
    };
    const without = estimateContextMeter({ ...input, toolsWithheld: false });
    const withNote = estimateContextMeter({ ...input, toolsWithheld: true });
    assert.equal(withNote.source, 'estimated');
    const noteTokens = estimateTextTokens(`\n\n${UNTRUSTED_WORKSPACE_NOTE}`);
    assert.ok(
      Math.abs(withNote.usedTokens - without.usedTokens - noteTokens) <= 1,
      `the note, as the request would carry it: ${withNote.usedTokens} vs ${without.usedTokens}`,
    );
  });

  it("the context meter counts the conversation's own system prompt", () => {
    const input = { attachments: [], instructionFiles: [], model: 'm', toolChars: 0, toolsWithheld: false };
    assert.ok(
      estimateContextMeter({ ...input, conversation: conversation('x'.repeat(4000)) }).usedTokens >
        estimateContextMeter({ ...input, conversation: conversation() }).usedTokens + 500,
    );
  });

  it("the reply's requests carry the trust note in every round, through the context keeper", async () => {
    const reply: AssistantTurn = {
      role: 'assistant',
      id: 'a1',
      model: 'm',
      content: '',
      reasoning: '',
      toolSteps: [],
      status: 'streaming',
      wire: [],
      createdAt: 2,
    };
    const keeper = new ContextKeeper({
      client: {} as GatewayClient,
      request: { model: 'm', api: 'auto' },
      system: { conversationPrompt: 'Be brief.', toolsWithheld: true, instructions: 'INSTRUCTIONS' },
      turns: conversation().turns,
      reply,
      toolChars: 0,
      changed: () => undefined,
    });
    const fitted = await keeper.fit([], undefined, new AbortController().signal);
    assert.equal(fitted.system, ['Be brief.', UNTRUSTED_WORKSPACE_NOTE, 'INSTRUCTIONS'].join('\n\n'));
  });
});
