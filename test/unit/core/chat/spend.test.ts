// Spend under control: the estimate beside Send, the per-reply cap and the conversation's total,
// as pure arithmetic, and the cap ending a real tool loop against the local gateway.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../../src/core/transport/client';
import type { AssistantTurn, ChatTurn, ReplyCost } from '../../../../src/shared/chatModel';
import type { ToolHost } from '../../../../src/core/answers/toolHost';
import { turnsToWire } from '../../../../src/core/chat/conversationWire';
import { runReply, SPEND_CAP_FINISH } from '../../../../src/core/chat/replyRunner';
import { estimateSendCost } from '../../../../src/core/chat/spend/costEstimate';
import { spendCapPlan, type SpendCapPlan } from '../../../../src/core/chat/spend/spendCap';
import { capCharge } from '../../../../src/core/chat/spend/capCharge';
import { FAULT_HEADER } from '../../../gateway/index';
import { conversationCost } from '../../../../src/core/chat/spend/conversationCost';
import { INDEX_FILE, readIndex, summaryOf } from '../../../../src/core/chat/history/conversationIndex';
import { modelPricing } from '../../../../src/core/models/modelPricing';
import { MAX_SPEND_PER_REPLY_KEY, parseSettings } from '../../../../src/shared/settings';
import { usdText } from '../../../../src/shared/usdText';
import { useGateway } from '../../gateway/helpers';
import { readNls, REPO_ROOT } from '../../manifest';

/** USD per token: $1 and $4 per million. */
const PRICES = { input: 1e-6, output: 4e-6 };

function reply(extra: Partial<AssistantTurn> = {}): AssistantTurn {
  return {
    role: 'assistant',
    id: 'a1',
    model: 'm',
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'done',
    wire: [],
    createdAt: 0,
    ...extra,
  };
}

describe('estimate beside Send', () => {
  const base = { contextTokens: 10_000, draftChars: 300, hasAttachments: false, pricing: PRICES, threshold: 0 };

  it('prices the input in full and the output from nothing to its bound', () => {
    // 10,000 + 4 (message overhead) + 100 (300 chars at 3 per token) input tokens.
    assert.deepEqual(estimateSendCost({ ...base, maxOutputTokens: 1000 }), {
      kind: 'range',
      low: 0.010104,
      high: 0.014104,
    });
  });

  it('shows nothing under the threshold, and the range once its upper bound reaches it', () => {
    assert.equal(estimateSendCost({ ...base, maxOutputTokens: 1000, threshold: 0.05 }), undefined);
    assert.equal(estimateSendCost({ ...base, maxOutputTokens: 10_000, threshold: 0.05 })?.kind, 'range');
  });

  it('says the output is not bounded, with the input only, when nothing bounds it', () => {
    assert.deepEqual(estimateSendCost({ ...base, maxOutputTokens: undefined }), { kind: 'unbounded', low: 0.010104 });
    // Without a bound the input alone has to reach the threshold: no guess at the answer's length.
    assert.equal(estimateSendCost({ ...base, maxOutputTokens: undefined, threshold: 0.05 }), undefined);
  });

  it('says "unknown" without prices, and nothing with nothing to send', () => {
    assert.deepEqual(estimateSendCost({ ...base, pricing: undefined, maxOutputTokens: 1000, threshold: 99 }), {
      kind: 'unknown',
    });
    assert.equal(estimateSendCost({ ...base, draftChars: 0, maxOutputTokens: 1000 }), undefined);
    assert.equal(
      estimateSendCost({ ...base, draftChars: 0, hasAttachments: true, maxOutputTokens: 1000 })?.kind,
      'range',
      'attachments alone are something to send',
    );
  });
});

