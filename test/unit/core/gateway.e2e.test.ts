// The client against the local gateway (test/gateway): every endpoint and the error paths, with
// faults injected per request. The gateway's request records prove what was sent and whether the
// client closed the connection.
import * as assert from 'node:assert/strict';
import { encodeWav } from '../../gateway/wav';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import {
  AuthenticationError,
  GatewayError,
  InvalidRequestError,
  RateLimitError,
  StreamError,
  TimeoutError,
} from '../../../src/core/errors';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { classifyModel } from '../../../src/core/models/modelCategory';
import {
  classifyResearchStatus,
  extractResearchReport,
  extractResearchSources,
  whereStatus,
} from '../../../src/core/research/researchHelpers';
import { GatewayClient } from '../../../src/core/transport/client';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import type { MessageCreateRequest, ThinkingBlock } from '../../../src/core/types/messages';
import type { Transcription } from '../../../src/core/types/media';
import { delay, within } from './testUtil';

const CHAT = 'sim-openai/gpt-sim-mini';
const chatReq = (model = CHAT, content = 'Hello there'): ChatCompletionRequest => ({
  model,
  messages: [{ role: 'user', content }],
});
const fault = (spec: string): { headers: Record<string, string> } => ({ headers: { [FAULT_HEADER]: spec } });

async function drainChat(
  client: GatewayClient,
  req: ChatCompletionRequest,
  opts = {},
): Promise<{ accumulator: ChatStreamAccumulator; error?: unknown }> {
  const accumulator = new ChatStreamAccumulator();
  try {
    for await (const chunk of client.chat.stream(req, opts)) accumulator.add(chunk);
    return { accumulator };
  } catch (error) {
    return { accumulator, error };
  }
}

