// A gateway that echoes the key (the local gateway's `echo-key` fault): whatever path an error takes
// (an HTTP error body, an escaped JSON body, a response header, an error event inside a chat or a
// messages stream), the error the client hands on carries no form of the key, and the text of a
// stream received before its error is kept.
import * as assert from 'node:assert/strict';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { GatewayClient } from '../../../src/core/transport/client';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { secretForms } from '../../../src/core/secrets/redact';
import { FAULT_HEADER, startGateway, type LocalGateway } from '../../gateway/index';

// Slashes and a dash: JSON may escape the first (`\/`), and the gateway spells it all in `\u` escapes.
const KEY = 'sim/echo-key/0123456789abcdef';
const CHAT = 'sim-openai/gpt-sim-mini';
const CLAUDE = 'sim-anthropic/claude-sim-sonnet';

/** Every spelling of the key a reader could recover from text. */
function spellings(key: string): string[] {
  const unicode = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return [...secretForms(key), unicode, key.slice(4)];
}

/** Every string an error exposes (own fields, message, stack, causes), joined. */
function exposedText(error: unknown, depth = 0): string {
  if (typeof error !== 'object' || error === null || depth > 5) return String(error);
  const record = error as Record<string, unknown>;
  const own = Object.getOwnPropertyNames(error).map((name) => {
    const value = record[name];
    if (name === 'cause') return exposedText(value, depth + 1);
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  });
  return [...own, String(record.message), String(record.stack)].join('\n');
}

function assertNoKey(error: unknown, where: string): void {
  assert.ok(error instanceof Error, `${where}: an error`);
  const text = exposedText(error);
  for (const spelling of spellings(KEY))
    assert.ok(!text.includes(spelling), `${where}: the error holds the key as ${JSON.stringify(spelling)}:\n${text}`);
  assert.match(text, /\[redacted\]/, `${where}: the echoed key was replaced, not just missing`);
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('core client: a gateway that echoes the key', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  let client: GatewayClient;
  const fault = (spec: string): { headers: Record<string, string>; maxRetries: number } => ({
    headers: { [FAULT_HEADER]: spec },
    maxRetries: 0,
  });

  before(async () => {
    gateway = await startGateway({ keys: { [KEY]: { credits: 50 } } });
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: KEY, maxRetries: 0 });
  });

  after(() => gateway.stop());

  for (const mode of ['echo-key', 'echo-key=escaped']) {
    it(`a 401 body (${mode})`, async () => {
      const error = await failure(() => client.quota.get(fault(`status=401;${mode}`)));
      assert.equal((error as { name?: string }).name, 'AuthenticationError');
      assertNoKey(error, '401');
    });

    it(`a 500 and a 429 JSON body with the key in message, code and request id (${mode})`, async () => {
      for (const status of [500, 429]) {
        const error = await failure(() => client.models.list(fault(`status=${status};${mode}`)));
        assert.equal((error as { status?: number }).status, status);
        assertNoKey(error, `${status}`);
        assert.match(
          String((error as { body?: string }).body),
          /the key sent was \[redacted\]/,
          'the body is kept, redacted',
        );
      }
    });

    it(`an error event inside a chat stream, the text before it kept (${mode})`, async () => {
      const accumulator = new ChatStreamAccumulator();
      const error = await failure(async () => {
        for await (const chunk of client.chat.stream({
          model: `${CHAT}::error-event;${mode}`,
          messages: [{ role: 'user', content: 'hello' }],
        }))
          accumulator.add(chunk);
      });
      assert.equal((error as { name?: string }).name, 'StreamError');
      assertNoKey(error, 'chat stream');
      assert.ok(accumulator.snapshot().content.length > 0, 'text received before the error stays');
    });

    it(`an error event inside a messages stream (${mode})`, async () => {
      const accumulator = new MessageStreamAccumulator();
      const error = await failure(async () => {
        for await (const event of client.messages.stream({
          model: `${CLAUDE}::error-event;${mode}`,
          max_tokens: 500,
          messages: [{ role: 'user', content: 'hello' }],
        }))
          accumulator.add(event);
      });
      assert.equal((error as { name?: string }).name, 'StreamError');
      assert.equal((error as { type?: string }).type, 'overloaded_error', 'the error type the client acts on survives');
      assertNoKey(error, 'messages stream');
    });
  }

  it('the echo reaches the client unredacted on the wire (the test would prove nothing otherwise)', async () => {
    const response = await fetch(`${gateway.apiUrl}/quota`, {
      headers: { authorization: `Bearer ${KEY}`, [FAULT_HEADER]: 'status=500;echo-key=escaped' },
    });
    assert.equal(response.headers.get('x-request-id'), KEY);
    const body = await response.text();
    assert.ok(
      !body.includes(KEY) && !body.includes(secretForms(KEY)[1] ?? KEY),
      'the raw body spells the key only in escapes',
    );
    assert.ok(JSON.stringify(JSON.parse(body)).includes(KEY), 'parsed, the body holds the key');
  });
});
