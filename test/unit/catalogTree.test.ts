import * as assert from 'node:assert/strict';
import { identifyModelCategory, type Model } from '../../src/core/index';
import { describeModel, groupCatalog, providerOf } from '../../src/extension/models/catalogTree';

const model = (id: string, extra: Partial<Model> = {}): Model => ({ id, object: 'model', ...extra });

describe('model catalog grouping', () => {
  const catalog: Model[] = [
    model('sim-openai/gpt-sim-mini', { provider: 'sim-openai', provider_info: { status: 'operational' } }),
    model('sim-anthropic/claude-sim-sonnet'),
    model('sim-openai/text-embedding-sim-small'),
    model('sim-cohere/rerank-sim'),
    model('whisper-sim', { owned_by: 'sim-openai' }),
    model('sim-openai/tts-sim'),
    model('sim-openai/dall-e-sim'),
    model('mystery-9000'),
    model('sim-x/thing', { type: 'embedding' }),
  ];

  it('groups by category in a fixed order, then provider, with counts', () => {
    const groups = groupCatalog(catalog);
    assert.deepEqual(groups.map((g) => [g.category, g.count]), [['chat', 2], ['embedding', 2], ['rerank', 1], ['transcription', 1], ['speech', 1], ['image', 1], ['other', 1]]);
    const chat = groups[0]!;
    assert.deepEqual(chat.providers.map((p) => [p.provider, p.models.map((m) => m.id)]), [['sim-anthropic', ['sim-anthropic/claude-sim-sonnet']], ['sim-openai', ['sim-openai/gpt-sim-mini']]]);
  });

  it('takes the provider from the field, the id, or owned_by', () => {
    assert.equal(providerOf(model('a/b', { provider: 'P' })), 'P');
    assert.equal(providerOf(model('a/b')), 'a');
    assert.equal(providerOf(model('b', { owned_by: 'O' })), 'O');
    assert.equal(providerOf(model('b')), 'unknown provider');
  });

  it('filters by words in id, provider, category or status', () => {
    assert.deepEqual(groupCatalog(catalog, 'embedding').flatMap((g) => g.providers.flatMap((p) => p.models.map((m) => m.id))), ['sim-openai/text-embedding-sim-small', 'sim-x/thing']);
    assert.deepEqual(groupCatalog(catalog, 'OPENAI operational').map((g) => g.count), [1]);
    assert.deepEqual(groupCatalog(catalog, 'nothing-like-this'), []);
  });

  it('describes a model with its status and every extra field, escaped', () => {
    const lines = describeModel(model('sim-openai/gpt-sim-mini', { provider: 'sim-openai', provider_info: { status: 'degraded' }, context_length: 128000, pricing: { input: 0.15 }, note: 'a|b <script>' })).join('\n');
    assert.match(lines, /\| Provider status \| degraded \|/);
    assert.match(lines, /\| context\\_length \| 128000 \|/);
    assert.match(lines, /\| pricing \| \{"input":0\.15\} \|/);
    assert.match(lines, /a\\\|b \\<script\\>/);
  });
});

describe('model categories of catalogs without type fields', () => {
  it('knows the common chat families, after the specific purposes', () => {
    const cases: [string, string | undefined][] = [
      ['openai/gpt-4o', 'chat'], ['anthropic/claude-3-5-sonnet', 'chat'], ['google/gemini-2.5-pro', 'chat'], ['openai/o3-mini', 'chat'],
      ['meta/llama-3.1-70b', 'chat'], ['sim-openai/o-sim-reasoner', 'chat'],
      ['openai/gpt-image-1', 'image'], ['openai/gpt-4o-mini-tts', 'speech'], ['openai/gpt-4o-transcribe', 'transcription'],
      ['openai/text-embedding-3-small', 'embedding'], ['cohere/rerank-v3.5', 'rerank'], ['mystery-9000', undefined],
    ];
    for (const [id, category] of cases) assert.equal(identifyModelCategory(id), category, id);
  });
});
