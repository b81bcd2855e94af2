// Chat benchmark: the chat webview's real bundle in real Chromium, fed by the local gateway through
// the controller's own streaming pieces, each measurement next to a baseline page in the same run
// that gets the same messages but appends raw text to the DOM. See bench-results/chat.md for the
// method as printed with the numbers.
//
// Latency stamp: a piece's "gateway write time" is when this process received its chunk from
// client.chat.stream (inside runReply's delta callback). The gateway runs on its own thread and,
// with `delay-chunks`, writes every event on its own, so that is the write plus loopback and SSE
// parsing (well under a millisecond: see core.md), and it needs no change to the gateway. Page times
// are converted to this clock by an offset measured from the fastest of 25 evaluate round trips.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPiece } from '../gateway/text';
import { hostileInputs } from '../harness/hostileMarkdown';
import { ensureTestHost, launchBrowser } from '../harness/testHost';
import { BenchPageDriver } from './chat/benchPage';
import { longConversation, markdownReplyPieces } from './chat/conversationFixture';
import { hostilePerFrame, measureHostile, type HostileResult } from './chat/hostileMeasure';
import { measureOpen, type OpenResult } from './chat/openMeasure';
import { startPageServer } from './chat/pageServer';
import { median, percentile } from './chat/stats';
import { measureStream, STREAM_MODEL, type StreamResult } from './chat/streamMeasure';
import { gatewayOnThread } from './gatewayThread';

export interface ChatBenchOptions {
  readonly outDir: string;
  /** Size of the streamed reply, KB of UTF-8 content (default 100). */
  readonly kb: number;
  /** Pieces per second the gateway streams (default 500; the pause per event is rounded to whole ms). */
  readonly rate: number;
  /** Messages of the conversation that is opened (default 500). */
  readonly messages: number;
  /** Fresh page loads per side for the open measurement (default 3). */
  readonly openRuns: number;
  /** Also stream a realistic markdown reply of the same size into the chat (diagnostic, ~45 s more). */
  readonly markdownReplay: boolean;
  /** Hostile inputs to stream (test/harness/hostileMarkdown.ts): those whose name holds this ('' for all), or none. */
  readonly hostile: string | undefined;
  /** Frames a hostile input streams in at most (larger inputs stream more characters a frame). */
  readonly hostileFrames: number;
}

const TARGET_P95_OVER_BASELINE_MS = 50;
const TARGET_TASK_MS = 50;
const TARGET_OPEN_MS = 1000;

