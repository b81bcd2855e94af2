// The client against the local gateway's wire variants (test/gateway/wireVariants.ts): a stream
// request answered with a whole JSON answer, a captive portal's 200 page, chat content as parts
// or null, chunks without choices, usage only in a last chunk. Each variant is compared with the
// normal answer to the same request: the simulation is deterministic, so the text must be equal.
import * as assert from 'node:assert/strict';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { GatewayClient } from '../../../src/core/transport/client';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { StreamError, UnexpectedContentError } from '../../../src/core/errors';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import type { MessageCreateRequest } from '../../../src/core/types/messages';
import { rejectionOf } from './testUtil';

const CHAT = 'sim-openai/gpt-sim-mini';
const CLAUDE = 'sim-anthropic/claude-sim-sonnet';
const PROMPT = 'Tell me about wire variants';
const chatReq = (model: string, content = PROMPT): ChatCompletionRequest => ({
  model,
  messages: [{ role: 'user', content }],
});
const messagesReq = (model: string): MessageCreateRequest => ({
  model,
  max_tokens: 400,
  messages: [{ role: 'user', content: PROMPT }],
});
const WEATHER = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

async function drainChat(
  client: GatewayClient,
  req: ChatCompletionRequest,
): Promise<{ accumulator: ChatStreamAccumulator; chunks: number; error?: unknown }> {
  const accumulator = new ChatStreamAccumulator();
  let chunks = 0;
  try {
    for await (const chunk of client.chat.stream(req)) {
      chunks++;
      accumulator.add(chunk);
    }
    return { accumulator, chunks };
  } catch (error) {
    return { accumulator, chunks, error };
  }
}

async function drainMessages(
  client: GatewayClient,
  req: MessageCreateRequest,
): Promise<{ accumulator: MessageStreamAccumulator; error?: unknown }> {
  const accumulator = new MessageStreamAccumulator();
  try {
    for await (const event of client.messages.stream(req)) accumulator.add(event);
    return { accumulator };
  } catch (error) {
    return { accumulator, error };
  }
}

