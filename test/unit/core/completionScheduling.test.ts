// The pure scheduling of inline completions (src/core/completions): when a keystroke costs a
// request and when it does not, what a request is stopped for, and how failures pause and resume.
import * as assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  StreamError,
  TimeoutError,
} from '../../../src/core/errors';
import {
  CompletionBackoff,
  FIRST_PAUSE_MS,
  FIRST_SERVER_PAUSE_MS,
  MAX_PAUSE_MS,
  pauseReasonOf,
} from '../../../src/core/completions/completionBackoff';
import { completionBudget, MAX_COMPLETION_INPUT_TOKENS } from '../../../src/core/completions/completionBudget';
import { CompletionCache, completionCacheKey } from '../../../src/core/completions/completionCache';
import type { CompletionPrompt } from '../../../src/core/completions/completionInput';
import {
  MAX_COMPLETION_RAW_CHARS,
  runCompletion,
  type CompletionOutcome,
  type CompletionSend,
} from '../../../src/core/completions/completionRun';
import {
  CompletionScheduler,
  type CompletionAsk,
  type SchedulerClock,
} from '../../../src/core/completions/completionScheduler';
import { completionsEnabledFor } from '../../../src/core/completions/languageEnablement';
import { shownCompletion, typedThrough } from '../../../src/core/completions/typedThrough';
import { insertionWithEnding, lfPlace } from '../../../src/core/completions/completionEol';
import { insertionFrom } from '../../../src/core/completions/completionText';
import { promptAt } from '../completionCases';

/** A clock whose waits end only when the test says. */
class ManualClock implements SchedulerClock {
  time = 1_000_000;
  private waits: { resolve: (done: boolean) => void }[] = [];
  now(): number {
    return this.time;
  }
  wait(_ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      const entry = { resolve };
      this.waits.push(entry);
      signal.addEventListener('abort', () => resolve(false), { once: true });
    });
  }
  /** Ends every wait (the debounce ran out). */
  release(): void {
    for (const wait of this.waits.splice(0)) wait.resolve(true);
  }
  get waiting(): number {
    return this.waits.length;
  }
}

const LINE_PROMPT: CompletionPrompt = {
  system: 's',
  user: 'u',
  shape: 'line',
  maxTokens: 64,
  sentPrefix: 'const a = ',
  sentSuffix: '',
};

function outcome(insertion: string | undefined, extra: Partial<CompletionOutcome> = {}): CompletionOutcome {
  return {
    insertion,
    rawChars: insertion?.length ?? 0,
    usage: { promptTokens: 100, completionTokens: 5 },
    estimated: false,
    stoppedEarly: false,
    bounded: false,
    aborted: false,
    ...extra,
  };
}

function ask(prefix: string, suffix = '', document = 'file:///a.ts'): CompletionAsk {
  return { document, offset: prefix.length, prefix, suffix, key: completionCacheKey('m', document, prefix, suffix) };
}

