// An edit's reviewed change and a command stay on their tool steps in history; a malformed one
// (a hand-edited or older file) is dropped, never costing the conversation.
import * as assert from 'node:assert/strict';
import { parseConversation } from '../../src/core/chat/history/conversationShape';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';

function stored(step: Record<string, unknown>): unknown {
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
        content: '',
        reasoning: '',
        status: 'done',
        wire: [],
        createdAt: 1,
        toolSteps: [
          { kind: 'function', id: 'call', name: 'replace_in_file', arguments: '{}', status: 'done', ...step },
        ],
      },
    ],
  };
}
const stepOf = (value: Conversation | string): unknown => {
  assert.ok(typeof value !== 'string', String(value));
  return (value.turns[0] as AssistantTurn).toolSteps[0];
};

describe('stored tool steps: change and command', () => {
  it('keeps a change and a command', () => {
    const change = {
      files: [{ action: 'rename', path: 'a.ts', to: 'b.ts' }],
      diff: 'rename from a.ts\nrename to b.ts',
      added: 0,
      removed: 0,
    };
    assert.deepEqual((stepOf(parseConversation(stored({ change }), 'c1')) as { change: unknown }).change, change);
    const command = { command: 'npm test', cwd: '.' };
    assert.deepEqual((stepOf(parseConversation(stored({ command }), 'c1')) as { command: unknown }).command, command);
  });

  it('drops a malformed change or command, keeping the step', () => {
    for (const bad of [
      { change: { files: [{ action: 'format-disk', path: 'x' }], diff: '' } },
      { change: { diff: 3 } },
      { command: { command: 1 } },
    ]) {
      const step = stepOf(parseConversation(stored(bad), 'c1')) as Record<string, unknown>;
      assert.equal(step.change, undefined, JSON.stringify(bad));
      assert.equal(step.command, undefined);
      assert.equal(step.name, 'replace_in_file');
    }
  });
});
