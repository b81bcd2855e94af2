import * as assert from 'node:assert/strict';
import { modelPricing, pricedCost } from '../../../../src/core/models/modelPricing';
import { CostMeter, SETTLE_DELAYS_MS, type BalanceReader } from '../../../../src/core/chat/replyCost';

/** Balance readings in order (the last one repeats), and the pauses the meter asked for. */
function fake(readings: (number | undefined)[]): {
  read: BalanceReader;
  reads: () => number;
  waits: number[];
  meter: CostMeter;
} {
  let index = 0;
  const waits: number[] = [];
  const read: BalanceReader = async () => readings[Math.min(index++, readings.length - 1)];
  const meter = new CostMeter({ wait: async (ms) => void waits.push(ms) });
  return { read, reads: () => index, waits, meter };
}

describe('reply cost: pricing arithmetic', () => {
  it('reads the unambiguous pricing shapes, in USD per token', () => {
    assert.deepEqual(
      modelPricing({ pricing: { input: 3, output: 15 } }),
      { input: 3e-6, output: 15e-6 },
      'per million tokens (the local gateway)',
    );
    assert.deepEqual(
      modelPricing({ pricing: { prompt: '0.000003', completion: '0.000015' } }),
      { input: 0.000003, output: 0.000015 },
      'OpenRouter: per token, as strings',
    );
    assert.deepEqual(
      modelPricing({ input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 }),
      { input: 1e-6, output: 2e-6 },
      'LiteLLM',
    );
    assert.deepEqual(modelPricing({ pricing: { input: 0.5, output: 1.5, unit: 'per 1K tokens' } }), {
      input: 0.0005,
      output: 0.0015,
    });
    assert.deepEqual(
      modelPricing({ pricing: { input: 0, output: 0 } }),
      { input: 0, output: 0 },
      'a free model is priced, at zero',
    );
  });

  it('takes no price over a wrong one', () => {
    for (const model of [
      undefined,
      {},
      { pricing: 'cheap' },
      { pricing: { input: 3 } },
      { pricing: { prompt: '0.1' } },
      { pricing: { input: -1, output: 2 } },
      { pricing: { input: 'n/a', output: 1 } },
      { pricing: { input: 1, output: 2, unit: 'per image' } },
      { pricing: { perImage: 0.04 } },
      { pricing: { prompt: '', completion: '' } },
      { pricing: { input: Infinity, output: 1 } },
    ])
      assert.equal(modelPricing(model as Record<string, unknown> | undefined), undefined, JSON.stringify(model));
  });

  it('multiplies usage by the prices without float noise, keeping tiny costs', () => {
    const pricing = modelPricing({ pricing: { input: 0.15, output: 0.6 } })!;
    assert.equal(pricedCost(pricing, { promptTokens: 1000, completionTokens: 500 }), 0.00045);
    assert.equal(pricedCost(pricing, { promptTokens: 3, completionTokens: 0 }), 0.00000045);
    assert.equal(
      pricedCost(modelPricing({ pricing: { input: 0.1, output: 0.2 } })!, {
        promptTokens: 1_000_000,
        completionTokens: 1_000_000,
      }),
      0.3,
    );
  });
});

describe('reply cost: the meter', () => {
  it('prices a reply from the catalog at once, without waiting for the balance', async () => {
    const { read, waits, meter } = fake([25]);
    const cost = await meter
      .start(read)
      .finish({ pricing: { input: 1e-6, output: 2e-6 }, usage: { promptTokens: 100, completionTokens: 50 } });
    assert.deepEqual(cost, { credits: 0.0002, estimate: false, source: 'pricing' });
    assert.deepEqual(waits, []);
  });

  it('takes the balance difference when the gateway charged by the time the reply ended', async () => {
    const { read, waits, meter } = fake([25, 24.9988]);
    let pending = 0;
    const cost = await meter
      .start(read)
      .finish({ usage: { promptTokens: 1, completionTokens: 1 }, pending: () => pending++ });
    assert.deepEqual(
      cost,
      { credits: 0.0012, estimate: false, source: 'balance' },
      'usage without pricing: the balance',
    );
    assert.deepEqual(waits, []);
    assert.equal(pending, 0);
  });

  it('re-reads with growing pauses until a late charge settles, saying "pending" once', async () => {
    const { read, reads, waits, meter } = fake([25, 25, 25, 25, 24.5]);
    let pending = 0;
    const cost = await meter.start(read).finish({ pending: () => pending++ });
    assert.deepEqual(cost, { credits: 0.5, estimate: false, source: 'balance' });
    assert.equal(pending, 1);
    assert.equal(reads(), 5);
    assert.deepEqual(waits, SETTLE_DELAYS_MS.slice(1, 4));
  });

  it('gives up after the bounded tries when the balance never moves (a subscription key)', async () => {
    const { read, reads, waits, meter } = fake([10]);
    const cost = await meter.start(read).finish({});
    assert.deepEqual(cost, { credits: 0, estimate: false, source: 'balance' });
    assert.equal(reads(), 1 + SETTLE_DELAYS_MS.length);
    assert.deepEqual(
      waits,
      SETTLE_DELAYS_MS.filter((ms) => ms > 0),
    );
  });

  it('tells no cost when a reading fails or the balance rose (a top-up or a new period)', async () => {
    assert.equal(
      await fake([undefined, 24])
        .meter.start(async () => undefined)
        .finish(),
      undefined,
    );
    const rose = fake([5, 5, 30]);
    assert.equal(await rose.meter.start(rose.read).finish(), undefined);
    const failed = fake([5, 5, undefined]);
    assert.equal(await failed.meter.start(failed.read).finish(), undefined);
  });

  it('marks a balance difference an estimate when another request ran while it settled', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const readings = [25, 25, 24];
    let index = 0;
    const meter = new CostMeter({ wait: () => gate });
    const measuring = meter.start(async () => readings[Math.min(index++, readings.length - 1)]).finish();
    await new Promise((resolve) => setImmediate(resolve));
    meter.noteOtherUse(); // our own report: ignored
    meter.noteOtherUse(); // someone else's request
    release();
    assert.deepEqual(await measuring, { credits: 1, estimate: true, source: 'balance' });
  });

  it('finishes once', async () => {
    const { read, meter } = fake([2, 1]);
    const measurement = meter.start(read);
    assert.deepEqual(await measurement.finish(), { credits: 1, estimate: false, source: 'balance' });
    assert.equal(await measurement.finish(), undefined);
  });
});
