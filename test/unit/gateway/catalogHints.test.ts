import * as assert from 'node:assert/strict';
import { classifyModel } from '../../../src/core/models/modelCategory';
import { modelPricing, pricedCost } from '../../../src/core/models/modelPricing';
import { CATALOG } from '../../gateway/index';
import { get, json, useGateway } from './helpers';

describe('local gateway: catalog entries whose id gives no hint', () => {
  const gw = useGateway();

  it('lists them with what real catalogs list, and the client offers the chat ones for chat', async () => {
    const models = (await json(await get(gw(), '/models'))).data as { id: string; [key: string]: unknown }[];
    const byId = new Map(models.map((m) => [m.id, m]));
    const sonnet = byId.get('sim-anthropic/sonnet-sim-4.5');
    const nova = byId.get('sim-amazon/nova-sim-pro-v1');
    const canvas = byId.get('sim-amazon/nova-sim-canvas-v1');
    assert.ok(sonnet && nova && canvas, 'all three are listed');
    assert.deepEqual(
      Object.keys(sonnet).sort(),
      ['created', 'created_at', 'id', 'object', 'owned_by', 'provider', 'provider_info'],
      "only the spec's fields",
    );
    assert.equal(nova.type, undefined, 'priced, but no type');
    assert.deepEqual(nova.pricing, { input: 0.8, output: 3.2 });
    assert.equal(canvas.type, 'image', 'the purpose is in the fields only');
    assert.equal(classifyModel(sonnet), 'chat');
    assert.equal(classifyModel(nova), 'chat');
    assert.equal(classifyModel(canvas), 'image');
    assert.equal(classifyModel({ id: canvas.id }), 'chat', 'the id alone would not tell');
    assert.equal(modelPricing(sonnet), undefined, 'no pricing listed');
    const priced = modelPricing(nova);
    assert.ok(priced);
    assert.equal(pricedCost(priced, { promptTokens: 1_000_000, completionTokens: 1_000_000 }), 4, 'per million tokens');
    // Every entry lands in the category the gateway serves it for (a 400 model_not_supported otherwise).
    for (const model of CATALOG)
      assert.equal(classifyModel(byId.get(model.id) ?? { id: '' }), model.category, model.id);
  });
});
