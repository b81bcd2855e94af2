import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../../src/core/transport/client';
import type { AssistantTurn, ChatTurn, ToolStep } from '../../../../src/shared/chatModel';
import { describeChatError } from '../../../../src/core/failures/describeError';
import { attachmentLabel, turnsToWire, userTurnText } from '../../../../src/core/chat/conversationWire';
import { DeltaBatcher } from '../../../../src/core/chat/deltaBatcher';
import type { ToolHost } from '../../../../src/core/answers/toolHost';
import { runReply, serverToolStep } from '../../../../src/core/chat/replyRunner';
import { ToolApprovals } from '../../../../src/core/chat/toolApprovals';
import { useGateway } from '../../gateway/helpers';

function newReply(model: string): AssistantTurn {
  return {
    role: 'assistant',
    id: 'a1',
    model,
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 0,
  };
}

function recorder(): {
  deltas: string[];
  reasoning: string[];
  steps: Array<[number, ToolStep]>;
  events: Parameters<typeof runReply>[0]['events'];
} {
  const deltas: string[] = [];
  const reasoning: string[] = [];
  const steps: Array<[number, ToolStep]> = [];
  return {
    deltas,
    reasoning,
    steps,
    events: {
      delta: (content, thought) => {
        if (content) deltas.push(content);
        if (thought) reasoning.push(thought);
      },
      toolStep: (index, step) => steps.push([index, step]),
    },
  };
}

