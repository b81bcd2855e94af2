// The catalog -> VS Code model information mapping: limits and features from the catalog's
// fields when present, defaults when missing, and hostile values (negative, huge, strings, wrong
// types) treated as "not listed" instead of reaching VS Code's budgets.
import * as assert from 'node:assert/strict';
import {
  catalogContextLength,
  catalogMaxOutputTokens,
  catalogTokens,
  MAX_CATALOG_TOKENS,
} from '../../../../src/core/context/contextLength';
import { catalogFeatures } from '../../../../src/core/models/modelFeatures';
import { contextBudget } from '../../../../src/core/context/contextBudget';
import { estimateTextTokens, MESSAGE_OVERHEAD_TOKENS } from '../../../../src/core/context/tokenEstimate';
import type { Model } from '../../../../src/core/types/account';
import {
  answerRoomOf,
  chatModelInformation,
  DEFAULT_CONTEXT_LENGTH,
  DEFAULT_MAX_OUTPUT_TOKENS,
  estimateTokens,
  modelInformation,
} from '../../../../src/core/languageModels/modelInformation';

const model = (fields: Record<string, unknown>): Model => ({
  id: 'sim-openai/gpt-sim-mini',
  object: 'model',
  ...fields,
});

describe('catalog limits (core contextLength.ts)', () => {
  it('reads numbers and numeric strings, and nothing else', () => {
    assert.equal(catalogTokens(2048), 2048);
    assert.equal(catalogTokens('8192'), 8192);
    assert.equal(catalogTokens(' 4096 '), 4096);
    assert.equal(catalogTokens(1000.9), 1000);
    for (const hostile of [
      0,
      -1,
      -128000,
      0.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e300,
      MAX_CATALOG_TOKENS + 1,
      '',
      '  ',
      '128k',
      'lots',
      '1e400',
      null,
      true,
      {},
      [128000],
    ]) {
      assert.equal(catalogTokens(hostile), undefined, `${JSON.stringify(hostile)} is not a limit`);
    }
    assert.equal(catalogTokens(MAX_CATALOG_TOKENS), MAX_CATALOG_TOKENS);
  });

  it('reads the output limit from the names catalogs use', () => {
    assert.equal(catalogMaxOutputTokens(model({ max_output_tokens: 4000 })), 4000);
    assert.equal(catalogMaxOutputTokens(model({ max_completion_tokens: '16384' })), 16384);
    assert.equal(catalogMaxOutputTokens(model({ top_provider: { max_completion_tokens: 32000 } })), 32000);
    assert.equal(catalogMaxOutputTokens(model({ top_provider: [1, 2] })), undefined);
    assert.equal(catalogMaxOutputTokens(model({ max_output_tokens: -5 })), undefined);
    assert.equal(
      catalogContextLength(model({ context_length: 1e12 })),
      undefined,
      'a trillion-token window is nonsense',
    );
  });
});

describe('catalog features (core modelFeatures.ts)', () => {
  it('reads capabilities as an object of booleans, a list of words, supports_* flags and supported_parameters', () => {
    assert.deepEqual(catalogFeatures(model({ capabilities: { tools: false, reasoning: true, vision: true } })), {
      toolCalling: false,
      reasoning: true,
      imageInput: true,
    });
    assert.deepEqual(catalogFeatures(model({ capabilities: ['reasoning', 'Function-Calling'] })), {
      toolCalling: true,
      reasoning: true,
    });
    assert.deepEqual(
      catalogFeatures(model({ supports_function_calling: false, supports_reasoning: true, supports_vision: false })),
      { toolCalling: false, reasoning: true, imageInput: false },
    );
    assert.deepEqual(
      catalogFeatures(model({ supported_parameters: ['temperature', 'max_tokens', 'tools', 'tool_choice'] })),
      { toolCalling: true, reasoning: false },
    );
    assert.deepEqual(
      catalogFeatures(model({ supported_parameters: ['temperature', 'include_reasoning', 'reasoning'] })),
      { toolCalling: false, reasoning: true },
    );
    assert.deepEqual(catalogFeatures(model({ architecture: { input_modalities: ['text', 'image'] } })), {
      imageInput: true,
    });
  });

  it('says nothing when the catalog says nothing, and ignores values of the wrong type', () => {
    assert.deepEqual(catalogFeatures(model({})), {});
    assert.deepEqual(catalogFeatures(model({ capabilities: ['chat'] })), {}, 'a list without the word is not a "no"');
    assert.deepEqual(
      catalogFeatures(
        model({ capabilities: { tools: 'yes', reasoning: 1 }, supports_tools: 'true', supported_parameters: 'tools' }),
      ),
      {},
    );
    assert.deepEqual(
      catalogFeatures(model({ capabilities: [42, null, { tools: true }], supported_parameters: [] })),
      {},
    );
  });
});

