// The spec's 429 is "usage limit or plan limit reached". A real gateway may say so only in words
// (no code, no type, no Retry-After): that is a limit, never retried. A 429 that says rate limit,
// or carries Retry-After, is transient and still retried. The local gateway's request records
// count the attempts.
import * as assert from 'node:assert/strict';
import { FAULT_HEADER, startGateway, type LocalGateway } from '../../gateway/index';
import { GatewayClient } from '../../../src/core/transport/client';
import { isOutOfCredits } from '../../../src/core/transport/retry';
import { RateLimitError } from '../../../src/core/errors';

const CHAT = 'sim-openai/gpt-sim-mini';
const MESSAGES = 'sim-anthropic/claude-sim-sonnet';

describe('core: 429s that say what they are in words', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;

  before(async () => {
    gateway = await startGateway();
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  });
  after(async () => {
    await gateway.stop();
  });

  const attempts = (spec: string): number =>
    gateway.requests.filter(
      (r) =>
        r.fault === spec ||
        r.headers[FAULT_HEADER] === spec ||
        (typeof r.body === 'object' &&
          r.body !== null &&
          String((r.body as { model?: unknown }).model).endsWith(`::${spec}`)),
    ).length;

  for (const variant of ['limit-words', 'limit-words=nested', 'limit-words=text']) {
    it(`${variant}: out of credits, not retried, the server's words kept`, async () => {
      const error = await client.chat
        .create({ model: `${CHAT}::${variant}`, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(error instanceof RateLimitError, String(error));
      assert.equal(error.status, 429);
      assert.equal(error.quotaExhausted, true);
      assert.match(error.message, variant === 'limit-words=text' ? /^HTTP 429$/ : /Usage limit reached/);
      assert.equal(attempts(variant), 1, 'one request: a limit is never retried');
    });
  }

  it('limit-words on /messages and on a stream: not retried either', async () => {
    const spec = 'limit-words;times=5';
    const stream = client.messages.stream({
      model: `${MESSAGES}::${spec}`,
      max_tokens: 500,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await assert.rejects(
      (async () => {
        for await (const _ of stream);
      })(),
      (e: unknown) => e instanceof RateLimitError && e.quotaExhausted,
    );
    assert.equal(attempts(spec), 1);
  });

  it('rate-words (no Retry-After) is a rate limit: retried, and the retry gets through', async () => {
    const spec = 'rate-words;times=1';
    const answer = await client.chat.create({ model: `${CHAT}::${spec}`, messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(answer.choices.length > 0);
    assert.equal(attempts(spec), 2, 'the first attempt was refused, the retry answered');
    const always = 'rate-words';
    await assert.rejects(
      client.chat.create({ model: `${CHAT}::${always}`, messages: [{ role: 'user', content: 'hi' }] }),
      (e: unknown) => e instanceof RateLimitError && !e.quotaExhausted && e.message === 'Rate limit exceeded',
    );
    assert.equal(attempts(always), 3, 'the first try and two retries');
  });

  it('a limit in words that carries Retry-After is treated as transient and retried', async () => {
    const spec = 'limit-words;retry-after=0;times=1';
    await client.chat.create({ model: `${CHAT}::${spec}`, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(attempts(spec), 2);
  });

  it('reads the words: limits against rate limits', () => {
    const limits = [
      'Usage limit reached for this billing period',
      'Plan limit reached',
      'You are out of credits',
      'Spend limit exceeded for this 5-hour window',
      'Insufficient funds',
      'Monthly quota exceeded',
      'usage_limit_reached',
    ];
    for (const message of limits) assert.equal(isOutOfCredits(undefined, undefined, message), true, message);
    const rates = [
      'Rate limit exceeded',
      'Too many requests',
      'Usage limit reached: too many requests per minute',
      'Please slow down',
      'Overloaded',
      'HTTP 429',
    ];
    for (const message of rates) assert.equal(isOutOfCredits(undefined, undefined, message), false, message);
    assert.equal(
      isOutOfCredits(undefined, 'rate_limit_error', 'Usage limit reached'),
      true,
      'the words decide over a generic Anthropic type',
    );
    assert.equal(
      isOutOfCredits(undefined, undefined, 'Usage limit reached', true),
      false,
      'Retry-After makes it transient',
    );
    assert.equal(
      isOutOfCredits('insufficient_quota', undefined, 'Rate limit exceeded', true),
      true,
      'an explicit code still decides',
    );
  });
});
