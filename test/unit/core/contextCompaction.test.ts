// The context window's pure logic: the token estimate, the budget, trimming, the compaction plan.
import * as assert from 'node:assert/strict';
import { calibratedRatio, estimateRequestTokens, estimateTextTokens } from '../../../src/core/context/tokenEstimate';
import type { WireMessage } from '../../../src/shared/chatModel';
import { contextBudget } from '../../../src/core/context/contextBudget';
import {
  isContextLengthError,
  reportedContextLength,
  reportedInputTokens,
} from '../../../src/core/context/contextErrors';
import { MIN_TRIM_CHARS, trimMiddle } from '../../../src/core/context/trimText';
import {
  OLD_RESULT_CHARS,
  planCompaction,
  type ContextTurn,
  type CompactionInput,
} from '../../../src/core/context/compactionPlan';
import { catalogContextLength } from '../../../src/core/context/contextLength';

const user = (id: string, text: string): ContextTurn => ({
  id,
  user: true,
  messages: [{ role: 'user', parts: [{ kind: 'text', text }] }],
});
const reply = (id: string, text: string): ContextTurn => ({
  id,
  user: false,
  messages: [{ role: 'assistant', parts: [{ kind: 'text', text }] }],
});
const toolReply = (id: string, result: string, text = 'done'): ContextTurn => ({
  id,
  user: false,
  messages: [
    { role: 'assistant', parts: [{ kind: 'toolCall', id: `${id}-call`, name: 'read_file', input: { path: 'a.ts' } }] },
    { role: 'user', parts: [{ kind: 'toolResult', callId: `${id}-call`, content: result }] },
    { role: 'assistant', parts: [{ kind: 'text', text }] },
  ],
});

function exchanges(count: number, size: number): ContextTurn[] {
  return Array.from({ length: count }, (_, i) => [
    user(`u${i}`, `question ${i} `.padEnd(size, 'q')),
    reply(`a${i}`, `answer ${i} `.padEnd(size, 'a')),
  ]).flat();
}

function sent(plan: { turns: readonly ContextTurn[]; tail: readonly WireMessage[] }): WireMessage[] {
  return [...plan.turns.flatMap((turn) => turn.messages), ...plan.tail];
}

function textOf(turn: ContextTurn | undefined): string {
  return (turn?.messages ?? [])
    .flatMap((m) => m.parts)
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'toolResult' ? p.content : ''))
    .join('');
}

const base = (turns: ContextTurn[], budget: number, extra: Partial<CompactionInput> = {}): CompactionInput => ({
  system: 'You help.',
  turns,
  tail: [],
  budget,
  allowSummary: true,
  ...extra,
});

describe('context window: token estimate', () => {
  it('counts three characters per token, rounding up, plus a per-message overhead', () => {
    assert.equal(estimateTextTokens(''), 0);
    assert.equal(estimateTextTokens('abc'), 1);
    assert.equal(estimateTextTokens('abcd'), 2);
    const one = estimateRequestTokens({
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x'.repeat(300) }] }],
    });
    assert.equal(one, 100 + 4);
    const withSystem = estimateRequestTokens({
      system: 'y'.repeat(30),
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x'.repeat(300) }] }],
      toolChars: 90,
    });
    assert.equal(withSystem, 104 + 14 + 30);
  });

  it('is pessimistic against a word-per-token count of ordinary prose', () => {
    const prose =
      'The quick brown fox jumps over the lazy dog while the compiler reports an error in module seven. '.repeat(20);
    const words = prose.split(/\s+/).filter(Boolean).length + (prose.match(/[.,]/g) ?? []).length;
    assert.ok(estimateTextTokens(prose) > words, `${estimateTextTokens(prose)} should exceed ${words}`);
  });

  it('calibrates from a measured request, never more optimistic than the default, never absurd', () => {
    assert.equal(calibratedRatio(0, 100), 1 / 3);
    assert.equal(calibratedRatio(10, 100), 1 / 3);
    assert.equal(calibratedRatio(50, 100), 0.5);
    assert.equal(calibratedRatio(1_000_000, 100), 2);
    assert.equal(calibratedRatio(10, 0), 1 / 3);
  });
});

describe('context window: budget', () => {
  it('keeps room for the answer and a margin', () => {
    const big = contextBudget(128_000);
    assert.deepEqual(big, { input: 128_000 - 4096 - 6400, output: 4096, margin: 6400 });
    const tiny = contextBudget(2048);
    assert.equal(tiny.output, 512);
    assert.equal(tiny.margin, 103);
    assert.equal(tiny.input, 2048 - 512 - 103);
  });

  it("uses the conversation's max tokens, but never more than a quarter of the context", () => {
    assert.equal(contextBudget(128_000, 1000).output, 1000);
    assert.equal(contextBudget(2048, 4000).output, 512);
  });
});

