// Completions benchmark: what inline completions cost the extension host per keystroke, how many
// requests (and tokens, and dollars) a typing session pays for, how soon a stopped request's
// connection closes at the gateway, and how much of the stream we wait for compared with reading it
// raw. It drives the same pure scheduling and request code the VS Code provider uses
// (CompletionScheduler, runCompletion, streamGatewayAnswer) against the local gateway's completion
// model on its own thread, with a seeded typist who retypes regions of this repository's files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { GatewayClient } from '../../src/core/transport/client';
import { completionBudget } from '../../src/core/completions/completionBudget';
import { completionCacheKey } from '../../src/core/completions/completionCache';
import type { CompletionInput, CompletionPrompt } from '../../src/core/completions/completionInput';
import { buildCompletionPrompt } from '../../src/core/completions/completionPrompt';
import { runCompletion, type CompletionSend } from '../../src/core/completions/completionRun';
import { CompletionScheduler, realClock, type CompletionAsk } from '../../src/core/completions/completionScheduler';
import { PREFIX_WINDOW_CHARS, SUFFIX_WINDOW_CHARS } from '../../src/core/completions/completionWindow';
import { completionSend } from '../../src/core/completions/completionRequest';
import { seededRandom } from '../harness/seededRandom';
import { completionsReport, type KeyCost, type Session, type StreamSample } from './completionsReport';
import { gatewayOnThread, type ThreadGateway } from './gatewayThread';

export interface CompletionsBenchOptions {
  readonly outDir: string;
  /** Characters the typist retypes in all (spread over the files). */
  readonly chars: number;
  readonly seed: number;
  /** Prompts timed for the first-token-to-item ratio. */
  readonly samples: number;
}

const MODEL = 'sim-openai/gpt-sim-complete';
/** The catalog's prices of the completion model (USD per million tokens), for dollars per accepted character. */
const PRICE = { input: 0.1, output: 0.4 };
const CONTEXT_TOKENS = 16_000;
/** The extension's default (settings.ts `completions.debounceMs`). */
const DEBOUNCE_MS = 250;
/** Real source files of this repository: the gateway answers their real continuation. */
const SOURCES = [
  'src/core/transport/retry.ts',
  'src/core/completions/completionRun.ts',
  'src/core/apply/lineHunks.ts',
  'src/core/edits/closestLines.ts',
];
/** How often the typist takes a correct suggestion (Tab) instead of typing on. */
const ACCEPT_RATE = 0.5;

interface Doc {
  readonly name: string;
  readonly before: string;
  readonly region: string;
  readonly after: string;
}

interface SendTrace {
  /** When the request was handed to the client (Date.now(), the clock the gateway's records use). */
  sentAt?: number;
  abortAt?: number;
  stoppedEarly: boolean;
  superseded: boolean;
}

/** A region of each file, from a line start in its middle, of about `chars / files` characters, to retype. */
function documents(root: string, chars: number): Doc[] {
  const per = Math.max(80, Math.floor(chars / SOURCES.length));
  return SOURCES.map((name) => {
    const text = readFileSync(join(root, name), 'utf8');
    const start = text.indexOf('\n', Math.floor(text.length / 3)) + 1;
    const endLine = text.indexOf('\n', start + per);
    const end = endLine < 0 ? text.length : endLine + 1;
    return { name, before: text.slice(0, start), region: text.slice(start, end), after: text.slice(end) };
  });
}