const TOOL: ToolHost['definitions'][number] = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('chat reply runner against the local gateway', () => {
  const gateway = useGateway();
  const client = (): GatewayClient =>
    new GatewayClient({ baseUrl: gateway().url, apiKey: gateway().apiKey, maxRetries: 0 });
  const user = (text: string): ChatTurn => ({ role: 'user', id: 'u1', text, attachments: [], createdAt: 0 });

  it('streams text and reasoning, keeps usage and the wire message, through /chat/completions', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'auto', reasoningEffort: 'low' },
      history: turnsToWire([user('Explain SSE briefly')]),
      reply,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.ok(reply.content.length > 20);
    assert.equal(rec.deltas.join(''), reply.content);
    assert.ok(reply.reasoning.length > 0, 'reasoning streamed');
    assert.equal(rec.reasoning.join(''), reply.reasoning);
    assert.equal(reply.finishReason, 'stop');
    assert.ok(reply.usage && reply.usage.completionTokens > 0);
    assert.deepEqual(reply.wire, [{ role: 'assistant', parts: [{ kind: 'text', text: reply.content }] }]);
    const sent = gateway()
      .requests.filter((r) => r.path === '/api/v1/chat/completions')
      .at(-1)?.body as Record<string, unknown>;
    assert.equal(sent.reasoning_effort, 'low');
  });

  it('runs an approved function tool, sends the result back, and streams the answer that uses it', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    const asked: string[] = [];
    const tools: ToolHost = {
      definitions: [TOOL],
      needsApproval: () => true,
      approve: async (call) => {
        asked.push(call.name);
        return true;
      },
      run: async (call) => ({ content: `contents of ${String(call.input.path)}: PAPAYA` }),
    };
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('please read_file notes.md')]),
      reply,
      tools,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.deepEqual(asked, ['read_file']);
    const statuses = rec.steps.map(([, step]) => (step.kind === 'function' ? step.status : step.kind));
    assert.deepEqual(statuses, ['awaitingApproval', 'running', 'done']);
    assert.match(reply.content, /PAPAYA/, 'the model answered with the tool result');
    assert.equal(reply.wire.length, 3, 'assistant call, tool result, assistant answer');
    assert.equal(reply.wire[1]?.role, 'user');
    assert.equal(reply.wire[1]?.parts[0]?.kind, 'toolResult');
  });

  it('shows the sensitive files a review found on the step, and hands the review to approve and run', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    const seen: string[][] = [];
    const tools: ToolHost = {
      definitions: [TOOL],
      review: async () => ({ sensitivePaths: ['.env'] }),
      needsApproval: (_call, review) => review.sensitivePaths.length > 0,
      approve: async (_call, _signal, review) => (seen.push([...review.sensitivePaths]), true),
      run: async (_call, _signal, review) => (seen.push([...review.sensitivePaths]), { content: 'TOKEN=1' }),
    };
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('please read_file .env')]),
      reply,
      tools,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.deepEqual(seen, [['.env'], ['.env']]);
    assert.deepEqual(
      rec.steps.map(([, step]) => (step.kind === 'function' ? [step.status, step.sensitive] : [])),
      [
        ['awaitingApproval', ['.env']],
        ['running', ['.env']],
        ['done', ['.env']],
      ],
    );
  });

  it("sends a review's refusal back as a tool error without asking or running, and shows the reviewed change on the step", async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    const tools: ToolHost = {
      definitions: [TOOL],
      review: async () => ({ sensitivePaths: [], refusal: 'a.md: The search text was not found.' }),
      needsApproval: () => true,
      approve: async () => assert.fail('must not ask'),
      run: async () => assert.fail('must not run'),
    };
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('read_file a.md')]),
      reply,
      tools,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.deepEqual(
      rec.steps.map(([, step]) => (step.kind === 'function' ? [step.status, step.result] : [])),
      [['failed', 'a.md: The search text was not found.']],
    );
    const sent = reply.wire.flatMap((m) => m.parts).find((p) => p.kind === 'toolResult');
    assert.deepEqual(sent, {
      kind: 'toolResult',
      callId: (reply.toolSteps[0] as { id: string }).id,
      content: 'a.md: The search text was not found.',
      isError: true,
    });
    assert.equal(reply.status, 'streaming', 'the reply went on (the runner leaves the status to its caller)');

    const change = { files: [{ action: 'modify' as const, path: 'a.md' }], diff: '-a\n+b', added: 1, removed: 1 };
    const shown = newReply('sim-openai/gpt-sim-mini');
    const rec2 = recorder();
    const editing: ToolHost = {
      definitions: [TOOL],
      review: async () => ({ sensitivePaths: [], change }),
      needsApproval: () => false,
      approve: async () => true,
      run: async () => ({ content: 'Edited a.md' }),
    };
    await runReply({
      client: client(),
      request: { model: shown.model, api: 'chat' },
      history: turnsToWire([user('read_file a.md')]),
      reply: shown,
      tools: editing,
      events: rec2.events,
      signal: new AbortController().signal,
    });
    assert.deepEqual(
      rec2.steps.map(([, step]) => (step.kind === 'function' ? step.change : undefined)),
      [change, change],
    );
  });

  it('asks every time for a terminal command: "always" is never remembered from it', async () => {
    const approvals = new ToolApprovals();
    const signal = new AbortController().signal;
    const first = approvals.ask('c1', 'call1', 'run_command', signal, [], true);
    assert.equal(approvals.waiting, 1);
    approvals.decide('call1', 'always');
    assert.equal(await first, true);
    assert.equal(approvals.isAllowed('c1', 'run_command'), false, 'not remembered');
    const second = approvals.ask('c1', 'call2', 'run_command', signal, [], true);
    assert.equal(approvals.waiting, 1, 'it asks again');
    approvals.decide('call2', 'deny');
    assert.equal(await second, false);
  });

  it('runs a tool the user already allowed without asking again', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    const tools: ToolHost = {
      definitions: [TOOL],
      needsApproval: () => false,
      approve: async () => assert.fail('must not ask'),
      run: async () => ({ content: 'PAPAYA' }),
    };
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('read_file a.md')]),
      reply,
      tools,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.deepEqual(
      rec.steps.map(([, step]) => (step.kind === 'function' ? step.status : step.kind)),
      ['running', 'done'],
    );
  });

  it('tells the model when the user denied a tool, and shows the step as denied', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    let ran = false;
    const tools: ToolHost = {
      definitions: [TOOL],
      needsApproval: () => true,
      approve: async () => false,
      run: async () => ((ran = true), { content: 'x' }),
    };
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('read_file secrets.txt')]),
      reply,
      tools,
      events: rec.events,
      signal: new AbortController().signal,
    });
    assert.equal(ran, false);
    const last = reply.toolSteps[0];
    assert.equal(last?.kind === 'function' ? last.status : undefined, 'denied');
    assert.match(reply.content, /did not allow/);
  });

  it('shows a step as denied when the reply is stopped while it waits for a decision', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    const stop = new AbortController();
    const tools: ToolHost = {
      definitions: [TOOL],
      needsApproval: () => true,
      run: async () => assert.fail('must not run'),
      approve: (_call, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' })));
          stop.abort();
        }),
    };
    await assert.rejects(
      runReply({
        client: client(),
        request: { model: reply.model, api: 'chat' },
        history: turnsToWire([user('read_file secrets.txt')]),
        reply,
        tools,
        events: rec.events,
        signal: stop.signal,
      }),
      { name: 'AbortError' },
    );
    const step = reply.toolSteps[0];
    assert.equal(step?.kind === 'function' ? step.status : undefined, 'denied');
    assert.equal(
      rec.steps.at(-1)?.[1].kind === 'function' ? (rec.steps.at(-1)?.[1] as { status: string }).status : undefined,
      'denied',
      'the page was told',
    );
  });

  it('round-trips thinking blocks with their signatures through /messages', async () => {
    const reply = newReply('sim-anthropic/claude-sim-sonnet');
    const rec = recorder();
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'auto', thinkingBudget: 1024 },
      history: turnsToWire([user('Think first')]),
      reply,
      events: rec.events,
      signal: new AbortController().signal,
    });
    const thinking = reply.wire[0]?.parts.find((part) => part.kind === 'thinking');
    assert.ok(thinking && thinking.kind === 'thinking' && thinking.signature.length > 0, 'a signed thinking block');
    assert.equal(rec.reasoning.join(''), thinking.thinking);
    // The next turn sends it back; the gateway refuses a tampered signature, so success proves it is intact.
    const next = newReply(reply.model);
    const history = turnsToWire([
      user('Think first'),
      reply,
      { ...(user('And then?') as object), id: 'u2' } as ChatTurn,
    ]);
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'auto', thinkingBudget: 1024 },
      history,
      reply: next,
      events: recorder().events,
      signal: new AbortController().signal,
    });
    assert.ok(next.content.length > 0);
  });

  it('shows the tools the gateway ran through mcp_servers as steps', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini');
    const rec = recorder();
    await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat', mcpServers: ['https://tools.example/mcp'] },
      history: turnsToWire([user('find docs')]),
      reply,
      events: rec.events,
      signal: new AbortController().signal,
    });
    const step = reply.toolSteps[0];
    assert.equal(step?.kind, 'server');
    assert.equal(step?.kind === 'server' ? step.server : undefined, 'https://tools.example/mcp');
  });

  it('keeps the text that arrived when the stream breaks, also on the wire for the next turn', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini::error-event');
    const rec = recorder();
    const error = await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('Tell me a long story')]),
      reply,
      events: rec.events,
      signal: new AbortController().signal,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal((error as Error).name, 'StreamError');
    assert.ok(reply.content.length > 0, 'partial text kept');
    assert.deepEqual(reply.wire, [{ role: 'assistant', parts: [{ kind: 'text', text: reply.content }] }]);
    const info = describeChatError(error, { baseUrl: gateway().url });
    assert.equal(info.kind, 'server');
    assert.ok(info.actions.includes('retry'));
  });

  it('shows a whole JSON answer to a stream request as the reply, on both APIs', async () => {
    for (const model of ['sim-openai/gpt-sim-mini', 'sim-anthropic/claude-sim-sonnet']) {
      const reply = newReply(`${model}::whole-json`);
      const rec = recorder();
      await runReply({
        client: client(),
        request: { model: reply.model, api: 'auto' },
        history: turnsToWire([user('Explain SSE briefly')]),
        reply,
        events: rec.events,
        signal: new AbortController().signal,
      });
      assert.match(reply.content, /Local simulation/, model);
      assert.equal(rec.deltas.join(''), reply.content, 'the page got the text');
      assert.ok(reply.usage && reply.usage.completionTokens > 0, 'usage shown');
    }
  });

  it('names a captive portal page for what it is, with a next step', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini::html-200');
    const error = await runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('Hello')]),
      reply,
      events: recorder().events,
      signal: new AbortController().signal,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const info = describeChatError(error, { baseUrl: gateway().url });
    assert.equal(info.kind, 'unreachable');
    assert.match(info.message, /web page \(text\/html, "Hotel Wi-Fi - Sign in to continue"\)/);
    assert.match(info.message, /check your network\/proxy or the gateway address/);
    assert.doesNotMatch(info.message, /ended before/);
    assert.ok(info.actions.includes('openSettings'));
  });

  it('stops at once on abort, with what arrived kept', async () => {
    const reply = newReply('sim-openai/gpt-sim-mini::delay-chunks=100');
    const rec = recorder();
    const controller = new AbortController();
    const run = runReply({
      client: client(),
      request: { model: reply.model, api: 'chat' },
      history: turnsToWire([user('Slowly')]),
      reply,
      events: { ...rec.events, delta: (c, r) => (rec.events.delta(c, r), controller.abort()) },
      signal: controller.signal,
    });
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal((error as Error).name, 'AbortError');
    assert.ok(reply.content.length > 0);
  });
});