describe('context window: trimming', () => {
  it('keeps head and tail and says how much it cut', () => {
    const text = `HEAD${'m'.repeat(10_000)}TAIL`;
    const out = trimMiddle(text, 1000);
    assert.ok(out.text.startsWith('HEAD'));
    assert.ok(out.text.endsWith('TAIL'));
    assert.match(out.text, /\[trimmed [\d,]+ chars to fit the model's context window\]/);
    assert.equal(
      out.trimmed,
      text.length - (out.text.length - out.text.match(/\n\n\[trimmed [^\]]+\]\n\n/)![0].length),
    );
    assert.ok(out.text.length <= 1000, `${out.text.length}`);
  });

  it('leaves short texts alone', () => {
    assert.deepEqual(trimMiddle('short', 10), { text: 'short', trimmed: 0 });
    assert.equal(trimMiddle('x'.repeat(MIN_TRIM_CHARS), 10).trimmed, 0);
  });
});

describe('context window: compaction plan', () => {
  it('sends everything unchanged when it fits', () => {
    const turns = exchanges(3, 100);
    const plan = planCompaction(base(turns, 10_000));
    assert.equal(plan.fits, true);
    assert.equal(plan.summarize, undefined);
    assert.deepEqual(plan.turns, turns);
    assert.equal(plan.trimmedChars, 0);
  });

  it('trims long tool results of older turns first, keeping the last turns whole', () => {
    const bigResult = `BEGIN${'r'.repeat(30_000)}END`;
    const turns = [
      user('u0', 'read a.ts'),
      toolReply('a0', bigResult),
      user('u1', 'and b?'),
      toolReply('a1', bigResult),
      user('u2', 'thanks, now explain'),
    ];
    const plan = planCompaction(base(turns, 12_000, { keepTurns: 2 }));
    assert.equal(plan.fits, true);
    assert.equal(plan.summarize, undefined);
    assert.equal(plan.trimmedResults, 1);
    const old = textOf(plan.turns[1]);
    assert.ok(old.length < OLD_RESULT_CHARS + 100);
    assert.ok(old.includes('BEGIN') && old.includes('END') && old.includes('[trimmed'));
    assert.equal(textOf(plan.turns[3]), `${bigResult}done`, 'a kept turn stays whole');
  });

  it('asks to summarize as few of the oldest exchanges as make the rest fit, cutting only at user turns', () => {
    const turns = exchanges(10, 600); // 20 turns of ~200 tokens each
    const plan = planCompaction(base(turns, 2000, { summaryTokens: 200 }));
    assert.ok(plan.summarize && plan.summarize.length > 0);
    assert.equal(plan.summarize.length % 2, 0, 'whole exchanges');
    assert.equal(plan.turns[0]?.user, true, 'the rest starts with a user turn');
    assert.equal(plan.summarize.length + plan.turns.length, turns.length);
    assert.ok(plan.tokens <= 2000, `${plan.tokens}`);
    assert.equal(plan.fits, true);
    // As few as possible: one exchange fewer would not fit.
    const one = planCompaction(
      base(turns.slice(plan.summarize.length - 2), 2000, { summaryTokens: 200, allowSummary: false }),
    );
    assert.ok(one.trimmedChars > 0 || one.dropped.length > 0 || !one.fits);
  });

  it('never summarizes the latest user message or the last turns', () => {
    const turns = exchanges(6, 3000);
    const plan = planCompaction(base(turns, 1500, { summaryTokens: 200 }));
    assert.ok(plan.summarize);
    const remaining = plan.turns.map((turn) => turn.id);
    assert.ok(
      remaining.includes('u5') && remaining.includes('a5') && remaining.includes('u4') && remaining.includes('a4'),
    );
  });

  it('without a summary, trims the longest parts, then drops the oldest exchanges, and reports both', () => {
    const turns = [...exchanges(4, 3000), user('u9', 'short question')];
    const plan = planCompaction(base(turns, 900, { allowSummary: false }));
    assert.equal(plan.fits, true, `${plan.tokens}`);
    assert.equal(plan.summarize, undefined);
    assert.ok(plan.trimmedChars > 0);
    assert.equal(plan.trimmedLatest, 0, 'the latest message is cut only when nothing else can give');
    assert.equal(textOf(plan.turns[plan.turns.length - 1]), 'short question');
    assert.ok(estimateRequestTokens({ system: 'You help.', messages: sent(plan) }) <= 900);
  });

  it('trims a single huge message that alone exceeds the budget, and says so', () => {
    const huge = `START ${'z'.repeat(200_000)} FINISH`;
    const plan = planCompaction(base([user('u0', huge)], 1433));
    assert.equal(plan.fits, true);
    assert.ok(plan.trimmedLatest > 190_000, `${plan.trimmedLatest}`);
    const text = textOf(plan.turns[0]);
    assert.ok(text.startsWith('START') && text.endsWith('FINISH'));
    assert.match(text, /\[trimmed [\d,]+ chars/);
    assert.ok(plan.tokens <= 1433);
  });

  it("trims the reply's own huge tool result rather than failing", () => {
    const tail: WireMessage[] = [
      { role: 'assistant', parts: [{ kind: 'toolCall', id: 'c1', name: 'read_file', input: { path: 'big.log' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', content: 'L'.repeat(100_000) }] },
    ];
    const plan = planCompaction({ ...base([user('u0', 'read big.log')], 1433), tail });
    assert.equal(plan.fits, true);
    assert.equal(plan.trimmedResults, 1);
    assert.equal(textOf(plan.turns[0]), 'read big.log');
  });

  it('says it does not fit when the system prompt alone is over the budget (never sends knowingly)', () => {
    const plan = planCompaction({ ...base([user('u0', 'hi')], 100), system: 's'.repeat(3000) });
    assert.equal(plan.fits, false);
    assert.ok(plan.tokens > 100);
  });

  it('uses a calibrated ratio: text the gateway counts densely compacts earlier', () => {
    const turns = exchanges(3, 900);
    assert.equal(planCompaction(base(turns, 2000, { allowSummary: false })).trimmedChars, 0);
    assert.ok(planCompaction(base(turns, 2000, { allowSummary: false, tokensPerChar: 1 })).trimmedChars > 0);
  });

  it('does not change the turns it was given', () => {
    const turns = exchanges(5, 3000);
    const copy = JSON.parse(JSON.stringify(turns)) as ContextTurn[];
    planCompaction(base(turns, 500, { allowSummary: false }));
    assert.deepEqual(turns, copy);
  });
});

describe('context window: errors and catalog fields', () => {
  it('recognises context-length errors in their several shapes', () => {
    assert.equal(isContextLengthError({ status: 400, code: 'context_length_exceeded', message: 'x' }), true);
    assert.equal(
      isContextLengthError({ status: 400, message: 'prompt is too long: 2100 tokens > 2048 maximum' }),
      true,
    );
    assert.equal(
      isContextLengthError({ status: 400, message: "This model's maximum context length is 2048 tokens" }),
      true,
    );
    // Anthropic's words when the input fits but input plus max_tokens does not (no code field).
    const anthropic = {
      status: 400,
      type: 'invalid_request_error',
      message:
        'input length and `max_tokens` exceed context limit: 1900 + 4096 > 2048, decrease input length or `max_tokens` and try again',
    };
    assert.equal(isContextLengthError(anthropic), true);
    assert.equal(reportedInputTokens(anthropic), 1900);
    assert.equal(reportedContextLength(anthropic), 2048);
    assert.equal(isContextLengthError({ status: 400, message: 'temperature must be between 0 and 2' }), false);
    assert.equal(isContextLengthError({ status: 500, message: 'context window exploded' }), false);
    assert.equal(isContextLengthError('context_length_exceeded'), false);
  });

  it('reads the input tokens the gateway counted from its message', () => {
    assert.equal(
      reportedInputTokens({
        message: 'However, you requested 2,600 tokens (2,100 in the messages, 500 in the completion).',
      }),
      2100,
    );
    assert.equal(reportedInputTokens({ message: 'prompt is too long: 2100 tokens > 2048 maximum' }), 2100);
    assert.equal(reportedInputTokens({ message: 'too long' }), undefined);
  });

  it('reads a context length from the field names catalogs use, and nothing when none is listed', () => {
    assert.equal(catalogContextLength({ id: 'm', object: 'model', context_length: 2048 }), 2048);
    assert.equal(catalogContextLength({ id: 'm', object: 'model', context_window: '8192' }), 8192);
    assert.equal(catalogContextLength({ id: 'm', object: 'model', top_provider: { context_length: 4096 } }), 4096);
    assert.equal(catalogContextLength({ id: 'm', object: 'model' }), undefined);
    assert.equal(catalogContextLength({ id: 'm', object: 'model', context_length: -1 }), undefined);
  });
});