/** Milliseconds before the next key: quick inside a word, slower between words, a pause at a line end. */
function keyDelay(random: () => number, typed: string): number {
  if (typed === '\n') return 400 + random() * 800;
  if (typed === ' ' || typed === '(' || typed === '.') return 120 + random() * 180;
  return 60 + random() * 100;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function runCompletionsBench(options: CompletionsBenchOptions): Promise<string> {
  const repo = join(__dirname, '..', '..', '..');
  const corpus = mkdtempSync(join(tmpdir(), 'completions-bench-'));
  const docs = documents(repo, options.chars);
  for (const doc of docs)
    writeFileSync(join(corpus, doc.name.replace(/\//g, '_')), doc.before + doc.region + doc.after);
  const gateway = await gatewayOnThread({ completionFiles: corpus });
  try {
    const session = await typingSession(gateway, docs, options);
    const stream = await streamRatio(gateway, session.prompts.slice(0, options.samples));
    const table = completionsReport(session, stream, {
      seed: options.seed,
      files: SOURCES.length,
      model: MODEL,
      debounceMs: DEBOUNCE_MS,
      acceptRate: ACCEPT_RATE,
      price: PRICE,
    });
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(join(options.outDir, 'completions.md'), table);
    return table;
  } finally {
    await gateway.stop();
    rmSync(corpus, { recursive: true, force: true });
  }
}

async function typingSession(
  gateway: ThreadGateway,
  docs: readonly Doc[],
  options: CompletionsBenchOptions,
): Promise<Session> {
  const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
  const random = seededRandom(options.seed);
  const costs = new Map<KeyCost, number[]>([
    ['typed through', []],
    ['cache hit', []],
    ['debounced away', []],
    ['aborts a request in flight', []],
    ['request start', []],
  ]);
  let inFlight = false;
  const traces: SendTrace[] = [];
  const prompts: CompletionPrompt[] = [];
  const inputs = new Map<string, CompletionInput>();
  const budget = completionBudget(CONTEXT_TOKENS, PRICE.input / 1e6);
  const sendRaw = completionSend(client, MODEL, 'chat', 'sim-openai');
  const scheduler = new CompletionScheduler<CompletionPrompt>(
    realClock,
    {
      prepare: async (ask) => {
        const input = inputs.get(ask.key);
        if (!input) return undefined;
        const t = performance.now();
        const prompt = buildCompletionPrompt(input, budget);
        costs.get('request start')?.push(performance.now() - t);
        prompts.push(prompt);
        return prompt;
      },
      send: (prompt, signal) => {
        const trace: SendTrace = { stoppedEarly: false, superseded: false };
        traces.push(trace);
        const traced: CompletionSend = (p, onText, inner) => {
          trace.sentAt = Date.now();
          inner.addEventListener(
            'abort',
            () => {
              trace.abortAt = Date.now();
              trace.superseded = signal.aborted;
              trace.stoppedEarly = !signal.aborted;
            },
            { once: true },
          );
          return sendRaw(p, onText, inner);
        };
        const t = performance.now();
        inFlight = true;
        const outcome = runCompletion(prompt, traced, signal).finally(() => (inFlight = false));
        // The request's start on the host's thread: body, headers, the dispatch (the rest is I/O).
        const start = costs.get('request start');
        if (start) start[start.length - 1] = (start[start.length - 1] ?? 0) + performance.now() - t;
        return outcome;
      },
    },
    () => DEBOUNCE_MS,
  );
  const places: { text: string; offset: number; uri: string }[] = [];
  let typedChars = 0;
  let shownCorrect = 0;
  let shownWrong = 0;
  const started = Date.now();
  for (const doc of docs) {
    const uri = `file:///bench/${doc.name}`;
    let pos = 0;
    while (pos < doc.region.length) {
      const text = doc.before + doc.region.slice(0, pos) + doc.after;
      const offset = doc.before.length + pos;
      // What the provider does per keystroke: the two windows, the cache key, the scheduler's ask.
      const before = { ...scheduler.counters };
      const abortsInFlight = inFlight;
      const t = performance.now();
      const prefix = text.slice(Math.max(0, offset - PREFIX_WINDOW_CHARS), offset);
      const suffix = text.slice(offset, offset + SUFFIX_WINDOW_CHARS);
      const key = completionCacheKey(MODEL, uri, prefix, suffix);
      const ask: CompletionAsk = { document: uri, offset, prefix, suffix, key };
      places.push({ text, offset, uri });
      const result = scheduler.complete(ask);
      const cost = performance.now() - t;
      inputs.set(key, { languageId: 'typescript', path: doc.name, prefix, suffix, imports: '', snippets: [] });
      const kind: KeyCost | undefined =
        scheduler.counters.typedThrough > before.typedThrough
          ? 'typed through'
          : scheduler.counters.cacheHits > before.cacheHits
            ? 'cache hit'
            : undefined;
      const requestsBefore = scheduler.counters.requests;
      const next = doc.region[pos] ?? '';
      const delay = keyDelay(random, next);
      const timedOut = Symbol('timed out');
      const shown = await Promise.race([result, sleep(delay).then(() => timedOut)]);
      if (kind) costs.get(kind)?.push(cost);
      else if (abortsInFlight) costs.get('aborts a request in flight')?.push(cost);
      else if (scheduler.counters.requests === requestsBefore && shown === timedOut)
        costs.get('debounced away')?.push(cost);
      if (typeof shown === 'string' && shown.length > 0) {
        const correct = doc.region.startsWith(shown, pos);
        if (correct) shownCorrect++;
        else shownWrong++;
        if (correct && random() < ACCEPT_RATE) {
          await sleep(200); // the glance before Tab
          scheduler.noteAccepted(shown.length);
          pos += shown.length;
          continue;
        }
        await sleep(Math.max(0, delay / 2));
      }
      inputs.delete(key);
      pos++;
      typedChars++;
    }
  }
  const seconds = (Date.now() - started) / 1000;
  // The typist never comes back to a place, so cache hits are timed by going back over the places
  // whose suggestion the session cached (as after undoing a few keys), with the same scheduler.
  const counters = { ...scheduler.counters };
  for (const { text, offset, uri } of places) {
    const hits = scheduler.counters.cacheHits;
    const t = performance.now();
    const prefix = text.slice(Math.max(0, offset - PREFIX_WINDOW_CHARS), offset);
    const suffix = text.slice(offset, offset + SUFFIX_WINDOW_CHARS);
    void scheduler.complete({
      document: uri,
      offset,
      prefix,
      suffix,
      key: completionCacheKey(MODEL, uri, prefix, suffix),
    });
    const cost = performance.now() - t;
    if (scheduler.counters.cacheHits > hits) costs.get('cache hit')?.push(cost);
  }
  scheduler.stop();
  // The last request's connection may still be closing: read the records once every one has closed (bounded).
  let records = (await gateway.records()).filter((r) => r.path.endsWith('/chat/completions'));
  for (let i = 0; i < 100 && records.some((r) => r.closedAt === undefined); i++) {
    await sleep(20);
    records = (await gateway.records()).filter((r) => r.path.endsWith('/chat/completions'));
  }
  const closeLatency = { superseded: [] as number[], stoppedEarly: [] as number[] };
  // Each stopped request is paired with the gateway record that started between its send and its
  // abort (by time, not by order: a request aborted before it went out has no record).
  let next = 0;
  for (const trace of traces) {
    if (trace.sentAt === undefined || trace.abortAt === undefined) continue;
    while (next < records.length && (records[next]?.startedAt ?? 0) < trace.sentAt - 1) next++;
    const record = records[next];
    if (!record || record.startedAt > trace.abortAt + 1) continue;
    next++;
    if (record.closedAt === undefined || record.outcome !== 'aborted') continue;
    (trace.superseded ? closeLatency.superseded : closeLatency.stoppedEarly).push(record.closedAt - trace.abortAt);
  }
  return { costs, counters, typedChars, shownCorrect, shownWrong, closeLatency, prompts, seconds };
}

/** The same prompts through our path and read raw, alternating. */
async function streamRatio(gateway: ThreadGateway, prompts: readonly CompletionPrompt[]): Promise<StreamSample[]> {
  const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
  const send = completionSend(client, MODEL, 'chat', 'sim-openai');
  const samples: StreamSample[] = [];
  for (const prompt of prompts) {
    let first = 0;
    const timed: CompletionSend = (p, onText, signal) =>
      send(
        p,
        (delta) => {
          if (!first) first = performance.now();
          onText(delta);
        },
        signal,
      );
    const outcome = await runCompletion(prompt, timed, new AbortController().signal);
    const ours = first ? performance.now() - first : NaN;
    if (outcome.insertion === undefined) continue;
    const body = JSON.stringify({
      model: MODEL,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      max_tokens: prompt.maxTokens,
      temperature: 0.1,
      stream: true,
      stream_options: { include_usage: true },
    });
    const response = await request(`${gateway.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body,
    });
    let rawFirst = 0;
    for await (const chunk of response.body) {
      if (!rawFirst && (chunk as Buffer).length) rawFirst = performance.now();
    }
    samples.push({ ours, raw: performance.now() - rawFirst });
  }
  return samples;
}
