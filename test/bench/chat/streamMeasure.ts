// Streams one long reply from the gateway into a page through the controller's own pieces (the
// real GatewayClient, runReply, DeltaBatcher, `replyDelta` messages) and measures, per streamed
// piece, when it became visible, and every main-thread task the page ran meanwhile.
import { GatewayClient } from '../../../src/core/transport/client';
import { DeltaBatcher } from '../../../src/core/chat/deltaBatcher';
import { runReply } from '../../../src/core/chat/replyRunner';
import type { AssistantTurn, Conversation, UserTurn } from '../../../src/shared/chatModel';
import { nodeClock, type BenchPageDriver } from './benchPage';
import { startMainThreadTrace, type TaskStats } from './mainThreadTrace';
import type { BenchPage } from './pageScripts';
import { visibleChars } from './stats';

export const STREAM_MODEL = 'sim-bench/stream-bench';

export interface StreamOptions {
  readonly gatewayUrl: string;
  readonly apiKey: string;
  /** Content pieces the bench model streams (each is one chunk, a word with its whitespace). */
  readonly pieces: number;
  /** The gateway's pause before each event (`delay-chunks`): 2 ms is 500 pieces a second. */
  readonly delayMs: number;
  /** The whole stream is aborted after this (a hung page must not hang the bench). */
  readonly timeoutMs: number;
  /**
   * Diagnostic: these pieces, paced by a timer here, instead of the gateway's stream (whose text is
   * one paragraph). No latency then: markdown syntax makes rendered and streamed text differ.
   */
  readonly replay?: readonly string[];
}

export interface StreamResult {
  /** Per piece: node receive time -> after the paint of the frame that showed it, ms (empty for a replay). */
  readonly latencies: readonly number[];
  /** Pieces never seen in the page (should be 0). */
  readonly unseen: number;
  readonly pieces: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly messages: number;
  readonly tasks: TaskStats;
  /** What the page's own 'longtask' observer saw in the same window. */
  readonly longTasks: { readonly count: number; readonly longest: number };
}

const REPLY_ID = 'bench-reply';

export async function measureStream(driver: BenchPageDriver, options: StreamOptions): Promise<StreamResult> {
  const client = new GatewayClient({ baseUrl: options.gatewayUrl, apiKey: options.apiKey, maxRetries: 0 });
  const now = Date.now();
  const conversation: Conversation = {
    id: 'bench-stream',
    title: 'Streaming benchmark',
    model: STREAM_MODEL,
    parameters: {},
    turns: [],
    createdAt: now,
    updatedAt: now,
  };
  const user: UserTurn = {
    role: 'user',
    id: 'bench-question',
    text: 'Write a long answer.',
    attachments: [],
    createdAt: now,
  };
  const reply: AssistantTurn = {
    role: 'assistant',
    id: REPLY_ID,
    model: STREAM_MODEL,
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: now,
  };

  // What the controller sends before a reply streams.
  driver.post({ type: 'connectionState', state: { baseUrl: options.gatewayUrl, keySource: 'secretStorage' } });
  driver.post({ type: 'conversation', conversation, busy: false });
  driver.post({ type: 'userTurn', turn: user });
  driver.post({ type: 'replyStarted', turn: { ...reply } });
  await driver.watch(`[data-turn-id="${REPLY_ID}"] .content`);

  const trace = await startMainThreadTrace(driver.page);
  const windowStart = nodeClock();
  const received: number[] = [];
  let visibleSoFar = 0;
  let batchEnds: number[] = [];
  let messages = 0;
  const batcher = new DeltaBatcher((content) => {
    driver.post({ type: 'replyDelta', id: REPLY_ID, content }, batchEnds);
    batchEnds = [];
    messages++;
  });
  const onPiece = (content: string | undefined): void => {
    if (!content) return;
    // The piece's stamp: when this process had it from the gateway (see chatBench.ts).
    received.push(nodeClock());
    visibleSoFar += visibleChars(content);
    batchEnds.push(visibleSoFar);
    batcher.add(content, undefined);
  };
  const signal = AbortSignal.timeout(options.timeoutMs);
  if (options.replay) {
    await replay(options.replay, options.delayMs, onPiece, signal);
    reply.content = options.replay.join('');
  } else {
    await runReply({
      client,
      request: { model: `${STREAM_MODEL}::delay-chunks=${options.delayMs}`, api: 'chat', maxTokens: options.pieces },
      history: [{ role: 'user', parts: [{ kind: 'text', text: user.text }] }],
      reply,
      events: { delta: onPiece, toolStep: () => undefined },
      signal,
    });
  }
  batcher.flush();
  driver.post({
    type: 'replyEnded',
    id: REPLY_ID,
    status: 'done',
    ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
    ...(reply.usage ? { usage: reply.usage } : {}),
  });
  await driver.settled();

  const visibleAt = (): Promise<number[]> => driver.page.evaluate(() => (window.__bench as BenchPage).visibleAt());
  if (options.replay) await new Promise((resolve) => setTimeout(resolve, 500));
  else
    await driver
      .until(async () => (await visibleAt()).every((t) => t >= 0), 10_000, 'did not show the whole reply')
      .catch(() => undefined);
  const tasks = await trace.stop();
  const windowEnd = nodeClock();
  const shown = options.replay ? [] : await visibleAt();
  const latencies = shown.flatMap((t, i) => (t >= 0 ? [driver.toNodeTime(t) - (received[i] as number)] : []));
  const longTasks = (await driver.page.evaluate(() => (window.__bench as BenchPage).longTasks())).filter((task) => {
    const start = driver.toNodeTime(task.start);
    return start >= windowStart && start <= windowEnd;
  });
  return {
    latencies,
    unseen: options.replay ? 0 : received.length - latencies.length,
    pieces: received.length,
    bytes: Buffer.byteLength(reply.content, 'utf8'),
    seconds: ((received[received.length - 1] ?? 0) - (received[0] ?? 0)) / 1000,
    messages,
    tasks,
    longTasks: { count: longTasks.length, longest: Math.max(0, ...longTasks.map((task) => task.duration)) },
  };
}

/** Paces pieces like the gateway's delay-chunks (a pause, then one piece). */
async function replay(
  pieces: readonly string[],
  delayMs: number,
  onPiece: (piece: string) => void,
  signal: AbortSignal,
): Promise<void> {
  for (const piece of pieces) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    onPiece(piece);
  }
}
