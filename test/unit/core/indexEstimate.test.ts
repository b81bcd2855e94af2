// What the chat says before building the semantic index (search_codebase's approval): files,
// tokens estimated from bytes, and the price only when the catalog lists one for the embedding model.
import * as assert from 'node:assert/strict';
import { estimateIndexBuild, indexOfferText } from '../../../src/core/search/indexEstimate';
import { inputTokenPrice } from '../../../src/core/models/modelPricing';

describe('indexEstimate: the cost of building the semantic index, said before asking', () => {
  it('counts files and about four bytes a token, priced by the input price', () => {
    const estimate = estimateIndexBuild([4_000, 6_000, 0], 0.02 / 1e6);
    assert.deepEqual(estimate, { files: 3, bytes: 10_000, tokens: 2_500, usd: 2_500 * (0.02 / 1e6) });
    assert.equal(indexOfferText(estimate), 'Build the semantic index? 3 files, ≈ 2,500 tokens, ≈ <$0.01.');
  });

  it('says the price is not listed rather than guess, and ignores sizes that are not sizes', () => {
    const estimate = estimateIndexBuild([1, Number.NaN, -5, 4_000_000]);
    assert.equal(estimate.usd, undefined);
    assert.equal(estimate.tokens, 1_000_001);
    assert.equal(
      indexOfferText(estimate),
      'Build the semantic index? 4 files, ≈ 1,000,001 tokens, price not listed by the gateway.',
    );
    assert.equal(indexOfferText(estimateIndexBuild([8], 1)), 'Build the semantic index? 1 file, ≈ 2 tokens, ≈ $2.00.');
  });

  it("reads an embedding model's input price alone (the local gateway lists no output price for it)", () => {
    assert.equal(inputTokenPrice({ pricing: { input: 0.02 } }), 0.02 / 1e6);
    assert.equal(inputTokenPrice({ pricing: { input: '3', unit: 'per_1k_tokens' } }), 0.003);
    assert.equal(inputTokenPrice({ pricing: { prompt: '0.000001' } }), 0.000001);
    assert.equal(inputTokenPrice({ input_cost_per_token: 2e-8 }), 2e-8);
    assert.equal(inputTokenPrice({ pricing: { input: 1, output: 2 } }), 1 / 1e6, 'both prices: the pair');
    assert.equal(inputTokenPrice({ pricing: { input: -1 } }), undefined);
    assert.equal(inputTokenPrice({ pricing: { input: 1, unit: 'per image' } }), undefined);
    assert.equal(inputTokenPrice(undefined), undefined);
  });
});
