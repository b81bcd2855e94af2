import * as assert from 'node:assert/strict';
import { classifyModel } from '../../../../src/core/models/modelCategory';
import type { Model } from '../../../../src/core/types/account';
import { categoryOf, groupCatalog, providerOf } from '../../../../src/core/models/catalogTree';
import { categoryOverrides } from '../../../../src/core/models/categoryOverrides';

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
    assert.deepEqual(
      groups.map((g) => [g.category, g.count]),
      [
        ['chat', 3],
        ['embedding', 2],
        ['rerank', 1],
        ['transcription', 1],
        ['speech', 1],
        ['image', 1],
      ],
    );
    const chat = groups[0]!;
    assert.deepEqual(
      chat.providers.map((p) => [p.provider, p.models.map((m) => m.id)]),
      [
        ['sim-anthropic', ['sim-anthropic/claude-sim-sonnet']],
        ['sim-openai', ['sim-openai/gpt-sim-mini']],
        ['unknown provider', ['mystery-9000']],
      ],
    );
  });

  it('takes the provider from the field, the id, or owned_by', () => {
    assert.equal(providerOf(model('a/b', { provider: 'P' })), 'P');
    assert.equal(providerOf(model('a/b')), 'a');
    assert.equal(providerOf(model('b', { owned_by: 'O' })), 'O');
    assert.equal(providerOf(model('b')), 'unknown provider');
  });

  it('filters by words in id, provider, category or status', () => {
    assert.deepEqual(
      groupCatalog(catalog, 'embedding').flatMap((g) => g.providers.flatMap((p) => p.models.map((m) => m.id))),
      ['sim-openai/text-embedding-sim-small', 'sim-x/thing'],
    );
    assert.deepEqual(
      groupCatalog(catalog, 'OPENAI operational').map((g) => g.count),
      [1],
    );
    assert.deepEqual(groupCatalog(catalog, 'nothing-like-this'), []);
  });
});

describe('model categories of catalogs without type fields', () => {
  it('takes an id without a hint for chat, and only clearly non-chat ids out of it', () => {
    const cases: [string, string][] = [
      ['openai/gpt-4o', 'chat'],
      ['anthropic/claude-3-5-sonnet', 'chat'],
      ['google/gemini-2.5-pro', 'chat'],
      ['openai/o3-mini', 'chat'],
      ['meta/llama-3.1-70b', 'chat'],
      ['sim-openai/o-sim-reasoner', 'chat'],
      ['mystery-9000', 'chat'],
      // Real catalogs: ids that name neither a family nor a purpose.
      ['anthropic/sonnet-4.5', 'chat'],
      ['amazon/nova-pro-v1', 'chat'],
      ['xai/grok-code-fast-1', 'chat'],
      ['moonshot/k2', 'chat'],
      // Words that merely contain a purpose's letters stay chat.
      ['vendor/mattsmodel-7b', 'chat'],
      ['vendor/nasrat-13b', 'chat'],
      ['vendor/imaginative-writer', 'chat'],
      ['vendor/influx-chat', 'chat'],
      ['openai/gpt-image-1', 'image'],
      ['openai/gpt-4o-mini-tts', 'speech'],
      ['openai/gpt-4o-transcribe', 'transcription'],
      ['openai/text-embedding-3-small', 'embedding'],
      ['cohere/rerank-v3.5', 'rerank'],
      ['openai/whisper-1', 'transcription'],
      ['openai/tts-1-hd', 'speech'],
      ['bfl/flux-pro', 'image'],
      ['openai/dall-e-3', 'image'],
      ['google/imagen-4', 'image'],
      ['vendor/stt-fast', 'transcription'],
      ['minimax/speech-02-hd', 'speech'],
      ['stability/sdxl', 'image'],
    ];
    for (const [id, category] of cases) assert.equal(classifyModel({ id }), category, id);
  });

  it('trusts the catalog fields over the id, both ways', () => {
    assert.equal(classifyModel({ id: 'amazon/nova-canvas-v1', type: 'image' }), 'image');
    assert.equal(classifyModel({ id: 'vendor/plain-1', endpoints: ['/v1/embeddings'] }), 'embedding');
    assert.equal(classifyModel({ id: 'vendor/plain-2', supported_endpoints: ['/v1/audio/speech'] }), 'speech');
    assert.equal(classifyModel({ id: 'vendor/plain-3', endpoints: ['/v1/images/generations'] }), 'image');
    // A chat model that also serves embeddings is offered for chat.
    assert.equal(
      classifyModel({ id: 'vendor/plain-4', endpoints: ['/v1/embeddings', '/v1/chat/completions'] }),
      'chat',
    );
    // What a chat model reads is not what it makes.
    assert.equal(classifyModel({ id: 'vendor/plain-5', capabilities: ['image_input', 'vision', 'tools'] }), 'chat');
    assert.equal(classifyModel({ id: 'vendor/plain-6', mode: 'audio_transcription' }), 'transcription');
    assert.equal(classifyModel({ id: 'vendor/whisper-chat', type: 'chat' }), 'chat');
    assert.equal(classifyModel({ id: 'vendor/plain-7', output_modalities: ['embeddings'] }), 'embedding');
  });
});

describe('model category overrides', () => {
  afterEach(() => categoryOverrides.set({}));

  it('moves a model out of chat and into it', () => {
    const sonnet = model('anthropic/sonnet-4.5');
    const embedder = model('vendor/x-embed-1');
    assert.equal(categoryOf(sonnet), 'chat');
    categoryOverrides.set({ 'anthropic/sonnet-4.5': 'embedding', 'vendor/x-embed-1': 'chat' });
    assert.equal(categoryOf(sonnet), 'embedding');
    assert.equal(categoryOf(embedder), 'chat');
    assert.deepEqual(
      groupCatalog([sonnet, embedder]).map((g) => [g.category, g.count]),
      [
        ['chat', 1],
        ['embedding', 1],
      ],
    );
  });

  it('treats an id like __proto__ as just an id', () => {
    categoryOverrides.set({});
    assert.equal(categoryOf(model('__proto__')), 'chat');
    assert.equal(categoryOf(model('constructor')), 'chat');
  });
});
