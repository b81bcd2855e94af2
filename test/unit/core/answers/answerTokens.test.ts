// The answer's tokens: what /messages and chat completions ask for, and how that shrinks to the
// room the context keeper measured.
import * as assert from 'node:assert/strict';
import { answerTokens, requestedAnswerTokens } from '../../../../src/core/answers/answerTokens';

describe('answer tokens (max_tokens and thinking budget)', () => {
  it('asks /messages for a default answer, or the thinking budget plus one, and chat completions for nothing unless set', () => {
    assert.deepEqual(answerTokens({}, true), { maxTokens: 4096 });
    assert.deepEqual(answerTokens({ reasoningEffort: 'low' }, true), { maxTokens: 2048 + 4096, thinkingBudget: 2048 });
    assert.deepEqual(answerTokens({ thinkingBudget: 3000, maxTokens: 20_000 }, true), {
      maxTokens: 20_000,
      thinkingBudget: 3000,
    });
    assert.deepEqual(answerTokens({}, false), {});
    assert.deepEqual(
      answerTokens({ reasoningEffort: 'high' }, false),
      {},
      'chat completions send the effort, not a budget',
    );
    assert.deepEqual(answerTokens({ maxTokens: 700, thinkingBudget: 1500 }, false), {
      maxTokens: 700,
      thinkingBudget: 1500,
    });
  });

  it('shrinks max_tokens to the room and keeps the thinking budget below it, or turns thinking off', () => {
    assert.deepEqual(answerTokens({ reasoningEffort: 'high', answerRoom: 10_000 }, true), {
      maxTokens: 10_000,
      thinkingBudget: 5000,
    });
    assert.deepEqual(
      answerTokens({ reasoningEffort: 'low', answerRoom: 1800 }, true),
      { maxTokens: 1800 },
      'no budget of 1,024 or more fits below 1,800 with room to answer',
    );
    assert.deepEqual(
      answerTokens({ reasoningEffort: 'low', answerRoom: 100_000 }, true),
      { maxTokens: 6144, thinkingBudget: 2048 },
      'room to spare changes nothing',
    );
    assert.deepEqual(answerTokens({ answerRoom: 900 }, false), {}, 'chat completions without max_tokens stay without');
    assert.deepEqual(answerTokens({ maxTokens: 5000, answerRoom: 900.7 }, false), { maxTokens: 900 });
    assert.deepEqual(
      answerTokens({ maxTokens: 5000, answerRoom: 0 }, true),
      { maxTokens: 5000 },
      'a room below one token is no measurement',
    );
  });

  it('tells the keeper what the answer will ask for before any cap', () => {
    assert.equal(requestedAnswerTokens({ reasoningEffort: 'medium', answerRoom: 10 }, true), 8192 + 4096);
    assert.equal(requestedAnswerTokens({}, true), 4096);
    assert.equal(requestedAnswerTokens({}, false), undefined);
    assert.equal(requestedAnswerTokens({ thinkingBudget: 2000 }, false), 6096);
  });
});
