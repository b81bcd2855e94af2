// A reply passes each stage once per round: the context is assembled (fit), the answer streamed,
// its usage reported (measured), the tools run, then the next round. A recording fitter and tool
// host write down every stage the runner enters, against the local gateway's tool-calling model.
import * as assert from 'node:assert/strict';
import type { ToolHost } from '../../../../src/core/answers/toolHost';
import { ContextKeeper } from '../../../../src/core/chat/context/contextKeeper';
import { wholeHistory, type ContextFitter } from '../../../../src/core/chat/contextFitter';
import { turnsToWire } from '../../../../src/core/chat/conversationWire';
import { runReply } from '../../../../src/core/chat/replyRunner';
import { GatewayClient } from '../../../../src/core/transport/client';
import type { AssistantTurn, ChatTurn } from '../../../../src/shared/chatModel';
import { useGateway } from '../../gateway/helpers';

const MODEL = 'sim-openai/gpt-sim-mini';
const TOOL: ToolHost['definitions'][number] = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function newReply(): AssistantTurn {
  return {
    role: 'assistant',
    id: 'a1',
    model: MODEL,
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 0,
  };
}

/** Wraps a fitter so every stage the runner enters is written to `walk`. */
function recording(inner: ContextFitter, walk: string[]): ContextFitter {
  return {
    fit: (tail, refusedWith, signal) => {
      walk.push(`fit(${tail.length})`);
      return inner.fit(tail, refusedWith, signal);
    },
    measured: (usage) => {
      walk.push('measured');
      inner.measured(usage);
    },
  };
}

function recordingTools(walk: string[]): ToolHost {
  return {
    definitions: [TOOL],
    needsApproval: () => false,
    approve: async () => true,
    run: async (call) => {
      walk.push(`run(${call.name})`);
      return { content: `contents of ${String(call.input.path)}: PAPAYA` };
    },
  };
}

describe('a reply passes each stage once per round', () => {
  const gateway = useGateway();
  const client = (): GatewayClient =>
    new GatewayClient({ baseUrl: gateway().url, apiKey: gateway().apiKey, maxRetries: 0 });
  const user: ChatTurn = { role: 'user', id: 'u1', text: 'please read_file notes.md', attachments: [], createdAt: 0 };

  /** Runs one reply with a tool round; returns the walk, streamed text marked once per round. */
  async function walkOf(
    fitter: (reply: AssistantTurn) => ContextFitter,
  ): Promise<{ walk: string[]; reply: AssistantTurn }> {
    const walk: string[] = [];
    const reply = newReply();
    let streaming = false;
    await runReply({
      client: client(),
      request: { model: MODEL, api: 'chat' },
      reply,
      tools: recordingTools(walk),
      context: recording(fitter(reply), walk),
      events: {
        delta: () => {
          if (!streaming) walk.push('stream');
          streaming = true;
        },
        toolStep: () => undefined,
        roundEnded: () => {
          streaming = false;
          walk.push('roundEnded');
        },
      },
      signal: new AbortController().signal,
    });
    return { walk: walk.filter((stage, i) => stage !== 'stream' || walk[i - 1] !== 'stream'), reply };
  }

  it('assembles the context once per round, then streams, reports usage, runs the tools and loops', async () => {
    const { walk, reply } = await walkOf(() => wholeHistory(turnsToWire([user])));
    const rounds = reply.wire.filter((message) => message.role === 'assistant').length;
    assert.equal(rounds, 2, 'a tool round, then the answer');
    assert.deepEqual(
      walk.filter((stage) => stage !== 'stream'),
      ['fit(0)', 'measured', 'run(read_file)', 'roundEnded', 'fit(2)', 'measured'],
    );
    assert.match(reply.content, /PAPAYA/);
  });

  it('asks the context keeper once per round, never more, with its planning and measuring in that one pass', async () => {
    const contexts: unknown[] = [];
    const { walk, reply } = await walkOf(
      (answer) =>
        new ContextKeeper({
          client: client(),
          request: { model: MODEL, api: 'chat' },
          system: { conversationPrompt: 'Help.', toolsWithheld: false },
          turns: [user],
          reply: answer,
          contextLength: 128_000,
          toolChars: JSON.stringify([TOOL]).length,
          changed: (context) => contexts.push(context),
        }),
    );
    assert.deepEqual(
      walk.filter((stage) => stage.startsWith('fit') || stage === 'measured'),
      ['fit(0)', 'measured', 'fit(2)', 'measured'],
    );
    assert.ok(reply.context?.usedTokens, 'the keeper measured the rounds');
    assert.match(reply.content, /PAPAYA/);
  });

  it('sends the whole history with each round when no keeper is given', async () => {
    const walk: string[] = [];
    const reply = newReply();
    await runReply({
      client: client(),
      request: { model: MODEL, api: 'chat' },
      history: turnsToWire([user]),
      reply,
      tools: recordingTools(walk),
      events: { delta: () => undefined, toolStep: () => undefined },
      signal: new AbortController().signal,
    });
    const sent = gateway()
      .requests.filter((r) => r.path === '/api/v1/chat/completions')
      .slice(-2)
      .map((r) => (r.body as { messages: unknown[] }).messages.length);
    assert.deepEqual(sent, [1, 3], 'the user message, then it with the call and its result');
    assert.deepEqual(walk, ['run(read_file)']);
  });
});
