import * as assert from 'node:assert/strict';
import { json, post, useGateway, type Json } from './helpers';

const SMALL = 'sim-openai/text-embedding-sim-small';

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + v * (b[i] ?? 0), 0);
}

describe('local gateway: embeddings and rerank', () => {
  const gw = useGateway();

  it('embeds a string and an array into L2-normalised vectors in which texts sharing words are closer', async () => {
    const single = await json(await post(gw(), '/embeddings', { model: SMALL, input: 'the cat sat on the mat' }));
    assert.equal(single.object, 'list');
    assert.equal(single.data.length, 1);
    assert.equal(single.data[0].embedding.length, 1536);
    const batch = await json(
      await post(gw(), '/embeddings', {
        model: SMALL,
        input: ['the cat sat on the mat', 'a cat sat on a mat', 'quarterly revenue grew in europe'],
      }),
    );
    const [a, b, c] = (batch.data as Json[]).map((d) => d.embedding as number[]) as [number[], number[], number[]];
    assert.ok(Math.abs(cosine(a, a) - 1) < 1e-5, 'unit length');
    assert.deepEqual(a, single.data[0].embedding, 'deterministic');
    assert.ok(cosine(a, b) > cosine(a, c) + 0.2, `similar ${cosine(a, b)} vs unrelated ${cosine(a, c)}`);
    assert.deepEqual(
      (batch.data as Json[]).map((d) => d.index),
      [0, 1, 2],
    );
    assert.ok(batch.usage.prompt_tokens > 0);
  });

  it('honours dimensions on the small/large pair and refuses it elsewhere', async () => {
    const small = await json(await post(gw(), '/embeddings', { model: SMALL, input: 'hello', dimensions: 64 }));
    assert.equal(small.data[0].embedding.length, 64);
    const large = await json(
      await post(gw(), '/embeddings', {
        model: 'sim-openai/text-embedding-sim-large',
        input: 'hello',
        dimensions: 256,
      }),
    );
    assert.equal(large.data[0].embedding.length, 256);
    const other = await post(gw(), '/embeddings', {
      model: 'sim-cohere/embed-sim-english',
      input: 'hello',
      dimensions: 64,
    });
    assert.equal(other.status, 400);
    assert.equal((await json(other)).error.param, 'dimensions');
  });

  it('encodes base64 as little-endian float32 that decodes to the float vector', async () => {
    const floats = await json(await post(gw(), '/embeddings', { model: SMALL, input: 'decode me', dimensions: 32 }));
    const encoded = await json(
      await post(gw(), '/embeddings', { model: SMALL, input: 'decode me', dimensions: 32, encoding_format: 'base64' }),
    );
    const bytes = Buffer.from(encoded.data[0].embedding as string, 'base64');
    assert.equal(bytes.length, 32 * 4);
    const decoded = Array.from({ length: 32 }, (_, i) => bytes.readFloatLE(i * 4));
    const expected = floats.data[0].embedding as number[];
    decoded.forEach((v, i) => assert.ok(Math.abs(v - (expected[i] ?? NaN)) < 1e-6, `index ${i}`));
  });

  it('rejects bad embedding input naming the field', async () => {
    for (const [body, field] of [
      [{ model: SMALL }, 'input'],
      [{ model: SMALL, input: [1] }, 'input[0]'],
      [{ model: SMALL, input: 'x', encoding_format: 'hex' }, 'encoding_format'],
    ] as const) {
      const res = await post(gw(), '/embeddings', body);
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error.param, field);
    }
  });

  it('reranks by a lexical score, sorted descending, with top_n and document text', async () => {
    const documents = [
      'Paris is the capital of France',
      'Bananas are yellow',
      'The capital city of Germany is Berlin',
      'France exports wine and cheese',
    ];
    const body = await json(
      await post(gw(), '/rerank', {
        model: 'sim-cohere/rerank-sim-v1',
        query: 'capital of France',
        documents,
        top_n: 3,
      }),
    );
    const results = body.results as Json[];
    assert.equal(results.length, 3);
    assert.equal(results[0]?.index, 0);
    assert.equal(results[0]?.document.text, documents[0]);
    for (let i = 1; i < results.length; i++)
      assert.ok((results[i - 1]?.relevance_score as number) >= (results[i]?.relevance_score as number));
    assert.ok(!results.some((r) => r.index === 1), 'the unrelated document is not in the top 3');
    assert.ok(body.usage.total_tokens > 0);
    assert.equal(typeof body.id, 'string');
  });

  it('rejects a rerank without documents', async () => {
    const res = await post(gw(), '/rerank', { model: 'sim-cohere/rerank-sim-v1', query: 'x' });
    assert.equal(res.status, 400);
    assert.equal((await json(res)).error.param, 'documents');
  });
});