describe('chat errors are specific, with the action that fixes them', () => {
  const ctx = {
    baseUrl: 'http://gw.local',
    reset: '2026-11-23T15:00:00.000Z',
    now: Date.parse('2026-11-23T13:00:00.000Z'),
  };
  it('names each case', () => {
    assert.deepEqual(describeChatError({ name: 'AuthenticationError', message: 'bad key', status: 401 }, ctx).actions, [
      'setApiKey',
      'retry',
    ]);
    const credits = describeChatError({ name: 'RateLimitError', message: 'x', quotaExhausted: true }, ctx);
    assert.equal(credits.kind, 'outOfCredits');
    assert.match(credits.message, /resets at 2026-11-23 15:00 UTC \(in 2 h 0 min\)/);
    assert.match(
      describeChatError({ name: 'RateLimitError', message: 'slow down', retryAfterMs: 3_000 }, ctx).message,
      /try again in 3 s/,
    );
    assert.match(
      describeChatError({ name: 'ConnectionError', message: 'refused' }, ctx).message,
      /^The request to gw\.local failed\. refused\. Open the log/,
    );
    assert.equal(
      describeChatError({ name: 'StreamError', message: 'closed', interrupted: true }, ctx).kind,
      'interrupted',
    );
    assert.equal(describeChatError({ name: 'GatewayError', message: 'boom', status: 503 }, ctx).kind, 'server');
    assert.equal(describeChatError(new Error('odd'), ctx).kind, 'other');
  });
});

