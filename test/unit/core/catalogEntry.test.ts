import * as assert from 'node:assert/strict';
import { catalogContextLength, catalogMaxOutputTokens } from '../../../src/core/context/contextLength';
import { catalogEntry } from '../../../src/core/parse/catalogEntry';
import { catalogFeatures } from '../../../src/core/models/modelFeatures';
import { classifyModel } from '../../../src/core/models/modelCategory';
import { modelPricing } from '../../../src/core/models/modelPricing';
import type { Model } from '../../../src/core/types/account';
import { CATALOG, modelObject } from '../../gateway/catalog';

/** Everything the extension derives from a catalog entry. */
function derived(model: Model): unknown {
  return {
    category: classifyModel(model),
    features: catalogFeatures(model),
    pricing: modelPricing(model),
    context: catalogContextLength(model),
    output: catalogMaxOutputTokens(model),
    provider: model.provider,
    owner: model.owned_by,
    status: model.provider_info?.status,
    family: model.family,
    version: model.version,
    created: model.created,
  };
}

describe('catalogEntry: a catalog model as the extension keeps it', () => {
  it('drops unknown fields and sub-fields, and values of the wrong type', () => {
    const entry = catalogEntry({
      id: 'p/m',
      object: 'model',
      echoed: 'sim/echo-key/0123456789abcdef',
      description: 'x'.repeat(10_000),
      provider_info: { status: 'operational', token: 'secret', nested: { deep: 1 } },
      pricing: { input: 1, output: '2', note: 'free text', unit: 5 },
      capabilities: { tools: true, comment: 'no', weird: { a: 1 } },
      supported_parameters: ['tools', 7, { x: 1 }],
      context_length: { huge: true },
      supports_tools: 'yes',
    });
    assert.deepEqual(entry, {
      id: 'p/m',
      object: 'model',
      provider_info: { status: 'operational' },
      pricing: { input: 1, output: '2' },
      capabilities: { tools: true },
      supported_parameters: ['tools'],
    });
    assert.equal(catalogEntry({ name: 'named' })?.id, 'named', 'the id falls back to the name, as parseModel reads it');
    assert.equal(catalogEntry(42), undefined);
  });

  it('keeps at most 64 short words a list and 256 characters a string: a catalog cannot fill extension state', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `word${i}`);
    const entry = catalogEntry({
      id: 'p/m',
      family: 'f'.repeat(100_000),
      supported_parameters: ['tools', 'x'.repeat(1_000), ...many],
      capabilities: Object.fromEntries(many.map((word) => [word, true])),
      modalities: { input: 'i'.repeat(1_000), output: many },
    }) as unknown as Record<string, unknown>;
    assert.equal((entry.family as string).length, 256);
    assert.deepEqual(
      (entry.supported_parameters as string[]).slice(0, 2),
      ['tools', 'word0'],
      'a word over 64 characters is dropped',
    );
    assert.equal((entry.supported_parameters as string[]).length, 64);
    assert.equal(Object.keys(entry.capabilities as object).length, 64);
    assert.equal((entry.modalities as { input: string }).input.length, 256);
    assert.equal((entry.modalities as { output: string[] }).output.length, 64);
    assert.ok(JSON.stringify(entry).length < 4_000, `kept ${JSON.stringify(entry).length} characters`);
  });

  it("keeps everything the extension reads: the local gateway's catalog and the shapes of real catalogs derive the same", () => {
    const shapes: Record<string, unknown>[] = [
      ...CATALOG.map(modelObject),
      {
        id: 'openrouter/x',
        object: 'model',
        architecture: {
          modality: 'text+image->text',
          input_modalities: ['text', 'image'],
          output_modalities: ['text'],
        },
        top_provider: { context_length: 200000, max_completion_tokens: 8192 },
        pricing: { prompt: '0.000003', completion: '0.000015' },
        supported_parameters: ['tools', 'reasoning'],
      },
      {
        id: 'litellm/y',
        object: 'model',
        mode: 'embedding',
        input_cost_per_token: 1e-7,
        output_cost_per_token: 0,
        max_input_tokens: 8191,
        supports_vision: false,
        supports_function_calling: true,
      },
      {
        id: 'z',
        object: 'model',
        modalities: { input: ['audio'], output: ['text'] },
        capabilities: ['transcription'],
        endpoints: ['/audio/transcriptions'],
        family: 'zz',
        version: '2025-01-01',
        context_window: '32000',
        max_output_tokens: 1024,
        supports_reasoning: true,
        reasoning: true,
      },
      {
        id: 'w',
        object: 'model',
        type: 'image',
        model_type: 'image',
        task: 'text-to-image',
        category: 'image',
        supported_endpoints: ['images'],
        supports_image_input: true,
        supports_tools: false,
        supports_tool_choice: false,
        max_completion_tokens: 4096,
        pricing: { input: 3, output: 15, unit: 'per_1m_tokens' },
      },
    ];
    for (const shape of shapes) {
      const raw = { ...(shape as Model) };
      const kept = catalogEntry(shape);
      assert.ok(kept, String(shape.id));
      assert.deepEqual(derived(kept), derived(raw), String(shape.id));
    }
  });
});