describe("gateway models in VS Code's picker (modelInformation.ts)", () => {
  it('caps the answer at the room a full prompt leaves (a small model takes no 4,096-token max_tokens)', () => {
    assert.equal(answerRoomOf(model({ context_length: 2048 })), 512, 'a quarter of a small context');
    assert.equal(answerRoomOf(model({ context_length: 200000, max_output_tokens: 64000 })), 50000);
    assert.equal(answerRoomOf(model({ context_length: 64000, max_output_tokens: 4000 })), 4000);
    assert.equal(answerRoomOf(model({})), undefined, 'no context listed: nothing to cap against');
    for (const context of [2048, 8192, 64000]) {
      const m = model({ context_length: context });
      const full = modelInformation(m).maxInputTokens + (answerRoomOf(m) ?? 0);
      assert.ok(full <= context, `a full prompt plus the answer fit ${context}: ${full}`);
    }
  });

  it('lists only chat models, with limits and capabilities from the catalog when given', () => {
    const infos = chatModelInformation([
      model({ context_length: 64000, max_output_tokens: 4000, input_modalities: ['text', 'image'] }),
      { id: 'sim-openai/text-embedding-sim-small', object: 'model' },
      { id: 'plain-llama-3', object: 'model', capabilities: { tools: false } },
    ]);
    assert.deepEqual(
      infos.map((i) => i.id),
      ['sim-openai/gpt-sim-mini', 'plain-llama-3'],
    );
    const mini = infos[0]!;
    // The prompt may fill the window less the answer's room and the estimate's margin: the chat panel's budget.
    assert.equal(mini.maxInputTokens, contextBudget(64000, 4000).input);
    assert.equal(mini.maxInputTokens, 64000 - 4000 - 3200);
    assert.equal(mini.maxOutputTokens, 4000);
    // Image input is advertised exactly when the catalog entry says the model reads images (the
    // request mapping sends them as image parts: requestMessages.test.ts).
    assert.deepEqual(mini.capabilities, { toolCalling: true, imageInput: true });
    assert.equal(
      modelInformation({ id: 'x/vision', object: 'model', capabilities: { vision: true, image_input: true } })
        .capabilities.imageInput,
      true,
    );
    assert.equal(modelInformation({ id: 'x/plain', object: 'model' }).capabilities.imageInput, false);
    assert.equal(
      modelInformation({ id: 'x/text', object: 'model', supports_vision: false, input_modalities: ['image'] })
        .capabilities.imageInput,
      false,
      'a flag that says no wins over a modality list',
    );
    assert.equal(infos[1]!.capabilities.toolCalling, false);
    assert.equal(mini.name, 'gpt-sim-mini');
    assert.match(mini.tooltip, /64K token context, 4K output/);
  });

  it('marks tool calling and reasoning per model from the catalog', () => {
    // The local gateway's reasoner lists `capabilities: ['reasoning']`.
    const reasoner = modelInformation({
      id: 'sim-openai/o-sim-reasoner',
      object: 'model',
      provider: 'sim-openai',
      context_length: 200000,
      capabilities: ['reasoning'],
    });
    assert.equal(reasoner.reasoning, true);
    assert.equal(reasoner.capabilities.toolCalling, true, 'a list that only names reasoning does not take tools away');
    assert.equal(reasoner.detail, 'sim-openai · reasoning');
    assert.match(reasoner.tooltip, /reasons before answering/);
    const noTools = modelInformation(model({ provider: 'sim-openai', supported_parameters: ['temperature'] }));
    assert.deepEqual(
      [noTools.capabilities.toolCalling, noTools.reasoning, noTools.detail],
      [false, false, 'sim-openai'],
    );
    assert.match(noTools.tooltip, /no tool calling/);
  });

  it('uses defaults when the catalog lists no limits, and says so', () => {
    const info = modelInformation(model({}));
    assert.equal(info.maxInputTokens, contextBudget(DEFAULT_CONTEXT_LENGTH).input);
    assert.equal(info.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
    assert.match(info.tooltip, /context length not listed/);
  });

  it('keeps hostile values out of the limits: negative, huge, strings, wrong types', () => {
    const cases: Record<string, unknown>[] = [
      { context_length: -1, max_output_tokens: -4000 },
      { context_length: 1e300, max_output_tokens: Number.MAX_VALUE },
      { context_length: 'a lot', max_output_tokens: '∞' },
      { context_length: { value: 1 }, max_output_tokens: [5], top_provider: 'x' },
      { context_length: null, capabilities: 'tools', family: 7, version: {}, created: 1e20 },
    ];
    for (const fields of cases) {
      const info = modelInformation(model(fields));
      assert.equal(info.maxInputTokens, contextBudget(DEFAULT_CONTEXT_LENGTH).input, JSON.stringify(fields));
      assert.equal(info.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS, JSON.stringify(fields));
      assert.ok(Number.isSafeInteger(info.maxInputTokens) && info.maxInputTokens > 0);
      assert.equal(typeof info.family, 'string');
      assert.equal(typeof info.version, 'string');
    }
    // Numeric strings are limits; an output limit past the window is cut to the window.
    const stringy = modelInformation(model({ context_length: '2048', max_output_tokens: '100000' }));
    assert.equal(stringy.maxOutputTokens, 2048);
    assert.equal(stringy.maxInputTokens, contextBudget(2048, 100000).input);
    assert.ok(stringy.maxInputTokens > 0 && stringy.maxInputTokens < 2048);
  });

  it("estimates with core's token estimate (one rule for the chat panel and VS Code), a message with its overhead", () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcdefghi'), estimateTextTokens('abcdefghi'));
    assert.equal(estimateTokens('abcdefghi'), 3);
    assert.equal(estimateTokens('abcdefghi', true), 3 + MESSAGE_OVERHEAD_TOKENS);
  });
});
