// Core benchmark: how much `client.chat.stream` (SSE framing, UTF-8 decoding, JSON parsing and
// typing of every chunk) costs over just reading the same response bytes with undici. Both read
// the same long stream from the local gateway, alternating, several rounds, in one run. The
// gateway runs twice: on its own thread (like a remote server: it produces while the client
// consumes) and in the client's own thread (its CPU then adds to both sides, serialized).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { GatewayClient } from '../../src/core/transport/client';
import { startGateway } from '../gateway/index';
import { gatewayOnThread, type RunningGateway } from './gatewayThread';
import { runGlobBench } from './globBench';

export interface CoreBenchOptions {
  rounds: number;
  tokens: number;
  outDir: string;
}

interface Sample {
  ms: number;
  bytes: number;
  chunks: number;
  peakRss: number;
  heapDelta: number;
}

interface Placement {
  label: string;
  rawMs: number;
  clientMs: number;
  raw: Sample[];
  client: Sample[];
}

const MODEL = 'sim-bench/stream-bench';

/** Samples RSS and heap while `work` runs; reports the peaks (heap relative to the start). */
async function measure(work: () => Promise<{ bytes: number; chunks: number }>): Promise<Sample> {
  const heapBefore = process.memoryUsage().heapUsed;
  let peakRss = process.memoryUsage.rss();
  let peakHeap = heapBefore;
  const sample = (): void => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 5);
  const started = process.hrtime.bigint();
  try {
    const { bytes, chunks } = await work();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    sample();
    return { ms, bytes, chunks, peakRss, heapDelta: peakHeap - heapBefore };
  } finally {
    clearInterval(timer);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

async function benchAgainst(gateway: RunningGateway, label: string, options: CoreBenchOptions): Promise<Placement> {
  const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
  const messages = [{ role: 'user', content: 'bench' }];
  // The client adds stream_options itself; the raw request sends the same body.
  const body = JSON.stringify({
    model: MODEL,
    max_tokens: options.tokens,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });

  const raw = (): Promise<Sample> =>
    measure(async () => {
      const response = await request(`${gateway.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gateway.apiKey}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body,
      });
      let bytes = 0;
      for await (const chunk of response.body) bytes += (chunk as Buffer).byteLength;
      return { bytes, chunks: 0 };
    });

  const parsed = (): Promise<Sample> =>
    measure(async () => {
      let chunks = 0;
      let chars = 0;
      for await (const chunk of client.chat.stream({ model: MODEL, max_tokens: options.tokens, messages })) {
        chunks++;
        chars += chunk.choices[0]?.delta.content?.length ?? 0;
      }
      if (chars === 0) throw new Error('the client read no content');
      return { bytes: 0, chunks };
    });

  // Warm-up: JIT, connection pool.
  await raw();
  await parsed();
  const rawSamples: Sample[] = [];
  const clientSamples: Sample[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Alternate the order so neither side always runs on a warmer heap.
    if (round % 2 === 0) {
      rawSamples.push(await raw());
      clientSamples.push(await parsed());
    } else {
      clientSamples.push(await parsed());
      rawSamples.push(await raw());
    }
  }
  return {
    label,
    raw: rawSamples,
    client: clientSamples,
    rawMs: median(rawSamples.map((s) => s.ms)),
    clientMs: median(clientSamples.map((s) => s.ms)),
  };
}

export async function runCoreBench(options: CoreBenchOptions): Promise<string> {
  const placements: Placement[] = [];
  for (const [label, start] of [
    ['gateway on its own thread', gatewayOnThread],
    ['gateway in the client thread', startGateway],
  ] as const) {
    const gateway = await start();
    try {
      placements.push(await benchAgainst(gateway, label, options));
    } finally {
      await gateway.stop();
    }
  }

  const first = placements[0] as Placement;
  const bytes = (first.raw[0] as Sample).bytes;
  const chunks = (first.client[0] as Sample).chunks;
  const row = (placement: Placement, name: string, ms: number, samples: Sample[]): string =>
    `| ${placement.label} | ${name} | ${ms.toFixed(1)} | ${samples.map((s) => s.ms.toFixed(0)).join(' ')} | ${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} | ${Math.round(chunks / (ms / 1000)).toLocaleString('en-US')} | ${mb(Math.max(...samples.map((s) => s.peakRss)))} | ${mb(Math.max(...samples.map((s) => s.heapDelta)))} |`;
  const lines = [
    '# Core benchmark: chat stream handling vs raw bytes',
    '',
    `Model \`${MODEL}\`, ${options.tokens.toLocaleString('en-US')} content chunks per stream (${chunks.toLocaleString('en-US')} chunks parsed incl. role and usage, ${mb(bytes)} MB of SSE), ${options.rounds} rounds per reader after one warm-up, medians. Node ${process.version}, ${new Date().toISOString()}.`,
    "Raw: `undici.request` + `for await` over the body, counting bytes. Client: `for await` over `client.chat.stream(...)`, reading each chunk's content.",
    'chunks/s counts the parsed chunks for both rows (what the raw reader would have had to deliver). Peak RSS is the whole process (with the gateway thread); heap delta is the client thread only.',
    '',
    '| gateway | reader | median ms | runs ms | MB/s | chunks/s | peak RSS MB | peak heap delta MB |',
    '|---|---|---:|---|---:|---:|---:|---:|',
    ...placements.flatMap((p) => [
      row(p, 'raw undici bytes', p.rawMs, p.raw),
      row(p, 'client.chat.stream', p.clientMs, p.client),
    ]),
    '',
    ...placements.map((p, index) => {
      const ratio = p.clientMs / p.rawMs;
      // The target is about the client keeping up with a byte stream from a server elsewhere: the
      // first placement. The second one is shown for what it tells about CPU cost on one core.
      const verdict =
        index === 0
          ? ` (target at most 1.5x: ${ratio <= 1.5 ? 'met' : 'not met'})`
          : ' (CPU-bound reference: both sides on one core)';
      return `- **Ratio client / raw, ${p.label}: ${ratio.toFixed(2)}x**${verdict}`;
    }),
    '',
    'On its own thread the gateway produces while the client parses, as a remote gateway would: that is the stream-handling',
    "figure. In the client thread, the simulator's JSON.stringify of every chunk and the client's JSON.parse of it run one",
    'after the other on one core, so that row adds the parse cost (about 1.3 us a chunk, mostly JSON.parse) to the raw time.',
    '',
    runGlobBench(),
  ];
  const table = lines.join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'core.md'), table);
  return table;
}
