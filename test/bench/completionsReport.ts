// The completions benchmark's table (completionsBench.ts measures; this says what was measured).
import type { CompletionCounters } from '../../src/core/completions/completionScheduler';
import type { CompletionPrompt } from '../../src/core/completions/completionInput';
import { median, percentile } from './chat/stats';

export type KeyCost = 'typed through' | 'cache hit' | 'debounced away' | 'aborts a request in flight' | 'request start';

function fmt(value: number, digits = 3): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export interface Session {
  readonly costs: Map<KeyCost, number[]>;
  readonly counters: CompletionCounters;
  readonly typedChars: number;
  readonly shownCorrect: number;
  readonly shownWrong: number;
  readonly closeLatency: { superseded: number[]; stoppedEarly: number[] };
  readonly prompts: CompletionPrompt[];
  readonly seconds: number;
}

export interface StreamSample {
  /** From the first text delta to the insertion (our path: stops at the completion's end). */
  readonly ours: number;
  /** From the first body byte to the stream's end, read raw with undici. */
  readonly raw: number;
}

function costRow(name: KeyCost, values: readonly number[]): string {
  return `| ${name} | ${values.length} | ${fmt(median(values))} | ${fmt(percentile(values, 99))} | ${fmt(values.length ? Math.max(...values) : NaN)} |`;
}

/** What the session ran with, for the table's heading and the money figures. */
export interface SessionSetup {
  readonly seed: number;
  readonly files: number;
  readonly model: string;
  readonly debounceMs: number;
  readonly acceptRate: number;
  /** USD per million tokens. */
  readonly price: { readonly input: number; readonly output: number };
}

export function completionsReport(session: Session, stream: readonly StreamSample[], setup: SessionSetup): string {
  const { price } = setup;
  const c = session.counters;
  const perHundred = (n: number): string => fmt((n / Math.max(1, session.typedChars)) * 100, 1);
  const tokens = c.tokensIn + c.tokensOut;
  const usd = (c.tokensIn * price.input + c.tokensOut * price.output) / 1e6;
  const ours = median(stream.map((s) => s.ours));
  const raw = median(stream.map((s) => s.raw));
  const { superseded, stoppedEarly } = session.closeLatency;
  return [
    `# Completions benchmark (${new Date().toISOString()})`,
    '',
    `Seeded typist (seed ${setup.seed}) retyping ${session.typedChars + c.acceptedChars} characters of ${setup.files} files of this repository in ${fmt(session.seconds, 0)} s, ` +
      `debounce ${setup.debounceMs} ms, accepting a correct suggestion ${setup.acceptRate * 100}% of the time; gateway on its own thread, model ${setup.model}.`,
    '',
    '## Extension-host time per keystroke (ms)',
    '',
    'What the provider runs per keystroke, in Node: the prefix and suffix windows (string slices standing in for',
    "`TextDocument.getText`), the cache key, and the scheduler's synchronous part. VS Code's own cost of calling",
    'the provider and reading the document is not in it.',
    '',
    '| keystroke | count | p50 | p99 | max |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...(['debounced away', 'cache hit', 'typed through', 'aborts a request in flight', 'request start'] as const).map(
      (name) => costRow(name, session.costs.get(name) ?? []),
    ),
    '',
    "`request start` is the prompt build plus the request's synchronous dispatch, when the debounce ends.",
    '',
    '## Requests and money',
    '',
    '| figure | value |',
    '| --- | ---: |',
    `| typed characters | ${session.typedChars} |`,
    `| accepted characters (${c.accepted} accepts) | ${c.acceptedChars} |`,
    `| requests per 100 typed characters | ${perHundred(c.requests)} |`,
    `| asks per 100 typed characters (debounced away / cache / typed through) | ${perHundred(c.asks)} (${perHundred(c.debouncedAway)} / ${perHundred(c.cacheHits)} / ${perHundred(c.typedThrough)}) |`,
    `| requests superseded and aborted | ${c.aborted} of ${c.requests} |`,
    `| requests stopped early (complete before the model finished) | ${c.stoppedEarly} |`,
    `| gateway saw the close after the abort: superseded p50 / max (ms) | ${fmt(median(superseded), 0)} / ${fmt(superseded.length ? Math.max(...superseded) : NaN, 0)} (${superseded.length}) |`,
    `| gateway saw the close after the abort: stopped early p50 / max (ms) | ${fmt(median(stoppedEarly), 0)} / ${fmt(stoppedEarly.length ? Math.max(...stoppedEarly) : NaN, 0)} (${stoppedEarly.length}) |`,
    `| suggestions shown: right / wrong | ${session.shownCorrect} / ${session.shownWrong} |`,
    `| tokens in / out (estimated for cut streams: ${c.estimatedTokens}) | ${c.tokensIn} / ${c.tokensOut} |`,
    `| tokens paid per accepted character | ${fmt(tokens / Math.max(1, c.acceptedChars), 1)} |`,
    `| USD per 1,000 accepted characters (at $${price.input}/$${price.output} per M) | ${fmt((usd / Math.max(1, c.acceptedChars)) * 1000, 5)} |`,
    '',
    '## From the first token to the inline item, against reading the raw stream to its end',
    '',
    '| path | samples | median ms |',
    '| --- | ---: | ---: |',
    `| ours: first text delta to insertion (stops when complete) | ${stream.length} | ${fmt(ours, 1)} |`,
    `| raw: first body byte to the stream's end (undici) | ${stream.length} | ${fmt(raw, 1)} |`,
    `| ratio ours / raw | | ${fmt(ours / raw, 2)} |`,
    '',
  ].join('\n');
}