/** A scheduler whose requests the test answers. */
function harness(answer: (signal: AbortSignal) => Promise<CompletionOutcome>) {
  const clock = new ManualClock();
  const sent: AbortSignal[] = [];
  const scheduler = new CompletionScheduler<string>(
    clock,
    {
      prepare: async (a) => a.prefix,
      send: (_prepared, signal) => {
        sent.push(signal);
        return answer(signal);
      },
    },
    () => 250,
  );
  return { clock, sent, scheduler };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('completion scheduling (pure)', () => {
  it('the cache keeps the most recently used entries within its bound', () => {
    const cache = new CompletionCache(2);
    cache.set('a', '1');
    cache.set('b', '2');
    assert.equal(cache.get('a'), '1');
    cache.set('c', '3');
    assert.equal(cache.get('b'), undefined, 'the least recently used went first');
    assert.equal(cache.get('a'), '1');
    assert.equal(cache.size, 2);
  });

  it('a shown suggestion is typed through: the rest, only while what was typed matches it and the text around is unchanged', () => {
    const shown = shownCompletion('d', 10, 'const x = ', ')', 'foo(bar');
    assert.equal(typedThrough(shown, 'd', 10, 'const x = ', ')'), 'foo(bar');
    assert.equal(typedThrough(shown, 'd', 13, 'const x = foo', ')'), '(bar');
    assert.equal(typedThrough(shown, 'd', 13, 'const x = fox', ')'), undefined, 'typed something else');
    assert.equal(typedThrough(shown, 'd', 17, 'const x = foo(bar', ')'), undefined, 'typed all of it');
    assert.equal(typedThrough(shown, 'd', 13, 'const y = foo', ')'), undefined, 'the text before changed');
    assert.equal(typedThrough(shown, 'd', 13, 'const x = foo', ';'), undefined, 'the text after changed');
    assert.equal(typedThrough(shown, 'e', 13, 'const x = foo', ')'), undefined, 'another document');
  });

  it('languages: own entry, else *, else on', () => {
    const map = { '*': true, markdown: false };
    assert.equal(completionsEnabledFor(map, 'typescript'), true);
    assert.equal(completionsEnabledFor(map, 'markdown'), false);
    assert.equal(completionsEnabledFor({ '*': false, python: true }, 'python'), true);
    assert.equal(completionsEnabledFor({ '*': false }, 'go'), false);
    assert.equal(completionsEnabledFor({}, 'toString'), true, 'no prototype keys');
  });

  it('the budget: a share of the context, bounded by money and by a ceiling', () => {
    assert.equal(completionBudget(undefined, undefined).maxInputTokens, MAX_COMPLETION_INPUT_TOKENS);
    assert.equal(completionBudget(2048, undefined).maxInputTokens, Math.floor(2048 * 0.6));
    assert.equal(completionBudget(200_000, 3 / 1e6).maxInputTokens, 1000, 'an expensive model gets a shorter prompt');
    assert.ok(completionBudget(200_000, 1).maxInputTokens >= 256, 'never below a useful prompt');
  });

  it('which failures pause: the error classes decide', () => {
    assert.equal(pauseReasonOf(new AuthenticationError('no')), 'badKey');
    assert.equal(pauseReasonOf(new RateLimitError('slow down')), 'rateLimited');
    assert.equal(pauseReasonOf(new RateLimitError('empty', { quotaExhausted: true })), 'noCredits');
    assert.equal(pauseReasonOf(new RateLimitError('pay', { status: 402 })), 'noCredits');
    assert.equal(pauseReasonOf(new ConnectionError('down')), 'offline');
    assert.equal(pauseReasonOf(new Error('500')), undefined);
    assert.equal(pauseReasonOf(new TimeoutError('slow')), 'offline');
    assert.equal(
      pauseReasonOf(Object.assign(new Error('x'), { name: 'ConnectionError' })),
      undefined,
      'the class decides, not a name',
    );
  });

  it('a server error (5xx) and a stream cut mid-way pause too, with a shorter first pause; a 400 or an error event does not', () => {
    assert.equal(pauseReasonOf(new GatewayError('bad gateway', { status: 502 })), 'serverError');
    assert.equal(pauseReasonOf(new GatewayError('down', { status: 500 })), 'serverError');
    assert.equal(pauseReasonOf(new StreamError('cut', { interrupted: true })), 'serverError');
    assert.equal(pauseReasonOf(new StreamError('model error event')), undefined);
    assert.equal(
      pauseReasonOf(new StreamError('an event too large', { interrupted: true, code: 'event_too_large' })),
      undefined,
      "cut at the client's bound: a hostile answer",
    );
    assert.equal(pauseReasonOf(new GatewayError('bad request', { status: 400 })), undefined);
    const now = 0;
    const backoff = new CompletionBackoff(() => now);
    assert.equal(backoff.fail(new GatewayError('down', { status: 503 }))?.until, FIRST_SERVER_PAUSE_MS);
    assert.ok(FIRST_SERVER_PAUSE_MS < FIRST_PAUSE_MS);
    assert.equal(backoff.fail(new StreamError('cut', { interrupted: true }))?.until, 2 * FIRST_SERVER_PAUSE_MS);
  });

  it('a pause doubles up to a bound; Retry-After counts when longer; reset ends it', () => {
    let now = 0;
    const backoff = new CompletionBackoff(() => now);
    assert.equal(backoff.fail(new ConnectionError('down'))?.until, FIRST_PAUSE_MS);
    assert.ok(backoff.blocks());
    assert.equal(backoff.fail(new ConnectionError('down'))?.until, 2 * FIRST_PAUSE_MS);
    for (let i = 0; i < 20; i++) backoff.fail(new ConnectionError('down'));
    assert.equal(backoff.pause?.until, MAX_PAUSE_MS);
    now = MAX_PAUSE_MS;
    assert.equal(backoff.blocks(), false, 'the pause runs out by itself');
    assert.ok(backoff.reset());
    assert.equal(backoff.fail(new RateLimitError('slow', { retryAfterMs: 60_000 }))?.until, now + 60_000);
  });

  it('runCompletion stops the stream as soon as the completion is complete, and counts estimated tokens', async () => {
    let stoppedAt = '';
    const send: CompletionSend = async (_prompt, onText, signal) => {
      for (const piece of ['foo', '(1);\n', 'more();\n', 'and more']) {
        if (signal.aborted) {
          stoppedAt = piece;
          throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        }
        onText(piece);
      }
      return { usage: { promptTokens: 1, completionTokens: 1 } };
    };
    const result = await runCompletion(LINE_PROMPT, send, new AbortController().signal);
    assert.equal(stoppedAt, 'more();\n', 'nothing read after the line ended');
    assert.equal(result.stoppedEarly, true);
    assert.equal(result.estimated, true);
    assert.ok(result.usage.completionTokens > 0);
    assert.equal(result.rawChars, 'foo(1);\n'.length);
  });

  it('runCompletion counts the prompt of a request aborted before any answer as nothing, and of one that answered as estimated', async () => {
    const waiting: CompletionSend = (_prompt, _onText, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), {
          once: true,
        }),
      );
    const outer = new AbortController();
    const pending = runCompletion(LINE_PROMPT, waiting, outer.signal);
    outer.abort();
    const superseded = await pending;
    assert.equal(superseded.aborted, true);
    assert.deepEqual(
      superseded.usage,
      { promptTokens: 0, completionTokens: 0 },
      'superseded before the model answered',
    );
    const answering: CompletionSend = async (_prompt, onText, signal) => {
      onText('fo');
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    };
    const second = new AbortController();
    const cut = runCompletion(LINE_PROMPT, answering, second.signal);
    second.abort();
    assert.ok((await cut).usage.promptTokens > 0, 'the model had read the prompt');
  });

  it('runCompletion cuts an endless answer at its bound and shows nothing; an outside abort shows nothing either', async () => {
    const endless: CompletionSend = async (_prompt, onText, signal) => {
      while (!signal.aborted) onText('x'.repeat(1000));
      throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    };
    const block = { ...LINE_PROMPT, shape: 'block' as const };
    const huge = await runCompletion(block, endless, new AbortController().signal);
    // Stopped by the completion's own bound or by the stop rule's (a line no code has): either way, nothing shows.
    assert.ok(huge.bounded || huge.stoppedEarly);
    assert.equal(huge.insertion, undefined);
    assert.ok(huge.rawChars <= MAX_COMPLETION_RAW_CHARS + 1000);
    const outside = new AbortController();
    const slow: CompletionSend = (_prompt, onText, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        onText('par');
        outside.abort();
      });
    const cut = await runCompletion(block, slow, outside.signal);
    assert.equal(cut.aborted, true);
    assert.equal(cut.insertion, undefined);
  });

  it('a keystroke within the debounce supersedes the one before: one request for the last place only', async () => {
    const { clock, sent, scheduler } = harness(async () => outcome('1;'));
    const first = scheduler.complete(ask('const a = '));
    const second = scheduler.complete(ask('const a = 4'));
    assert.equal(await first, undefined);
    clock.release();
    assert.equal(await second, '1;');
    assert.equal(sent.length, 1);
    assert.equal(scheduler.counters.debouncedAway, 1);
  });

  it('a newer keystroke aborts the request in flight', async () => {
    const { clock, sent, scheduler } = harness(
      (signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve(outcome(undefined, { aborted: true }))),
        ),
    );
    const first = scheduler.complete(ask('let b = '));
    clock.release();
    await settle();
    assert.equal(sent.length, 1);
    void scheduler.complete(ask('let b = 1'));
    assert.equal(sent[0]?.aborted, true);
    assert.equal(await first, undefined);
    assert.equal(scheduler.counters.aborted, 1);
  });

  it('the same place asked again joins the ask in flight; a cancelled ask stops only when nobody else wants it', async () => {
    const { clock, sent, scheduler } = harness(async () => outcome('x'));
    const cancel = new AbortController();
    const one = scheduler.complete(ask('q = '), cancel.signal);
    const two = scheduler.complete(ask('q = '));
    cancel.abort();
    clock.release();
    assert.equal(await one, 'x');
    assert.equal(await two, 'x');
    assert.equal(sent.length, 1);
    const alone = new AbortController();
    const three = scheduler.complete(ask('r = '), alone.signal);
    alone.abort();
    clock.release();
    assert.equal(await three, undefined);
    assert.equal(sent.length, 1, 'the cancelled ask never sent');
  });

  it('cache hits and typing through a shown suggestion send nothing', async () => {
    const { clock, sent, scheduler } = harness(async () => outcome('hello();'));
    const first = scheduler.complete(ask('say: '));
    clock.release();
    assert.equal(await first, 'hello();');
    assert.equal(await scheduler.complete(ask('say: he')), 'llo();');
    assert.equal(await scheduler.complete(ask('say: hel')), 'lo();');
    assert.equal(scheduler.counters.typedThrough, 2);
    // Back to an earlier place (after the shown one was forgotten): the cache answers.
    scheduler.noteAccepted(8);
    assert.equal(await scheduler.complete(ask('say: ')), 'hello();');
    assert.equal(scheduler.counters.cacheHits, 1);
    assert.equal(sent.length, 1);
    assert.equal(clock.waiting, 0);
  });

  it('a failure pauses: no request until the pause ends, then one probe; a success resumes', async () => {
    let fail = true;
    const pauses: unknown[] = [];
    const clock = new ManualClock();
    let sends = 0;
    const scheduler = new CompletionScheduler<string>(
      clock,
      {
        prepare: async (a) => a.prefix,
        send: async () => {
          sends++;
          if (fail) throw new AuthenticationError('refused');
          return outcome('ok');
        },
      },
      () => 250,
      undefined,
      { onPause: (pause) => pauses.push(pause?.reason) },
    );
    const first = scheduler.complete(ask('a'));
    clock.release();
    assert.equal(await first, undefined);
    assert.deepEqual(pauses, ['badKey']);
    assert.equal(await scheduler.complete(ask('ab')), undefined);
    assert.equal(scheduler.counters.pausedSkips, 1);
    assert.equal(sends, 1);
    clock.time += FIRST_PAUSE_MS;
    fail = false;
    const probe = scheduler.complete(ask('abc'));
    clock.release();
    assert.equal(await probe, 'ok');
    assert.deepEqual(pauses, ['badKey', undefined]);
    assert.equal(sends, 2);
  });

  it('an aborted or bounded probe after a pause runs out does not resume: the next failure doubles the pause', async () => {
    let answer: 'fail' | 'aborted' | 'bounded' = 'fail';
    const pauses: unknown[] = [];
    const clock = new ManualClock();
    const scheduler = new CompletionScheduler<string>(
      clock,
      {
        prepare: async (a) => a.prefix,
        send: async () => {
          if (answer === 'fail') throw new ConnectionError('down');
          return outcome(answer === 'aborted' ? undefined : 'x', {
            aborted: answer === 'aborted',
            bounded: answer === 'bounded',
          });
        },
      },
      () => 250,
      undefined,
      { onPause: (pause) => pauses.push(pause?.failures) },
    );
    const run = async (prefix: string): Promise<string | undefined> => {
      const result = scheduler.complete(ask(prefix));
      clock.release();
      return result;
    };
    await run('a');
    assert.deepEqual(pauses, [1]);
    for (const [index, kind] of (['aborted', 'bounded'] as const).entries()) {
      clock.time = scheduler.backoff.pause!.until;
      answer = kind;
      assert.equal(await run(`b${index}`), undefined);
      assert.equal(scheduler.backoff.pause?.failures, 1, `${kind}: still paused (the status keeps saying why)`);
    }
    answer = 'fail';
    const start = clock.time;
    await run('c');
    assert.deepEqual(pauses, [1, 2], 'no resume in between, no second first notice');
    assert.equal(scheduler.backoff.pause?.until, start + 2 * FIRST_PAUSE_MS, 'doubled');
  });

  it('a CRLF document is completed in LF: a re-typed multi-line prefix is stripped, typing through goes past a line break, the insertion is CRLF', async () => {
    const text = 'function f(a) {\r\n  const b = a * 2;\r\n  \r\n}\r\n';
    const cursor = text.indexOf('  \r\n}') + 2;
    const placeAt = (doc: string, offset: number) =>
      lfPlace('\r\n', offset, doc.slice(0, offset).split('\r\n').length - 1, doc.slice(0, offset), doc.slice(offset));
    const place = placeAt(text, cursor);
    assert.equal(place.prefix, 'function f(a) {\n  const b = a * 2;\n  ');
    // The model re-types the last two lines before its answer: only what is new remains.
    assert.equal(
      insertionFrom(
        'function f(a) {\n  const b = a * 2;\n  const c = b + 1;\n  return c;\n}',
        promptAt(`${place.prefix}|${place.suffix}`),
      ),
      'const c = b + 1;',
    );
    const { clock, scheduler } = harness(async () => outcome('const c = b + 1;\n  return c;'));
    const asked = (at: LfPlaceLike): CompletionAsk => ({
      document: 'd',
      ...at,
      key: completionCacheKey('m', 'd', at.prefix, at.suffix),
    });
    const first = scheduler.complete(asked(place));
    clock.release();
    const insertion = await first;
    assert.equal(insertionWithEnding(insertion ?? '', '\r\n'), 'const c = b + 1;\r\n  return c;');
    // The user types the first line and Enter (the editor writes CRLF) and two characters.
    const typed = `${text.slice(0, cursor)}const c = b + 1;\r\n  re${text.slice(cursor)}`;
    assert.equal(
      await scheduler.complete(asked(placeAt(typed, cursor + 'const c = b + 1;\r\n  re'.length))),
      'turn c;',
    );
    assert.equal(scheduler.counters.typedThrough, 1);
    assert.equal(scheduler.counters.requests, 1);
  });

  it('an explicit ask (the user invoked it) does not wait the debounce', async () => {
    const { clock, sent, scheduler } = harness(async () => outcome('b;'));
    const result = scheduler.complete({ ...ask('const a = '), explicit: true });
    assert.equal(await result, 'b;', 'answered without the clock');
    assert.equal(sent.length, 1);
    assert.equal(clock.waiting, 0);
  });
});

type LfPlaceLike = ReturnType<typeof lfPlace>;
