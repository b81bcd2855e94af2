// The activation clock and its log line (src/shared/activationTiming.ts), the figures VS Code's
// Startup Performance table gives (test/bench/activation/vscodeTimes.ts), and the bench's budgets.
import * as assert from 'node:assert/strict';
import { formatActivationLine, formatActivationPhases, startActivationClock } from '../../src/shared/activationTiming';
import { parseActivationLine } from '../bench/activation/activationLine';
import { ACTIVATION_TARGETS, summarize, verdict, verdictTable } from '../bench/activation/targets';
import { parseActivationRow } from '../bench/activation/vscodeTimes';

/** A clock that returns the given readings in order. */
function readings(...values: number[]): () => number {
  return () => {
    const next = values.shift();
    if (next === undefined) throw new Error('the clock was read more often than expected');
    return next;
  };
}

describe('activation timing', () => {
  it('splits activate() into its synchronous part, the time awaiting and the total', async () => {
    // start 10; first await from 12 to 30; second await from 31 to 40; finish at 45
    const clock = startActivationClock(readings(10, 12, 30, 31, 40, 45));
    assert.equal(await clock.awaiting(Promise.resolve('key')), 'key');
    await clock.awaiting(Promise.resolve());
    assert.deepEqual(clock.finish(), { untilFirstAwaitMs: 2, totalMs: 35, awaitedMs: 27, phases: [] });
    assert.deepEqual(
      clock.finish(),
      { untilFirstAwaitMs: 2, totalMs: 35, awaitedMs: 27, phases: [] },
      'a second finish keeps the first result',
    );
  });

  it('counts a rejected await as waiting and passes the rejection on', async () => {
    const clock = startActivationClock(readings(0, 1, 5, 6));
    await assert.rejects(clock.awaiting(Promise.reject(new Error('no secret storage'))), /no secret storage/);
    assert.deepEqual(clock.finish(), { untilFirstAwaitMs: 1, totalMs: 6, awaitedMs: 4, phases: [] });
  });

  it('names phases of own work, leaving out the time awaited inside them', async () => {
    // start 0; "key" phase: work 0-2, await 2-50, work 50-51; "chat" phase: 51-58; finish at 60
    const clock = startActivationClock(readings(0, 2, 50, 51, 58, 60));
    await clock.awaiting(Promise.resolve());
    clock.phase('key');
    clock.phase('chat');
    const timing = clock.finish();
    assert.deepEqual(timing.phases, [
      { name: 'key', ms: 3 },
      { name: 'chat', ms: 7 },
    ]);
    assert.equal(timing.totalMs - timing.awaitedMs, 12, 'the unnamed rest (58-60) is own work too');
  });

  it('writes a log line the bench reads back (the last activation in the log wins)', () => {
    const firstTiming = { untilFirstAwaitMs: 0.71, totalMs: 1662.44, awaitedMs: 900, phases: [{ name: 'key', ms: 1 }] };
    const first = formatActivationLine('1.2.3', firstTiming);
    assert.equal(
      first,
      'Unified Inference 1.2.3 activated in 1662.4 ms (0.7 ms before its first await, 900.0 ms awaiting).',
    );
    const secondTiming = {
      untilFirstAwaitMs: 3,
      totalMs: 40,
      awaitedMs: 20,
      phases: [
        { name: 'api key', ms: 0.25 },
        { name: 'chat', ms: 12 },
      ],
    };
    const phases = formatActivationPhases(secondTiming);
    assert.equal(phases, 'Activation phases, own work in ms: api key 0.3, chat 12.0.');
    assert.equal(formatActivationPhases({ ...secondTiming, phases: [] }), undefined);
    const second = formatActivationLine('1.2.3', secondTiming);
    const log = `2026-11-24 13:00:00.000 [info] ${first}\n2026-11-24 13:00:00.001 [info] ${formatActivationPhases(firstTiming)}\n2026-11-24 13:05:00.000 [info] something else\n2026-11-24 13:10:00.000 [info] ${second}\n2026-11-24 13:10:00.001 [info] ${phases}\n`;
    assert.deepEqual(parseActivationLine(log), {
      untilFirstAwaitMs: 3,
      totalMs: 40,
      awaitedMs: 20,
      phases: [
        { name: 'api key', ms: 0.3 },
        { name: 'chat', ms: 12 },
      ],
    });
    assert.deepEqual(parseActivationLine(`[info] ${second}\n`)?.phases, [], 'a log without the phases line');
    assert.equal(parseActivationLine('[info] Unified Inference activated.'), undefined);
  });

  it("reads the extension's row of Developer: Startup Performance as Monaco renders it", () => {
    const nbsp = (text: string): string => text.replace(/ /g, '\u00a0');
    const lines = [
      '## Extension Activation Stats',
      nbsp('| Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By |'),
      nbsp('| vscode.git | true | 12 | 3 | 40 | * | vscode.git |'),
      nbsp(
        '| unified-inference.unified-inference | false | 1044 | 2 | 1662 | onStartupFinished | unified-inference.unified-inference |',
      ),
    ];
    assert.deepEqual(parseActivationRow(lines, 'unified-inference.unified-inference'), {
      loadCodeMs: 1044,
      callActivateMs: 2,
      finishActivateMs: 1662,
      event: 'onStartupFinished',
    });
    assert.equal(
      parseActivationRow(lines.slice(0, 3), 'unified-inference.unified-inference'),
      undefined,
      'not activated yet',
    );
    assert.equal(
      parseActivationRow(
        [nbsp('| unified-inference.unified-inference | false | ... |')],
        'unified-inference.unified-inference',
      ),
      undefined,
    );
  });

  it('summarizes with a measured median and the max, and judges against a budget', () => {
    assert.deepEqual(summarize([30, 10, 20, NaN]), { median: 20, max: 30, runs: 3 });
    assert.equal(verdict(ACTIVATION_TARGETS.blocking, 50).pass, true);
    assert.equal(verdict(ACTIVATION_TARGETS.blocking, 50.1).pass, false);
    assert.equal(verdict(ACTIVATION_TARGETS.blocking, NaN).pass, false, 'no measurement is no pass');
    const table = verdictTable([verdict(ACTIVATION_TARGETS.blocking, 70)]);
    assert.match(table, /70\.0 ms \| ≤ 50 ms \| \*\*FAIL\*\*/);
    assert.match(table, /Why these budgets:/);
  });
});