describe('per-reply spend cap', () => {
  it('is no cap at 0, unenforceable without prices, and passes only above the cap', () => {
    assert.equal(spendCapPlan(0, PRICES).kind, 'none');
    assert.deepEqual(spendCapPlan(0.5, undefined), { kind: 'unenforceable', cap: 0.5 });
    const plan = spendCapPlan(0.01, PRICES);
    assert.equal(plan.kind, 'enforced');
    if (plan.kind !== 'enforced') return;
    assert.equal(plan.check(undefined), undefined, 'no usage reported: nothing to compare');
    assert.equal(plan.check({ promptTokens: 6000, completionTokens: 1000 }), undefined, 'exactly the cap keeps it');
    assert.deepEqual(plan.check({ promptTokens: 6001, completionTokens: 1000 }), { spent: 0.010001, cap: 0.01 });
  });

  it("says what it does not count, in the setting's description and the guide (a cap is trusted to mean what it says)", () => {
    const guide = readFileSync(join(REPO_ROOT, 'docs', 'models-and-credits.md'), 'utf8');
    const section = guide.slice(
      guide.indexOf('## Spend under control'),
      guide.indexOf('\n## ', guide.indexOf('## Spend under control') + 1),
    );
    const description = readNls()['setting.chat.maxSpendPerReply.description'] ?? '';
    for (const [where, text] of [
      ['docs/models-and-credits.md "Spend under control"', section],
      ['the setting description', description],
    ] as const) {
      for (const uncounted of [
        /search_codebase/,
        /deep_research/,
        /web\s+search/,
        /first\s+request\s+is\s+always\s+sent/,
      ])
        assert.match(text, uncounted, `${where} says ${String(uncounted)} is not counted`);
    }
  });

  it('is read from settings as a non-negative number; bad values mean no cap', () => {
    const cap = (value: unknown): number =>
      parseSettings((key) => (key === MAX_SPEND_PER_REPLY_KEY ? value : undefined)).chat.maxSpendPerReply;
    assert.equal(cap(0.25), 0.25);
    assert.equal(cap(undefined), 0);
    assert.equal(cap(-1), 0);
    assert.equal(cap('0.25'), 0);
    assert.equal(cap(Number.NaN), 0);
    const threshold = (value: unknown): number =>
      parseSettings((key) => (key === 'chat.costEstimateThreshold' ? value : undefined)).chat.costEstimateThreshold;
    assert.equal(threshold(undefined), 0.05);
    assert.equal(threshold(-3), 0);
    assert.equal(threshold({}), 0.05);
  });
});

describe("a conversation's total cost", () => {
  const user: ChatTurn = { role: 'user', id: 'u1', text: 'hi', attachments: [], createdAt: 0 };
  const cost = (credits: number, extra: Partial<ReplyCost> = {}): ReplyCost => ({
    credits,
    estimate: false,
    source: 'pricing',
    ...extra,
  });

  it('adds the replies up, exactly when every reply told its cost', () => {
    const total = conversationCost([
      user,
      reply({ content: 'a', cost: cost(0.1) }),
      user,
      reply({ content: 'b', cost: cost(0.2) }),
    ]);
    assert.deepEqual(total, { credits: 0.3, approximate: false, unknownReplies: 0 });
  });

  it('is "at least" with a reply that received something but told no cost, "≈" with an overlapped balance', () => {
    const total = conversationCost([
      reply({ content: 'a', cost: cost(0.1, { source: 'balance', estimate: true }) }),
      reply({ content: 'b' }),
      // A failure before anything arrived costs nothing to count.
      reply({ status: 'error' }),
      // Not a cost yet: never counted as one.
      reply({ content: 'c', cost: cost(0, { state: 'pending' }) }),
    ]);
    assert.deepEqual(total, { credits: 0.1, approximate: true, unknownReplies: 2 });
  });

  it('is nothing without replies', () => {
    assert.equal(conversationCost([user]), undefined);
  });

  it('is kept in the index, and an index written before it (or with a bad one) still loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spend-index-'));
    try {
      const row = { id: 'c1', title: 't', model: 'm', updatedAt: 1, turnCount: 2, mtimeMs: 1, size: 10 };
      await writeFile(
        join(dir, INDEX_FILE),
        JSON.stringify({
          version: 1,
          conversations: [
            { ...row, cost: { credits: 0.5, approximate: false, unknownReplies: 1 } },
            { ...row, id: 'c2' },
            { ...row, id: 'c3', cost: { credits: -1, approximate: false, unknownReplies: 0 } },
          ],
        }),
      );
      const problems: string[] = [];
      const entries = await readIndex(dir, (message) => problems.push(message));
      assert.deepEqual(problems, []);
      assert.deepEqual(summaryOf(entries.get('c1')!).cost, { credits: 0.5, approximate: false, unknownReplies: 1 });
      assert.equal(entries.get('c2')?.cost, undefined);
      assert.equal(entries.get('c3')?.cost, undefined, 'a malformed total is dropped, the row kept');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes amounts the same way on both sides', () => {
    assert.equal(usdText(0.01234), '$0.0123');
    assert.equal(usdText(0.00001), '< $0.0001');
    assert.equal(usdText(12.5), '$12.50');
  });
});

