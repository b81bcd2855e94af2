import * as assert from 'node:assert/strict';
import { chatChunks, json, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-openai/gpt-sim-mini';
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    },
  },
};

/** Joins the stream's deltas back together, the way a client accumulator would. */
function accumulate(chunks: Json[]): {
  content: string;
  reasoning: string;
  calls: { id?: string; name?: string; args: string }[];
  finish?: string;
  usage?: Json;
  toolsExecuted?: Json[];
} {
  const out: ReturnType<typeof accumulate> = { content: '', reasoning: '', calls: [] };
  for (const chunk of chunks) {
    if (chunk.usage) out.usage = chunk.usage;
    if (chunk.tools_executed) out.toolsExecuted = chunk.tools_executed;
    for (const choice of (chunk.choices ?? []) as Json[]) {
      const delta = choice.delta as Json;
      out.content += delta.content ?? '';
      out.reasoning += delta.reasoning_content ?? '';
      for (const call of (delta.tool_calls ?? []) as Json[]) {
        const slot = (out.calls[call.index] ??= { args: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.args += call.function?.arguments ?? '';
      }
      if (choice.finish_reason) out.finish = choice.finish_reason;
    }
  }
  return out;
}

describe('local gateway: chat completions', () => {
  const gw = useGateway();

  it('answers non-streaming with a deterministic simulated markdown reply that echoes the prompt', async () => {
    const request = { model: MODEL, messages: [{ role: 'user', content: 'Explain quicksort briefly' }] };
    const first = await json(await post(gw(), '/chat/completions', request));
    const second = await json(await post(gw(), '/chat/completions', request));
    assert.equal(first.object, 'chat.completion');
    const content = first.choices[0].message.content as string;
    assert.equal(content, second.choices[0].message.content, 'deterministic');
    assert.match(content, /simulation/i);
    assert.match(content, /^## /m, 'a heading');
    assert.match(content, /^- /m, 'a list');
    assert.match(content, /```/, 'a fenced code block');
    assert.match(content, /Explain quicksort briefly/);
    assert.equal(first.choices[0].finish_reason, 'stop');
    assert.equal(first.usage.total_tokens, first.usage.prompt_tokens + first.usage.completion_tokens);
  });

  it('streams SSE chunks ending in [DONE], with a usage chunk when stream_options.include_usage', async () => {
    const res = await post(gw(), '/chat/completions', {
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hello stream' }],
    });
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    assert.ok(text.trimEnd().endsWith('data: [DONE]'));
    const chunks = chatChunks(text);
    assert.ok(chunks.length > 10, 'many chunks');
    const last = chunks[chunks.length - 1] as Json;
    assert.deepEqual(last.choices, []);
    assert.ok(last.usage.completion_tokens > 0);
    const acc = accumulate(chunks);
    assert.equal(acc.finish, 'stop');
    const plain = await json(
      await post(gw(), '/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Hello stream' }] }),
    );
    assert.equal(acc.content, plain.choices[0].message.content, 'the stream carries the same text');
  });

  it('sends no usage chunk without include_usage', async () => {
    const text = await (
      await post(gw(), '/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
    ).text();
    assert.ok(chatChunks(text).every((c) => c.usage === undefined));
  });

  it('streams reasoning_content for the reasoning model and for reasoning_effort', async () => {
    for (const request of [
      { model: 'sim-openai/o-sim-reasoner', messages: [{ role: 'user', content: 'Think' }] },
      { model: MODEL, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Think' }] },
    ]) {
      const acc = accumulate(
        chatChunks(await (await post(gw(), '/chat/completions', { ...request, stream: true })).text()),
      );
      assert.ok(acc.reasoning.length > 20, request.model);
      assert.ok(acc.content.length > 20);
    }
    const none = accumulate(
      chatChunks(
        await (
          await post(gw(), '/chat/completions', {
            model: MODEL,
            stream: true,
            messages: [{ role: 'user', content: 'Think' }],
          })
        ).text(),
      ),
    );
    assert.equal(none.reasoning, '');
  });

  it('calls a mentioned tool with arguments split across several chunks', async () => {
    const text = await (
      await post(gw(), '/chat/completions', {
        model: MODEL,
        stream: true,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Use get_weather for Paris in 3 days' }],
      })
    ).text();
    const chunks = chatChunks(text);
    const fragments = chunks.filter((c) => (c.choices as Json[])[0]?.delta?.tool_calls);
    assert.ok(fragments.length >= 3, 'first fragment plus several argument pieces');
    const first = (fragments[0] as Json).choices[0].delta.tool_calls[0];
    assert.equal(first.type, 'function');
    assert.equal(first.function.name, 'get_weather');
    assert.match(first.id, /^call_/);
    assert.equal(
      (fragments[1] as Json).choices[0].delta.tool_calls[0].id,
      undefined,
      'later fragments carry only arguments',
    );
    const acc = accumulate(chunks);
    assert.equal(acc.finish, 'tool_calls');
    const args = JSON.parse(acc.calls[0]?.args ?? '') as Json;
    assert.equal(args.days, 3);
    assert.equal(typeof args.city, 'string');
  });

  it('follows tool_choice: none never calls, required calls the first tool, auto without a mention answers in text', async () => {
    const ask = async (extra: Json): Promise<Json> =>
      json(
        await post(gw(), '/chat/completions', {
          model: MODEL,
          tools: [weatherTool],
          messages: [{ role: 'user', content: 'Hello' }],
          ...extra,
        }),
      );
    assert.equal((await ask({ tool_choice: 'none' })).choices[0].finish_reason, 'stop');
    assert.equal((await ask({})).choices[0].finish_reason, 'stop');
    const required = await ask({ tool_choice: 'required' });
    assert.equal(required.choices[0].finish_reason, 'tool_calls');
    assert.equal(required.choices[0].message.content, null);
    assert.equal(required.choices[0].message.tool_calls[0].function.name, 'get_weather');
  });

  it('tool-args: calls the tool the message names with exactly the JSON it holds, streamed or whole', async () => {
    const args = { city: 'Paris\n"quoted"', days: 3, nested: { list: [1, 'two'] } };
    const content = `get_weather ${JSON.stringify(args)}`;
    const whole = await json(
      await post(gw(), '/chat/completions', {
        model: `${MODEL}::tool-args`,
        tools: [weatherTool],
        messages: [{ role: 'user', content }],
      }),
    );
    assert.equal(whole.choices[0].message.tool_calls[0].function.name, 'get_weather');
    assert.deepEqual(JSON.parse(whole.choices[0].message.tool_calls[0].function.arguments), args);
    const streamed = accumulate(
      chatChunks(
        await (
          await post(gw(), '/chat/completions', {
            model: `${MODEL}::tool-args`,
            stream: true,
            tools: [weatherTool],
            messages: [{ role: 'user', content }],
          })
        ).text(),
      ),
    );
    assert.deepEqual(JSON.parse(streamed.calls[0]?.args ?? ''), args);
    const messages = await json(
      await post(gw(), '/messages', {
        model: `${MODEL}::tool-args`,
        max_tokens: 200,
        tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
        messages: [{ role: 'user', content }],
      }),
    );
    assert.deepEqual((messages.content as Json[]).find((b) => b.type === 'tool_use')?.input, args);
  });

  it('tool-args: a message that names no given tool, or holds no JSON object, is a 400 naming the fault header', async () => {
    for (const content of ['no_such_tool {}', 'get_weather not json', 'get_weather [1]']) {
      const response = await post(gw(), '/chat/completions', {
        model: `${MODEL}::tool-args`,
        tools: [weatherTool],
        messages: [{ role: 'user', content }],
      });
      assert.equal(response.status, 400, content);
      assert.equal((await json(response)).error.param, 'x-gateway-fault');
    }
  });

  it('answers in text using the result after a role: tool message', async () => {
    const body = await json(
      await post(gw(), '/chat/completions', {
        model: MODEL,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Use get_weather for Paris' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21 degrees' },
        ],
      }),
    );
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.match(body.choices[0].message.content as string, /get_weather.*Sunny, 21 degrees/s);
  });

  it('reports tools_executed for mcp_servers, in the body and in a stream chunk', async () => {
    const request = {
      model: MODEL,
      mcp_servers: ['https://mcp.example.com/sse'],
      messages: [{ role: 'user', content: 'Search the docs' }],
    };
    const body = await json(await post(gw(), '/chat/completions', request));
    const executed = body.tools_executed[0] as Json;
    assert.equal(executed.server, 'https://mcp.example.com/sse');
    assert.equal(typeof executed.name, 'string');
    assert.equal(typeof executed.result, 'string');
    assert.ok(executed.arguments);
    const acc = accumulate(
      chatChunks(await (await post(gw(), '/chat/completions', { ...request, stream: true })).text()),
    );
    assert.equal(acc.toolsExecuted?.[0]?.server, 'https://mcp.example.com/sse');
  });

  it('honours max_tokens as the number of content chunks, with finish_reason length', async () => {
    const chunks = chatChunks(
      await (
        await post(gw(), '/chat/completions', {
          model: MODEL,
          stream: true,
          max_tokens: 4,
          messages: [{ role: 'user', content: 'Hello' }],
        })
      ).text(),
    );
    const contentChunks = chunks.filter((c) => (c.choices as Json[])[0]?.delta?.content);
    assert.equal(contentChunks.length, 4);
    assert.equal(accumulate(chunks).finish, 'length');
  });

  it('streams exactly max_tokens chunks from the bench model (long streams for benchmarks)', async () => {
    const chunks = chatChunks(
      await (
        await post(gw(), '/chat/completions', {
          model: 'sim-bench/stream-bench',
          stream: true,
          max_tokens: 5000,
          messages: [{ role: 'user', content: 'go' }],
        })
      ).text(),
    );
    assert.equal(chunks.filter((c) => (c.choices as Json[])[0]?.delta?.content).length, 5000);
    assert.equal(accumulate(chunks).finish, 'stop');
  });

  it('rejects invalid requests with 400 naming the field', async () => {
    const cases: [Json, string][] = [
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: MODEL }, 'messages'],
      [{ model: MODEL, temperature: 3, messages: [{ role: 'user', content: 'x' }] }, 'temperature'],
      [{ model: MODEL, messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role'],
      [{ model: MODEL, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
      [{ model: 'sim-openai/text-embedding-sim-small', messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: 'nobody/none', messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: MODEL, reasoning_effort: 'extreme', messages: [{ role: 'user', content: 'x' }] }, 'reasoning_effort'],
    ];
    for (const [body, field] of cases) {
      const res = await post(gw(), '/chat/completions', body);
      assert.equal(res.status, 400, field);
      const error = (await json(res)).error as Json;
      assert.equal(error.param, field);
      assert.equal(typeof error.message, 'string');
      assert.equal(error.type, 'invalid_request_error');
    }
    const broken = await fetch(`${gw().apiUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw().apiKey}` },
      body: '{not json',
    });
    assert.equal(broken.status, 400);
  });
});

describe('local gateway: chat with rejectStreamOptions', () => {
  const gw = useGateway({ rejectStreamOptions: true });

  it('answers 400 naming stream_options, and streams without it', async () => {
    const rejected = await post(gw(), '/chat/completions', {
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    assert.equal(rejected.status, 400);
    assert.equal((await json(rejected)).error.param, 'stream_options');
    const ok = await post(gw(), '/chat/completions', {
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /data: \[DONE\]/);
  });
});