describe('conversation to wire messages', () => {
  it('puts attachments before the text in a fence the attached code cannot close', () => {
    const text = userTurnText({
      text: 'Why?',
      attachments: [
        {
          id: 'x',
          kind: 'selection',
          path: 'a.md',
          startLine: 2,
          endLine: 3,
          languageId: 'markdown',
          text: 'has ``` inside',
        },
      ],
    });
    assert.match(text, /^Selection from a\.md:2-3:\n````markdown\nhas ``` inside\n````\n\nWhy\?$/);
    assert.equal(attachmentLabel({ id: 'y', kind: 'file', path: 'b.ts', text: '' }), 'b.ts');
  });

  it('replays replies from their wire messages and drops tool calls left without a result', () => {
    const reply: AssistantTurn = {
      ...newReply('m'),
      content: 'partial',
      status: 'stopped',
      wire: [
        {
          role: 'assistant',
          parts: [
            { kind: 'text', text: 'Let me look.' },
            { kind: 'toolCall', id: 'c1', name: 'read_file', input: {} },
          ],
        },
      ],
    };
    const wire = turnsToWire([{ role: 'user', id: 'u', text: 'hi', attachments: [], createdAt: 0 }, reply]);
    assert.deepEqual(wire, [
      { role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'Let me look.' }] },
    ]);
  });

  it('shows a tools_executed entry of any shape', () => {
    assert.deepEqual(serverToolStep('search'), { kind: 'server', name: 'search' });
    assert.deepEqual(serverToolStep({ name: 'q', arguments: { a: 1 }, result: 'ok', server: 's' }), {
      kind: 'server',
      name: 'q',
      server: 's',
      arguments: '{"a":1}',
      result: 'ok',
    });
  });
});

describe('tool approvals', () => {
  it('waits for a decision; "always" covers later calls of that tool in that conversation only', async () => {
    const approvals = new ToolApprovals();
    const signal = new AbortController().signal;
    const first = approvals.ask('c1', 'call1', 'read_file', signal);
    assert.equal(approvals.waiting, 1);
    assert.equal(approvals.decide('call1', 'always'), true);
    assert.equal(await first, true);
    assert.equal(await approvals.ask('c1', 'call2', 'read_file', signal), true, 'remembered');
    const other = approvals.ask('c2', 'call3', 'read_file', signal);
    approvals.decide('call3', 'deny');
    assert.equal(await other, false, 'another conversation asks again');
    assert.equal(approvals.decide('nope', 'once'), false);
  });

  it('asks every time for a call that reads a sensitive file: "always" neither covers it nor is remembered from it', async () => {
    const approvals = new ToolApprovals();
    const signal = new AbortController().signal;
    const first = approvals.ask('c1', 'call1', 'read_file', signal);
    approvals.decide('call1', 'always');
    assert.equal(await first, true);
    assert.equal(approvals.isAllowed('c1', 'read_file'), true);
    assert.equal(approvals.isAllowed('c1', 'read_file', ['.env']), false, 'the grant does not cover a sensitive file');
    const sensitive = approvals.ask('c1', 'call2', 'read_file', signal, ['.env']);
    assert.equal(approvals.waiting, 1, 'it asks');
    approvals.decide('call2', 'always');
    assert.equal(await sensitive, true, 'an "always" for a sensitive call allows it once');
    const again = approvals.ask('c2', 'call3', 'read_file', signal, ['id_rsa']);
    approvals.decide('call3', 'always');
    await again;
    assert.equal(approvals.isAllowed('c2', 'read_file'), false, 'and is not remembered');
    approvals.forgetGrants();
    assert.equal(approvals.isAllowed('c1', 'read_file'), false, 'grants are forgotten when the folders change');
  });

  it('ends a wait with an AbortError when the reply is stopped', async () => {
    const approvals = new ToolApprovals();
    const controller = new AbortController();
    const waiting = approvals.ask('c1', 'call1', 'list_files', controller.signal);
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.equal(approvals.waiting, 0);
  });
});

describe('delta batcher', () => {
  it('coalesces deltas into one message and flushes on demand', async () => {
    const sent: Array<[string, string]> = [];
    const batcher = new DeltaBatcher((content, reasoning) => sent.push([content, reasoning]));
    batcher.add('a', undefined);
    batcher.add('b', 'r');
    assert.equal(sent.length, 0);
    batcher.flush();
    assert.deepEqual(sent, [['ab', 'r']]);
    batcher.add('c', undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(sent, [
      ['ab', 'r'],
      ['c', ''],
    ]);
  });
});