describe('what a round counts toward the cap', () => {
  const sent = {
    system: 'Be brief.',
    messages: [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: 'x'.repeat(300) }] }],
    toolChars: 30,
  };
  const received = { parts: [{ kind: 'text' as const, text: 'y'.repeat(90) }], reasoningChars: 0 };

  it("is the gateway's counts when it sent them: nothing estimated", () => {
    assert.deepEqual(capCharge({ promptTokens: 120, completionTokens: 40 }, sent, received), {
      estimatedExtra: { promptTokens: 0, completionTokens: 0 },
      estimated: false,
    });
  });

  it("estimates from the characters when the gateway sent no counts, at the fitter's ratio", () => {
    // System 4 + 3, message 4 + 100, tools 10; output 4 + 30.
    assert.deepEqual(capCharge(undefined, sent, received), {
      estimatedExtra: { promptTokens: 121, completionTokens: 34 },
      estimated: true,
    });
    const denser = capCharge(undefined, { ...sent, tokensPerChar: 1 }, received).estimatedExtra;
    assert.ok(denser.promptTokens > 300 && denser.completionTokens > 90, JSON.stringify(denser));
  });

  it('estimates only the count the gateway left out (a 0 where something was sent or received)', () => {
    assert.deepEqual(capCharge({ promptTokens: 0, completionTokens: 40 }, sent, received).estimatedExtra, {
      promptTokens: 121,
      completionTokens: 0,
    });
    assert.deepEqual(capCharge({ promptTokens: 120, completionTokens: 0 }, sent, received).estimatedExtra, {
      promptTokens: 0,
      completionTokens: 34,
    });
    // Nothing received: a 0 output count is true, not missing.
    assert.equal(
      capCharge({ promptTokens: 120, completionTokens: 0 }, sent, { parts: [], reasoningChars: 0 }).estimated,
      false,
    );
  });

  it('counts reasoning once, whether it streamed beside the parts or as a thinking part', () => {
    const beside = capCharge(undefined, sent, { parts: [], reasoningChars: 300 }).estimatedExtra.completionTokens;
    const asPart = capCharge(undefined, sent, {
      parts: [{ kind: 'thinking', thinking: 'z'.repeat(300), signature: '' }],
      reasoningChars: 300,
    }).estimatedExtra.completionTokens;
    assert.equal(beside, 104);
    assert.equal(asPart, 104);
  });
});

