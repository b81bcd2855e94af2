// M2: ChatStreamAccumulator fed raw chunks directly (not through client.chat.stream, which
// normalises them): every variant wire-conventions allows is read, none crashes.
import * as assert from 'node:assert/strict';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import type { ChatCompletionChunk } from '../../../src/core/types/chat';

/** A chunk as a server might send it, typed loosely on purpose. */
const raw = (value: unknown): ChatCompletionChunk => value as ChatCompletionChunk;

describe('core: ChatStreamAccumulator with raw chunks (M2)', () => {
  it('takes usage from a chunk with choices: null', () => {
    const acc = new ChatStreamAccumulator();
    acc.add(raw({ choices: null, usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } }));
    assert.deepEqual(acc.snapshot().usage, { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
  });

  it('survives delta: null and reads the finish reason next to it', () => {
    const acc = new ChatStreamAccumulator();
    acc.add(raw({ choices: [{ index: 0, delta: null, finish_reason: 'stop' }] }));
    assert.equal(acc.snapshot().finishReason, 'stop');
  });

  it('reads a choice without index as the one at its position', () => {
    const acc = new ChatStreamAccumulator();
    acc.add(raw({ choices: [{ delta: { content: 'Hi ' } }] }));
    acc.add(
      raw({
        choices: [
          {
            index: '0',
            delta: { content: 'there', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{}' } }] },
          },
        ],
      }),
    );
    acc.add(raw({ choices: [{ index: 1, delta: { content: 'choice 1 is not shown' } }] }));
    const snapshot = acc.snapshot();
    assert.equal(snapshot.content, 'Hi there');
    assert.deepEqual(snapshot.toolCalls, [{ id: 'c1', name: 'f', arguments: '{}' }]);
  });

  it('keeps a finish reason when later chunks carry finish_reason undefined, null or empty', () => {
    const acc = new ChatStreamAccumulator();
    acc.add(raw({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }));
    acc.add(raw({ choices: [{ index: 0, delta: {}, finish_reason: undefined }] }));
    acc.add(raw({ choices: [{ index: 0, delta: {} }] }));
    acc.add(raw({ choices: [{ index: 0, delta: {}, finish_reason: '' }] }));
    assert.equal(acc.snapshot().finishReason, 'length');
  });

  it('ignores fields of the wrong type and chunks that are not objects', () => {
    const acc = new ChatStreamAccumulator();
    acc.add(raw(null));
    acc.add(
      raw({
        choices: [null, 7, { index: 0, delta: { content: 5, reasoning: ['x'], tool_calls: 'no' } }],
        usage: 'n/a',
        tools_executed: 'x',
      }),
    );
    acc.add(raw({ choices: [{ index: 0, message: { content: 'from message' } }], tools_executed: ['search', 3] }));
    const snapshot = acc.snapshot();
    assert.equal(snapshot.content, 'from message');
    assert.equal(snapshot.reasoning, '');
    assert.equal(snapshot.usage, null);
    assert.deepEqual(snapshot.toolsExecuted, ['search']);
  });
});