describe('core client against the gateway wire variants', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;
  let plainText: string;

  before(async () => {
    gateway = await startGateway();
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
    plainText = (await client.chat.create(chatReq(CHAT))).choices[0]?.message.content ?? '';
    assert.ok(plainText.length > 20, 'the normal answer has text');
  });
  after(async () => {
    await gateway.stop();
  });

  describe('a stream request answered with a whole JSON answer (whole-json)', () => {
    it('chat: the completion is the answer, with its usage and finish reason', async () => {
      const { accumulator, error } = await drainChat(client, chatReq(`${CHAT}::whole-json`));
      assert.equal(error, undefined);
      const record = gateway.requests.at(-1);
      assert.equal(record?.fault, 'whole-json');
      assert.equal((record?.body as { stream?: boolean }).stream, true, 'the client asked for a stream');
      const snapshot = accumulator.snapshot();
      assert.equal(snapshot.content, plainText);
      assert.equal(snapshot.finishReason, 'stop');
      assert.ok(snapshot.usage && snapshot.usage.total_tokens > 0, 'usage reported');
    });

    it('chat: tool calls of a whole answer arrive as if streamed', async () => {
      const { accumulator, error } = await drainChat(client, {
        ...chatReq(`${CHAT}::whole-json`, 'What does get_weather say for Berlin?'),
        tools: WEATHER,
      });
      assert.equal(error, undefined);
      const snapshot = accumulator.snapshot();
      assert.equal(snapshot.finishReason, 'tool_calls');
      assert.equal(snapshot.toolCalls[0]?.name, 'get_weather');
      assert.ok(snapshot.toolCalls[0]?.id);
      assert.ok(JSON.parse(snapshot.toolCalls[0]?.arguments ?? '').city, 'arguments parse');
    });

    it('messages: the whole message is the answer, as the events of its stream', async () => {
      const plain = await client.messages.create(messagesReq(CLAUDE));
      const { accumulator, error } = await drainMessages(client, messagesReq(`${CLAUDE}::whole-json`));
      assert.equal(error, undefined);
      const message = accumulator.snapshot();
      assert.ok(accumulator.text().length > 20);
      assert.equal(
        accumulator.text(),
        plain.content.map((block) => (block.type === 'text' ? (block as { text: string }).text : '')).join(''),
      );
      assert.equal(message.stop_reason, 'end_turn');
      assert.ok(message.usage.output_tokens > 0 && message.usage.input_tokens > 0, 'usage reported');
    });

    it('messages: thinking keeps its signature and a tool_use its input', async () => {
      const thinking = await drainMessages(client, {
        ...messagesReq(`${CLAUDE}::whole-json`),
        thinking: { type: 'enabled', budget_tokens: 1024 },
        max_tokens: 2000,
      });
      assert.equal(thinking.error, undefined);
      const block = thinking.accumulator.snapshot().content.find((b) => b.type === 'thinking') as
        { thinking: string; signature: string } | undefined;
      assert.ok(block && block.thinking.length > 0 && block.signature.length > 0, 'a signed thinking block');
      const tool = await drainMessages(client, {
        ...messagesReq(`${CLAUDE}::whole-json`),
        messages: [{ role: 'user', content: 'What does get_weather say for Berlin?' }],
        tools: [
          {
            name: 'get_weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
      });
      assert.equal(tool.error, undefined);
      const use = tool.accumulator.snapshot().content.find((b) => b.type === 'tool_use') as
        { name: string; input: { city?: unknown } } | undefined;
      assert.equal(use?.name, 'get_weather');
      assert.equal(typeof use?.input.city, 'string');
    });
  });

  describe('a 200 that is not an API answer (html-200: a captive portal)', () => {
    function assertPortalError(error: unknown): void {
      assert.ok(error instanceof UnexpectedContentError, String(error));
      assert.equal(error.contentType, 'text/html; charset=utf-8');
      assert.match(error.message, /text\/html/);
      assert.match(error.message, /"Hotel Wi-Fi - Sign in to continue"/, 'the page title names it');
      assert.match(error.message, /check your network\/proxy or the gateway address/);
      assert.doesNotMatch(error.message, /ended before|<script|<title/i);
    }

    it('chat stream, messages stream and a plain request each name what arrived', async () => {
      const chat = await drainChat(client, chatReq(`${CHAT}::html-200`));
      assertPortalError(chat.error);
      assert.equal(chat.chunks, 0);
      const messages = await drainMessages(client, messagesReq(`${CLAUDE}::html-200`));
      assertPortalError(messages.error);
      assertPortalError(await rejectionOf(client.chat.create(chatReq(`${CHAT}::html-200`))));
      assertPortalError(await rejectionOf(client.models.list({ headers: { [FAULT_HEADER]: 'html-200' } })));
    });

    it('never retries it: one request, not a retry budget spent on a portal', async () => {
      const retrying = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 2 });
      gateway.clearRequests();
      assertPortalError((await drainChat(retrying, chatReq(`${CHAT}::html-200`))).error);
      assert.equal(gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').length, 1);
    });
  });

  describe('chat content and chunk shapes', () => {
    it('content as an array of parts: the text parts joined, other parts skipped (stream and whole)', async () => {
      const streamed = await drainChat(client, chatReq(`${CHAT}::content-parts`));
      assert.equal(streamed.error, undefined);
      assert.equal(streamed.accumulator.snapshot().content, plainText);
      const whole = await client.chat.create(chatReq(`${CHAT}::content-parts`));
      assert.equal(whole.choices[0]?.message.content, plainText);
      const wholeAsStream = await drainChat(client, chatReq(`${CHAT}::whole-json;content-parts`));
      assert.equal(wholeAsStream.accumulator.snapshot().content, plainText);
      assert.doesNotMatch(plainText, /not text|example\.invalid/);
    });

    it('content: null on chunks without text loses nothing and breaks nothing, with tool calls too', async () => {
      const streamed = await drainChat(client, chatReq(`${CHAT}::content-null`));
      assert.equal(streamed.error, undefined);
      assert.equal(streamed.accumulator.snapshot().content, plainText);
      const record = gateway.requests.at(-1);
      assert.equal(record?.fault, 'content-null');
      const tools = await drainChat(client, {
        ...chatReq(`${CHAT}::content-null`, 'What does get_weather say for Berlin?'),
        tools: WEATHER,
      });
      assert.equal(tools.error, undefined);
      assert.equal(tools.accumulator.snapshot().toolCalls[0]?.name, 'get_weather');
    });

    it('choices missing or null in some chunks: skipped, text and usage intact', async () => {
      const streamed = await drainChat(client, chatReq(`${CHAT}::no-choices`));
      assert.equal(streamed.error, undefined);
      const snapshot = streamed.accumulator.snapshot();
      assert.equal(snapshot.content, plainText);
      assert.ok(snapshot.usage && snapshot.usage.total_tokens > 0, 'usage from a choices: null chunk');
      const whole = await client.chat.create(chatReq(`${CHAT}::no-choices`));
      assert.deepEqual(whole.choices, [], 'a whole answer with choices: null has no choices, and no crash');
    });

    it('usage only in a last choices: [] chunk, even unasked: still reported', async () => {
      const unasked = { ...chatReq(CHAT), stream_options: { include_usage: false } };
      const without = await drainChat(client, unasked);
      assert.equal(without.accumulator.snapshot().usage, null, 'the normal gateway sends none when not asked');
      const streamed = await drainChat(client, { ...unasked, model: `${CHAT}::usage-last-only` });
      assert.equal(streamed.error, undefined);
      const snapshot = streamed.accumulator.snapshot();
      assert.equal(snapshot.content, plainText);
      assert.ok(snapshot.usage && snapshot.usage.completion_tokens > 0);
    });
  });

  describe('a whole JSON answer that is an error, or cut short', () => {
    it('a cut JSON answer to a stream request is an interruption, not a crash', async () => {
      const { error } = await drainChat(client, chatReq(`${CHAT}::whole-json;malformed-chunk`));
      assert.ok(error instanceof StreamError, String(error));
      assert.equal(error.interrupted, true);
    });
  });
});