/** How many bench pieces make `kb` KB of UTF-8. */
function piecesFor(kb: number): number {
  let bytes = 0;
  let pieces = 0;
  while (bytes < kb * 1024) bytes += Buffer.byteLength(benchPiece(pieces++), 'utf8');
  return pieces;
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');
const mark = (ok: boolean): string => (ok ? 'yes' : '**NO**');

export async function runChatBench(options: ChatBenchOptions): Promise<string> {
  const started = Date.now();
  const host = ensureTestHost();
  const gateway = await gatewayOnThread();
  const server = await startPageServer();
  const profile = mkdtempSync(join(tmpdir(), 'chat-bench-'));
  const context = await launchBrowser(host, profile);
  const delayMs = Math.max(1, Math.round(1000 / options.rate));
  const pieces = piecesFor(options.kb);
  const conversation = longConversation(options.messages);
  const streams: Record<'chat' | 'baseline', StreamResult | undefined> = { chat: undefined, baseline: undefined };
  const opens: Record<'chat' | 'baseline', OpenResult[]> = { chat: [], baseline: [] };
  const loadStart = loadavg();
  let markdownStream: StreamResult | undefined;
  const hostile: HostileResult[] = [];
  try {
    // One page at a time: an idle second page would still run its frame loop on the same 2 cores.
    const streamOptions = {
      gatewayUrl: gateway.url,
      apiKey: gateway.apiKey,
      pieces,
      delayMs,
      timeoutMs: 30_000 + pieces * delayMs * 3,
    };
    for (const kind of ['baseline', 'chat'] as const) {
      const driver = await BenchPageDriver.open(context, server.url, kind);
      try {
        streams[kind] = await measureStream(driver, streamOptions);
        for (let run = 0; run < options.openRuns; run++)
          opens[kind].push(await measureOpen(driver, server.url, conversation));
      } finally {
        await driver.close();
      }
    }
    for (const input of options.hostile === undefined
      ? []
      : hostileInputs(1).filter((candidate) => candidate.name.includes(options.hostile ?? ''))) {
      const driver = await BenchPageDriver.open(context, server.url, 'chat');
      try {
        hostile.push(await measureHostile(driver, input, hostilePerFrame(input, options.hostileFrames)));
      } finally {
        await driver.close();
      }
    }
    if (options.markdownReplay) {
      const driver = await BenchPageDriver.open(context, server.url, 'chat');
      try {
        markdownStream = await measureStream(driver, {
          ...streamOptions,
          replay: markdownReplyPieces(options.kb * 1024),
        });
      } finally {
        await driver.close();
      }
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await server.stop();
    await gateway.stop();
  }

  const chat = streams.chat as StreamResult;
  const baseline = streams.baseline as StreamResult;
  const p95 = { chat: percentile(chat.latencies, 95), baseline: percentile(baseline.latencies, 95) };
  const longest = { chat: chat.tasks.longest[0] ?? 0, baseline: baseline.tasks.longest[0] ?? 0 };
  const open = { chat: median(opens.chat.map((o) => o.openMs)), baseline: median(opens.baseline.map((o) => o.openMs)) };
  const complete = {
    chat: median(opens.chat.map((o) => o.completeMs)),
    baseline: median(opens.baseline.map((o) => o.completeMs)),
  };
  const openLongest = (side: OpenResult[]): number => Math.max(0, ...side.map((o) => o.tasks.longest[0] ?? 0));
  const openLongestCpu = (side: OpenResult[]): number => Math.max(0, ...side.map((o) => o.tasks.longestCpu));
  const rows = [
    ['visible-token latency, median (ms)', ms(median(chat.latencies)), ms(median(baseline.latencies)), '', ''],
    [
      'visible-token latency, p95 (ms)',
      ms(p95.chat),
      ms(p95.baseline),
      `chat − baseline < ${TARGET_P95_OVER_BASELINE_MS} (is ${ms(p95.chat - p95.baseline)})`,
      mark(p95.chat - p95.baseline < TARGET_P95_OVER_BASELINE_MS && chat.unseen === 0),
    ],
    [
      `longest main-thread task, ${options.kb} KB stream, wall (ms)`,
      ms(longest.chat),
      ms(longest.baseline),
      `≤ ${TARGET_TASK_MS}`,
      mark(longest.chat <= TARGET_TASK_MS),
    ],
    [
      `tasks > ${TARGET_TASK_MS} ms, same stream, wall`,
      String(chat.tasks.over50),
      String(baseline.tasks.over50),
      '0',
      mark(chat.tasks.over50 === 0),
    ],
    [
      `longest main-thread task, same stream, CPU (ms)`,
      ms(chat.tasks.longestCpu),
      ms(baseline.tasks.longestCpu),
      `≤ ${TARGET_TASK_MS}`,
      mark(chat.tasks.longestCpu <= TARGET_TASK_MS),
    ],
    [
      `tasks > ${TARGET_TASK_MS} ms, same stream, CPU`,
      String(chat.tasks.over50Cpu),
      String(baseline.tasks.over50Cpu),
      '0',
      mark(chat.tasks.over50Cpu === 0),
    ],
    ...(markdownStream
      ? [
          [
            `diagnostic: ${options.kb} KB markdown reply replayed (many blocks), longest task wall / CPU (ms); tasks > ${TARGET_TASK_MS} ms wall / CPU`,
            `${ms(markdownStream.tasks.longest[0] ?? 0)} / ${ms(markdownStream.tasks.longestCpu)}; ${markdownStream.tasks.over50} / ${markdownStream.tasks.over50Cpu}`,
            '',
            `≤ ${TARGET_TASK_MS}; 0`,
            '',
          ],
        ]
      : []),
    [
      `open a ${options.messages}-message conversation (ms, median of ${options.openRuns})`,
      ms(open.chat),
      ms(open.baseline),
      `< ${TARGET_OPEN_MS}`,
      mark(open.chat < TARGET_OPEN_MS),
    ],
    ['… until every reply is rendered as markdown (ms, median)', ms(complete.chat), ms(complete.baseline), '', ''],
    [
      'longest task from open until then, wall / CPU (ms)',
      `${ms(openLongest(opens.chat))} / ${ms(openLongestCpu(opens.chat))}`,
      `${ms(openLongest(opens.baseline))} / ${ms(openLongestCpu(opens.baseline))}`,
      '',
      '',
    ],
  ];
  const streamLine = (name: string, r: StreamResult): string =>
    `- ${name}: ${r.pieces.toLocaleString('en-US')} pieces, ${(r.bytes / 1024).toFixed(1)} KB in ${r.seconds.toFixed(1)} s (${Math.round(r.pieces / r.seconds)} pieces/s, ${(r.bytes / 1024 / r.seconds).toFixed(2)} KB/s ≈ ${Math.round(r.bytes / 4 / r.seconds)} tokens/s at 4 bytes a token), ${r.messages.toLocaleString('en-US')} replyDelta messages${r.latencies.length ? `, ${r.unseen} pieces never shown` : ''}. ` +
    `${r.tasks.tasks.toLocaleString('en-US')} main-thread tasks using ${(r.tasks.cpuTotal / 1000).toFixed(1)} s of CPU; ten longest (wall) ${r.tasks.longest.map((d) => d.toFixed(0)).join(' ')} ms; 'longtask' observer: ${r.longTasks.count} (longest ${r.longTasks.longest.toFixed(0)} ms); ` +
    `longest task by CPU in each tenth of the stream: ${r.tasks.longestCpuByTenth.map((d) => d.toFixed(0)).join(' ')} ms; in the tasks over 50 ms (wall): ${
      r.tasks.longTaskBreakdown
        .slice(0, 5)
        .map((b) => `${b.name} ${b.ms.toFixed(0)} ms`)
        .join(', ') || 'none'
    }. ${r.latencies.length ? `Latency p99 ${ms(percentile(r.latencies, 99))} ms, max ${ms(Math.max(...r.latencies))} ms.` : ''}`;
  const openRuns = (side: OpenResult[]): string =>
    side
      .map(
        (o) =>
          `${o.openMs.toFixed(0)} (complete ${o.completeMs.toFixed(0)}, longest task ${(o.tasks.longest[0] ?? 0).toFixed(0)} wall / ${o.tasks.longestCpu.toFixed(0)} CPU)`,
      )
      .join('; ');
  const load = (values: number[]): string => values.map((v) => v.toFixed(1)).join(' / ');
  const lines = [
    '# Chat benchmark: the chat webview in Chromium vs raw text',
    '',
    `Headless Chromium (/usr/bin/chromium) via playwright-core, the real \`dist/webview/chat.js\` in a page served from 127.0.0.1 with the webviews' CSP and stylesheets; the baseline page has the same CSP, stylesheets and messages but appends raw text. Local gateway on its own thread. Node ${process.version}, ${cpus().length} cores, load average (1/5/15 min) ${load(loadStart)} at the start and ${load(loadavg())} at the end, ${new Date().toISOString()}, bench run ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    '',
    '| metric | chat | baseline | target | ok? |',
    '|---|---:|---:|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    `Streaming: \`${STREAM_MODEL}::delay-chunks=${delayMs}\` (a pause of ${delayMs} ms before each event: ${Math.round(1000 / delayMs)} pieces/s nominal; the timer and the writes make it somewhat slower), max_tokens ${pieces.toLocaleString('en-US')}: one ${options.kb} KB reply per side, through the real GatewayClient + runReply + DeltaBatcher (8 ms), each batch posted to the page as a \`replyDelta\` message (page.evaluate -> window.postMessage, not awaited, like webview.postMessage). A piece is a word with its whitespace (5.9 bytes on average). The bench model's text has line breaks but no blank line: to markdown it is **one paragraph** growing to ${options.kb} KB.`,
    streamLine('chat', chat),
    streamLine('baseline', baseline),
    ...(markdownStream
      ? [
          streamLine(
            'diagnostic, chat with a markdown reply replayed by the bench (not from the gateway; its pieces paced by a timer here; no latency: markdown syntax is not shown as typed)',
            markdownStream,
          ),
        ]
      : []),
    '',
    "Latency of a piece: from when the bench process received its chunk from the gateway (the gateway writes each event on its own with delay-chunks, on another thread; loopback and parsing add well under 1 ms) to the end of the first frame whose paint included it. In the page, a ResizeObserver on a sentinel resized every frame marks the point after layout and before paint; the renderer's text is counted there (non-whitespace characters of the reply element, which markdown does not change for this text) and the time is read in a task posted from it, which runs after the paint. Page times are put on the bench clock with an offset from the fastest of 25 round trips.",
    "Tasks: RunTask events of the page's renderer main thread in a CDP trace (devtools.timeline categories) covering the stream, cross-checked with a PerformanceObserver('longtask') in the page. Wall is what a user waits; CPU is the thread's own time (tdur), without the time the OS gave the core to other processes: on a loaded machine the two differ a lot. Both sides include the harness's own work per frame (one text count of the reply).",
    `Open: a freshly loaded page gets the \`conversation\` message (${conversation.turns.length} turns, ${(JSON.stringify(conversation).length / 1024).toFixed(0)} KB of JSON: markdown answers with lists, tables, quotes and ${conversation.turns.filter((t) => t.role === 'assistant' && t.content.includes('```')).length} fenced code blocks in 10 languages); time from posting it to the end of the first frame painted after its handler. The chat renders the newest turns' markdown at once (EAGER_TURNS in src/webview/chat/deferredReplies.ts) and shows older replies as plain text until they come near the viewport or the page is idle ("until every reply is rendered"). Runs ms: chat ${openRuns(opens.chat)}; baseline ${openRuns(opens.baseline)}.`,
    '',
  ];
  if (hostile.length) lines.push(...hostileTable(hostile, chat));
  const table = lines.join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'chat.md'), table);
  return table;
}

/** The hostile inputs' table: per input, the longest main-thread task and the total, next to the normal reply's. */
function hostileTable(results: readonly HostileResult[], normal: StreamResult): string[] {
  const rows = results.map((r) => {
    const ok = r.tasks.longestCpu <= TARGET_TASK_MS && r.tasks.over50Cpu === 0 && !r.errors.length && !r.unfinished;
    const problems = [
      ...r.errors.map((error) => `threw: ${error}`),
      ...(r.unfinished ? ['still rendering a minute after the last message'] : []),
    ].join('; ');
    return `| ${r.name} | ${(r.characters / 1024).toFixed(0)} KB | ${r.perFrame} × ${r.frames} | ${ms(r.tasks.longest[0] ?? 0)} / ${ms(r.tasks.longestCpu)} | ${r.tasks.over50} / ${r.tasks.over50Cpu} | ${(r.tasks.cpuTotal / 1000).toFixed(1)} s in ${r.seconds.toFixed(0)} s | ${problems || '-'} | ${mark(ok)} |`;
  });
  return [
    '## Hostile output (test/harness/hostileMarkdown.ts)',
    '',
    `Each input streamed into a fresh chat page as \`replyDelta\` messages, one per 60 Hz tick of characters a frame (33, i.e. 500 tokens/s, or more so that it takes at most ${Math.max(...results.map((r) => r.frames))} frames), then \`replyEnded\`; every main-thread task of the page from the first message until it has rendered the last (CDP trace). Target per input: no task over ${TARGET_TASK_MS} ms (CPU) and nothing thrown. For scale, the normal ${(normal.bytes / 1024).toFixed(0)} KB reply above: longest task ${ms(normal.tasks.longest[0] ?? 0)} ms wall / ${ms(normal.tasks.longestCpu)} ms CPU, ${(normal.tasks.cpuTotal / 1000).toFixed(1)} s of CPU in ${normal.seconds.toFixed(0)} s.`,
    '',
    '| input | size | characters × frames | longest task wall / CPU (ms) | tasks > 50 ms wall / CPU | main-thread CPU in all | errors | ok? |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
  ];
}
