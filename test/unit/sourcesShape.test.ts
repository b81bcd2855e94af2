// A reply's sources and a failed server step as history stores them: kept when good, checked again
// on load (a hand-edited or older file may hold any link), and a bad list never costs the conversation.
import * as assert from 'node:assert/strict';
import { parseConversation } from '../../src/core/chat/history/conversationShape';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';

function stored(turn: Record<string, unknown>): unknown {
  return {
    id: 'c1',
    title: 't',
    model: 'm',
    parameters: {},
    createdAt: 1,
    updatedAt: 1,
    turns: [
      {
        role: 'assistant',
        id: 'a1',
        model: 'm',
        content: 'x',
        reasoning: '',
        status: 'done',
        wire: [],
        createdAt: 1,
        toolSteps: [],
        ...turn,
      },
    ],
  };
}

function replyOf(value: Conversation | string): AssistantTurn {
  assert.ok(typeof value !== 'string', String(value));
  return value.turns[0] as AssistantTurn;
}

describe('stored reply sources and server steps', () => {
  it('keeps good sources and a failed server step as they were saved', () => {
    const sources = [{ url: 'https://a.example/', title: 'A' }, { url: 'https://b.example/x' }];
    const steps = [{ kind: 'server', name: 'web_search', arguments: '{"query":"q"}', result: 'r', failed: true }];
    const reply = replyOf(parseConversation(stored({ sources, toolSteps: steps }), 'c1'));
    assert.deepEqual(reply.sources, sources);
    assert.deepEqual(reply.toolSteps, steps);
  });

  it('drops links that are not http(s), repeated ones, bad titles and bad items; no list when none is left', () => {
    const reply = replyOf(
      parseConversation(
        stored({
          sources: [
            { url: 'javascript:alert(1)', title: 'x' },
            { url: 'https://a.example/', title: { html: '<b>' } },
            { url: 'https://a.example/', title: 'A\u202e\n' },
            'https://string.example/',
            null,
            { url: 'command:workbench.action.quit' },
          ],
          toolSteps: [{ kind: 'server', name: 's', failed: 'yes' }],
        }),
        'c1',
      ),
    );
    assert.deepEqual(reply.sources, [{ url: 'https://a.example/', title: 'A' }]);
    assert.deepEqual(reply.toolSteps, [{ kind: 'server', name: 's' }]);
    for (const sources of [{ url: 'https://a.example/' }, 'https://a.example/', [{ url: 'file:///etc/passwd' }], []]) {
      const parsed = replyOf(parseConversation(stored({ sources }), 'c1'));
      assert.equal(parsed.sources, undefined, JSON.stringify(sources));
      assert.equal(parsed.content, 'x');
    }
  });

  it('keeps at most 50 of a flood of saved sources', () => {
    const sources = Array.from({ length: 5000 }, (_, i) => ({ url: `https://flood.example/${i}` }));
    assert.equal(replyOf(parseConversation(stored({ sources }), 'c1')).sources?.length, 50);
  });
});