/** A read_file tool that records its runs. */
function readFileTool(ran: string[]): ToolHost {
  return {
    definitions: [
      {
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
    needsApproval: () => false,
    approve: async () => true,
    run: async (call) => {
      ran.push(call.name);
      return { content: 'PAPAYA' };
    },
  };
}

async function pricedPlan(client: GatewayClient, cap: number): Promise<Extract<SpendCapPlan, { kind: 'enforced' }>> {
  const catalog = await client.models.list();
  const pricing = modelPricing(catalog.find((m) => m.id === 'sim-openai/gpt-sim-mini'));
  assert.ok(pricing, 'the sim model lists prices');
  const plan = spendCapPlan(cap, pricing);
  assert.equal(plan.kind, 'enforced');
  return plan;
}

const readRequest = (): ReturnType<typeof turnsToWire> =>
  turnsToWire([{ role: 'user', id: 'u1', text: 'please read_file notes.md', attachments: [], createdAt: 0 }]);

describe('spend cap against the local gateway', () => {
  const gateway = useGateway();

  it('ends the tool loop after the round that passed the cap: its tools are not run, no request follows', async () => {
    const client = new GatewayClient({ baseUrl: gateway().url, apiKey: gateway().apiKey, maxRetries: 0 });
    const plan = await pricedPlan(client, 1e-9);
    const ran: string[] = [];
    const tools = readFileTool(ran);
    const turn = reply({ model: 'sim-openai/gpt-sim-mini', status: 'streaming' });
    gateway().clearRequests();
    await runReply({
      client,
      request: { model: turn.model, api: 'chat' },
      history: readRequest(),
      reply: turn,
      tools,
      spendCheck: plan.check,
      events: { delta: () => undefined, toolStep: () => undefined },
      signal: new AbortController().signal,
    });
    assert.equal(turn.finishReason, SPEND_CAP_FINISH);
    assert.deepEqual(ran, [], 'the tool asked for after the cap passed did not run');
    const chats = gateway().requests.filter((r) => r.path === '/api/v1/chat/completions');
    assert.equal(chats.length, 1, 'no request after the round that passed the cap');
    assert.ok(turn.usage && turn.usage.promptTokens > 0, 'the round kept its usage');
    assert.equal(
      turn.wire[0]?.parts.some((part) => part.kind === 'toolCall'),
      true,
      'the round is kept',
    );
  });
});

describe('spend cap when the gateway sends no token counts', () => {
  // Its own gateway: the client remembers, per address, that stream_options was refused.
  const gateway = useGateway();
  const client = (): GatewayClient =>
    new GatewayClient({
      baseUrl: gateway().url,
      apiKey: gateway().apiKey,
      maxRetries: 0,
      headers: { [FAULT_HEADER]: 'reject-stream-options' },
    });

  it('charges an estimate, so the cap still ends the loop, and says so before the tools would run', async () => {
    const plan = await pricedPlan(client(), 1e-9);
    const ran: string[] = [];
    const told: string[] = [];
    const turn = reply({ model: 'sim-openai/gpt-sim-mini', status: 'streaming' });
    gateway().clearRequests();
    await runReply({
      client: client(),
      request: { model: turn.model, api: 'chat' },
      history: readRequest(),
      reply: turn,
      tools: readFileTool(ran),
      spendCheck: plan.check,
      events: {
        delta: () => undefined,
        toolStep: () => undefined,
        spendEstimated: () => told.push('estimated'),
        spendCapPassed: (passed) => told.push(`passed ${passed.estimated} ${passed.spent > passed.cap}`),
      },
      signal: new AbortController().signal,
    });
    assert.equal(turn.usage, undefined, 'the gateway sent no token counts');
    assert.equal(turn.finishReason, SPEND_CAP_FINISH);
    assert.deepEqual(told, ['estimated', 'passed true true']);
    assert.deepEqual(ran, [], 'the tool asked for after the cap passed did not run');
    const answered = gateway().requests.filter((r) => r.path === '/api/v1/chat/completions' && r.status === 200);
    assert.equal(answered.length, 1, 'no request after the round that passed the cap');
  });

  it('lets a loop under the cap go on, telling the estimate once per reply', async () => {
    const plan = await pricedPlan(client(), 1);
    const ran: string[] = [];
    let told = 0;
    const turn = reply({ model: 'sim-openai/gpt-sim-mini', status: 'streaming' });
    await runReply({
      client: client(),
      request: { model: turn.model, api: 'chat' },
      history: readRequest(),
      reply: turn,
      tools: readFileTool(ran),
      spendCheck: plan.check,
      events: { delta: () => undefined, toolStep: () => undefined, spendEstimated: () => told++ },
      signal: new AbortController().signal,
    });
    assert.deepEqual(ran, ['read_file']);
    assert.notEqual(turn.finishReason, SPEND_CAP_FINISH);
    assert.equal(told, 1);
  });
});