describe('core client against the local gateway', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;

  before(async () => {
    gateway = await startGateway({
      research: { queuedMs: 150, runningMs: 400 },
      keys: { 'poor-key-0001': { credits: 0 } },
    });
    client = new GatewayClient({ baseUrl: `${gateway.url}/`, apiKey: gateway.apiKey });
  });
  after(async () => {
    await gateway.stop();
  });

  describe('endpoints', () => {
    it('models: lists the catalog; every category is recognised', async () => {
      const models = await client.models.list();
      assert.ok(models.length >= 6);
      assert.ok(models.every((m) => typeof m.id === 'string' && m.id.includes('/')));
      const categories = new Set(models.map((m) => classifyModel(m)));
      assert.deepEqual([...categories].sort(), ['chat', 'embedding', 'image', 'rerank', 'speech', 'transcription']);
    });

    it('quota: credits fall with usage', async () => {
      const before = await client.quota.get();
      assert.equal(typeof before.credits, 'number');
      assert.ok(!Number.isNaN(Date.parse(before.reset)));
      await client.chat.create(chatReq('sim-openai/gpt-sim', 'spend something '.repeat(50)));
      const after = await client.quota.get();
      assert.ok(after.credits < before.credits, `${after.credits} < ${before.credits}`);
    });

    it('chat.create and chat.stream give the same text; the stream carries usage (stream_options sent)', async () => {
      const plain = await client.chat.create(chatReq(CHAT, 'same text please'));
      const { accumulator, error } = await drainChat(client, chatReq(CHAT, 'same text please'));
      assert.equal(error, undefined);
      const snapshot = accumulator.snapshot();
      assert.equal(snapshot.content, plain.choices[0]?.message.content);
      assert.equal(snapshot.finishReason, 'stop');
      assert.ok(snapshot.usage && snapshot.usage.total_tokens > 0);
      const record = gateway.requests.at(-1);
      assert.deepEqual((record?.body as { stream_options?: unknown }).stream_options, { include_usage: true });
    });

    it('chat: tool-call fragments, reasoning and tools_executed arrive whole', async () => {
      const tools = [
        {
          type: 'function' as const,
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ];
      const called = await drainChat(client, { ...chatReq(CHAT, 'What does get_weather say for Berlin?'), tools });
      const snapshot = called.accumulator.snapshot();
      assert.equal(snapshot.finishReason, 'tool_calls');
      assert.equal(snapshot.toolCalls.length, 1);
      assert.equal(snapshot.toolCalls[0]?.name, 'get_weather');
      assert.ok(snapshot.toolCalls[0]?.id);
      assert.equal(typeof (JSON.parse(snapshot.toolCalls[0]?.arguments ?? '') as { city: unknown }).city, 'string');

      const reasoned = (await drainChat(client, chatReq('sim-openai/o-sim-reasoner', 'think'))).accumulator.snapshot();
      assert.ok(reasoned.reasoning.length > 0 && reasoned.content.length > 0);

      const withTools = (
        await drainChat(client, { ...chatReq(CHAT, 'search'), mcp_servers: ['https://mcp.example/sse'] })
      ).accumulator.snapshot();
      assert.equal(withTools.toolsExecuted.length, 1);
    });

    it('messages: create and a thinking stream; the signed thinking block goes back unchanged and is accepted', async () => {
      const req: MessageCreateRequest = {
        model: 'sim-anthropic/claude-sim-sonnet',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'Think about it' }],
      };
      const accumulator = new MessageStreamAccumulator();
      for await (const event of client.messages.stream(req)) accumulator.add(event);
      const message = accumulator.snapshot();
      const thinking = message.content.find((b): b is ThinkingBlock => b.type === 'thinking');
      assert.ok(thinking && thinking.thinking.length > 0);
      assert.equal(thinking.signature, gateway.signThinking(thinking.thinking));
      assert.ok(accumulator.text().length > 0);
      assert.equal(gateway.requests.at(-1)?.headers['anthropic-version'], '2023-06-01');
      const followUp = await client.messages.create({
        ...req,
        messages: [
          ...req.messages,
          { role: 'assistant', content: message.content as ThinkingBlock[] },
          { role: 'user', content: 'And now?' },
        ],
      });
      assert.ok(followUp.content.some((b) => b.type === 'text'));
    });

    it('embeddings: base64 is decoded to the same numbers as float; dimensions honoured', async () => {
      const input = ['the cat sat', 'a cat sat down'];
      const float = await client.embeddings.create({
        model: 'sim-openai/text-embedding-sim-small',
        input,
        dimensions: 64,
      });
      const b64 = await client.embeddings.create({
        model: 'sim-openai/text-embedding-sim-small',
        input,
        dimensions: 64,
        encoding_format: 'base64',
      });
      assert.equal(float.data.length, 2);
      assert.equal(b64.data[0]?.embedding.length, 64);
      for (let i = 0; i < 64; i++)
        assert.ok(Math.abs((float.data[0]?.embedding[i] ?? NaN) - (b64.data[0]?.embedding[i] ?? NaN)) < 1e-6);
    });

    it('rerank: sorted by relevance', async () => {
      const result = await client.rerank.create({
        model: 'sim-cohere/rerank-sim-v1',
        query: 'red apples',
        documents: ['blue sky', 'red apples are sweet', 'apples'],
        top_n: 2,
      });
      assert.equal(result.results.length, 2);
      assert.equal(result.results[0]?.index, 1);
      assert.ok((result.results[0]?.relevance_score ?? 0) >= (result.results[1]?.relevance_score ?? 0));
    });

    it('transcription: multipart with a real WAV; json has the duration, text/srt/vtt are strings', async () => {
      const wav = encodeWav(Buffer.alloc(16000 * 2 * 2), 16000); // 2 s of silence
      const file = { data: new Uint8Array(wav), filename: 'clip.wav', contentType: 'audio/wav' };
      const json = (await client.audio.transcribe({
        model: 'sim-openai/whisper-sim-1',
        file,
        language: 'de',
      })) as Transcription;
      assert.equal(typeof json.text, 'string');
      assert.ok(Math.abs((json.duration ?? 0) - 2) < 0.01, String(json.duration));
      const record = gateway.requests.at(-1);
      assert.deepEqual((record?.body as { file: { filename: string } }).file.filename, 'clip.wav');
      for (const format of ['text', 'srt', 'vtt'] as const) {
        assert.equal(
          typeof (await client.audio.transcribe({ model: 'sim-openai/whisper-sim-1', file, response_format: format })),
          'string',
          format,
        );
      }
    });

    it('speech: binary audio with its content type', async () => {
      const wav = await client.audio.speech({
        model: 'sim-openai/tts-sim-1',
        input: 'Hallo Welt.',
        voice: 'alloy',
        response_format: 'wav',
        speed: 1.5,
      });
      assert.equal(wav.contentType, 'audio/wav');
      assert.equal(Buffer.from(wav.data.subarray(0, 4)).toString('latin1'), 'RIFF');
      const mp3 = await client.audio.speech({ model: 'sim-openai/tts-sim-1', input: 'Hallo.', voice: 'nova' });
      assert.equal(mp3.contentType, 'audio/mpeg');
      assert.ok(mp3.data.byteLength > 100);
    });

    it('images: url and b64_json (real PNG bytes)', async () => {
      const b64 = await client.images.generate({
        model: 'sim-openai/dall-e-sim-3',
        prompt: 'a lighthouse',
        response_format: 'b64_json',
      });
      assert.equal(
        Buffer.from(b64.data[0]?.b64_json ?? '', 'base64')
          .subarray(1, 4)
          .toString('latin1'),
        'PNG',
      );
      const url = await client.images.generate({ model: 'sim-openai/dall-e-sim-3', prompt: 'a lighthouse' });
      assert.match(url.data[0]?.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
    });

    it('research: create, list with where, get until succeeded, report and sources extracted', async () => {
      const created = await client.research.create('How do lighthouses work?');
      assert.equal(created.status, 'queued');
      const list = await client.research.list({
        where: whereStatus('queued', 'running'),
        limit: 5,
        sort: '-createdAt',
      });
      assert.ok(list.docs.some((d) => d.id === created.id));
      assert.ok(list.totalDocs >= 1);
      let job = await client.research.get(created.id);
      for (let i = 0; i < 100 && classifyResearchStatus(job.status) === 'in_progress'; i++) {
        await delay(100);
        job = await client.research.get(created.id);
      }
      assert.equal(job.status, 'succeeded');
      assert.match(extractResearchReport(job) ?? '', /#/);
      assert.ok(extractResearchSources(job).length > 0);
      const done = await client.research.list({ where: { status: { equals: 'succeeded' } } });
      assert.ok(done.docs.every((d) => d.status === 'succeeded'));
      await assert.rejects(
        client.research.get('00000000-0000-4000-8000-000000000000', { maxRetries: 0 }),
        (e: unknown) => e instanceof GatewayError && e.status === 404,
      );
    });
  });

  describe('errors and faults', () => {
    it('both auth headers work; a wrong key is an AuthenticationError', async () => {
      await new GatewayClient({ baseUrl: gateway.apiUrl, apiKey: gateway.apiKey, authHeader: 'x-api-key' }).quota.get();
      assert.equal(gateway.requests.at(-1)?.authHeader, 'x-api-key');
      await new GatewayClient({ baseUrl: gateway.apiUrl, apiKey: async () => gateway.apiKey }).quota.get();
      assert.equal(gateway.requests.at(-1)?.authHeader, 'authorization');
      await assert.rejects(
        new GatewayClient({ baseUrl: gateway.url, apiKey: 'wrong-key-1234' }).models.list(),
        (e: unknown) => e instanceof AuthenticationError && e.status === 401 && !e.message.includes('wrong-key-1234'),
      );
    });

    it('a 503 once is retried; Retry-After is honoured', async () => {
      const before = gateway.requests.length;
      const started = Date.now();
      await client.chat.create(chatReq(`${CHAT}::status=503;retry-after=1;times=1`));
      assert.ok(Date.now() - started >= 900);
      assert.equal(gateway.requests.length - before, 2);
      const again = gateway.requests.length;
      await client.embeddings.create(
        { model: 'sim-openai/text-embedding-sim-small', input: 'x' },
        fault('status=429;retry-after-ms=200;times=2'),
      );
      assert.equal(gateway.requests.length - again, 3);
    });

    it('out of credits (429 insufficient_quota) is never retried; a real empty balance gives the same', async () => {
      const before = gateway.requests.length;
      await assert.rejects(
        client.chat.create(chatReq(`${CHAT}::status=429;code=insufficient_quota`)),
        (e: unknown) => e instanceof RateLimitError && e.quotaExhausted,
      );
      assert.equal(gateway.requests.length - before, 1);
      const poor = new GatewayClient({ baseUrl: gateway.url, apiKey: 'poor-key-0001' });
      await assert.rejects(
        poor.chat.create(chatReq()),
        (e: unknown) => e instanceof RateLimitError && e.quotaExhausted && e.status === 429,
      );
      assert.equal(gateway.requests.length - before, 2);
    });

    it('images and research creation are not retried', async () => {
      const before = gateway.requests.length;
      await assert.rejects(
        client.images.generate({ model: 'sim-openai/dall-e-sim-3::status=503;times=1', prompt: 'x' }),
        (e: unknown) => e instanceof GatewayError && e.status === 503,
      );
      await assert.rejects(client.research.create('topic', fault('status=500;times=1')), GatewayError);
      assert.equal(gateway.requests.length - before, 2);
    });

    it('an error event mid-stream is a StreamError; the text before it is kept', async () => {
      const { accumulator, error } = await drainChat(client, chatReq(`${CHAT}::error-event`));
      assert.ok(error instanceof StreamError && !error.interrupted, String(error));
      assert.equal(error.type, 'server_error');
      assert.ok(accumulator.snapshot().content.length > 0);
      const messages = client.messages.stream({
        model: 'sim-anthropic/claude-sim-sonnet::error-event',
        max_tokens: 500,
        messages: [{ role: 'user', content: 'hi' }],
      });
      await assert.rejects(
        (async () => {
          for await (const _ of messages);
        })(),
        (e: unknown) => e instanceof StreamError && e.type === 'overloaded_error',
      );
    });

    it('a stream cut after some bytes is interrupted (not retried), text kept; cut before any body byte is retried', async () => {
      const before = gateway.requests.length;
      const { accumulator, error } = await drainChat(client, chatReq(`${CHAT}::cut-after=700`));
      assert.ok(error instanceof StreamError && error.interrupted, String(error));
      assert.ok(accumulator.snapshot().content.length > 0);
      assert.equal(gateway.requests.length - before, 1);
      const retried = await drainChat(client, chatReq(`${CHAT}::cut-after=0;times=1`));
      assert.equal(retried.error, undefined);
      assert.equal(retried.accumulator.snapshot().finishReason, 'stop');
      assert.equal(gateway.requests.length - before, 3);
    });

    it('a malformed chunk is skipped and the stream completes', async () => {
      const { accumulator, error } = await drainChat(client, chatReq(`${CHAT}::malformed-chunk`));
      assert.equal(error, undefined);
      assert.equal(accumulator.snapshot().finishReason, 'stop');
    });

    it('falls back without stream_options when the gateway rejects it', async () => {
      const strict = await startGateway({ rejectStreamOptions: true });
      try {
        const c = new GatewayClient({ baseUrl: strict.url, apiKey: strict.apiKey });
        const first = await drainChat(c, chatReq());
        assert.equal(first.error, undefined);
        assert.ok(first.accumulator.snapshot().content.length > 0);
        await drainChat(c, chatReq());
        assert.deepEqual(
          strict.requests.map((r) => r.status),
          [400, 200, 200],
        );
      } finally {
        await strict.stop();
      }
    });

    it('timeoutMs: slow headers give TimeoutError and the gateway sees the connection closed', async () => {
      await assert.rejects(
        client.models.list({
          timeoutMs: 300,
          headers: { [FAULT_HEADER]: 'delay-headers=5000', 'x-test': 'slow-headers' },
        }),
        TimeoutError,
      );
      const record = await gateway.waitForRequest((r) => r.headers['x-test'] === 'slow-headers');
      assert.equal(await within(5000, record.closed, 'the close'), 'aborted');
      const { accumulator, error } = await drainChat(client, chatReq(`${CHAT}::delay-chunks=2000`), { timeoutMs: 400 });
      assert.ok(error instanceof TimeoutError, String(error));
      assert.ok(accumulator.snapshot().content !== undefined);
    });

    it('abort mid-stream: AbortError, and the gateway sees the socket close', async () => {
      const controller = new AbortController();
      let seen = 0;
      const run = (async () => {
        for await (const _ of client.chat.stream(chatReq(`${CHAT}::delay-chunks=50`), {
          signal: controller.signal,
          headers: { 'x-test': 'abort-me' },
        }))
          if (++seen === 2) controller.abort();
      })();
      await within(5000, assert.rejects(run, { name: 'AbortError' }), 'the AbortError');
      const record = await gateway.waitForRequest((r) => r.headers['x-test'] === 'abort-me');
      assert.equal(await within(5000, record.closed, 'the close'), 'aborted');
    });

    it('validation: InvalidRequestError naming the field, nothing sent', async () => {
      const before = gateway.requests.length;
      const cases: [string, () => Promise<unknown>][] = [
        ['temperature', () => client.chat.create({ ...chatReq(), temperature: 2.5 })],
        ['messages', () => client.chat.create({ model: CHAT, messages: [] })],
        ['model', () => client.embeddings.create({ model: '', input: 'x' })],
        [
          'input',
          () => client.audio.speech({ model: 'sim-openai/tts-sim-1', input: 'x'.repeat(4097), voice: 'alloy' }),
        ],
        ['speed', () => client.audio.speech({ model: 'sim-openai/tts-sim-1', input: 'x', voice: 'alloy', speed: 4.5 })],
        ['speed', () => client.audio.speech({ model: 'sim-openai/tts-sim-1', input: 'x', voice: 'alloy', speed: 0.2 })],
        [
          'temperature',
          () =>
            client.audio.transcribe({
              model: 'sim-openai/whisper-sim-1',
              file: { data: new Uint8Array([1]), filename: 'a.wav' },
              temperature: 1.5,
            }),
        ],
        [
          'file.filename',
          () =>
            client.audio.transcribe({
              model: 'sim-openai/whisper-sim-1',
              file: { data: new Uint8Array([1]), filename: 'a.ogg' },
            }),
        ],
        ['limit', () => client.research.list({ limit: 101 })],
        ['limit', () => client.research.list({ limit: 0 })],
        ['topic', () => client.research.create('  ')],
        [
          'max_tokens',
          () =>
            client.messages.create({
              model: 'm',
              messages: [{ role: 'user', content: 'x' }],
            } as unknown as MessageCreateRequest),
        ],
        [
          'thinking.budget_tokens',
          () =>
            client.messages.create({
              model: 'm',
              max_tokens: 1000,
              thinking: { type: 'enabled', budget_tokens: 1024 },
              messages: [{ role: 'user', content: 'x' }],
            }),
        ],
        ['prompt', () => client.images.generate({ model: 'sim-openai/dall-e-sim-3', prompt: '' })],
        ['documents', () => client.rerank.create({ model: 'r', query: 'q', documents: [] })],
        [
          'temperature',
          async () => {
            for await (const _ of client.chat.stream({ ...chatReq(), temperature: -0.1 }));
          },
        ],
      ];
      for (const [field, call] of cases) {
        await assert.rejects(
          call(),
          (e: unknown) => e instanceof InvalidRequestError && e.field === field && e.message.includes(field),
          field,
        );
      }
      assert.equal(gateway.requests.length, before, 'no request was sent');
      await assert.doesNotReject(
        client.audio.speech({
          model: 'sim-openai/tts-sim-1',
          input: 'ä'.repeat(4096),
          voice: 'alloy',
          response_format: 'pcm',
          speed: 4,
        }),
      );
    });
  });
});
