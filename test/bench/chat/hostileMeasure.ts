// Output written to freeze or break the renderer (test/harness/hostileMarkdown.ts), streamed into
// the real chat page one animation frame's worth at a time, as `replyDelta` messages: every
// main-thread task the page ran meanwhile (CDP trace), and whatever it threw. The question each row
// answers: does one frame ever take more than 50 ms, and does the total stay proportional to the
// text (compare the CPU total with the normal 100 KB reply's)?
import type { AssistantTurn, Conversation, UserTurn } from '../../../src/shared/chatModel';
import type { HostileInput } from '../../harness/hostileMarkdown';
import type { BenchPageDriver } from './benchPage';
import { startMainThreadTrace, type TaskStats } from './mainThreadTrace';

export interface HostileResult {
  readonly name: string;
  readonly characters: number;
  readonly perFrame: number;
  readonly frames: number;
  readonly seconds: number;
  readonly tasks: TaskStats;
  /** Errors the page reported (uncaught exceptions), first few. */
  readonly errors: string[];
  /** The reply was still not rendered this long after the last message (a page far behind). */
  readonly unfinished: boolean;
}

const FRAME_MS = 1000 / 60;
/** After the last message, how long the page may take to catch up before the trace is cut. */
const SETTLE_MS = 60_000;
const REPLY_ID = 'bench-hostile';

/**
 * Streams `input` at `perFrame` characters a frame (a 60 Hz timer here; the page renders on its own
 * animation frames, so when it is slower it renders more per frame, as it would in VS Code).
 */
export async function measureHostile(
  driver: BenchPageDriver,
  input: HostileInput,
  perFrame: number,
): Promise<HostileResult> {
  const errors: string[] = [];
  const onError = (error: Error): void => void errors.push(error.message.slice(0, 120));
  driver.page.on('pageerror', onError);
  const now = Date.now();
  const conversation: Conversation = {
    id: 'bench-hostile',
    title: 'Hostile output',
    model: 'sim-bench/hostile',
    parameters: {},
    turns: [],
    createdAt: now,
    updatedAt: now,
  };
  const user: UserTurn = {
    role: 'user',
    id: 'bench-hostile-question',
    text: 'Break the renderer.',
    attachments: [],
    createdAt: now,
  };
  const reply: AssistantTurn = {
    role: 'assistant',
    id: REPLY_ID,
    model: 'sim-bench/hostile',
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: now,
  };
  driver.post({ type: 'connectionState', state: { baseUrl: 'http://127.0.0.1', keySource: 'secretStorage' } });
  driver.post({ type: 'conversation', conversation, busy: false });
  driver.post({ type: 'userTurn', turn: user });
  driver.post({ type: 'replyStarted', turn: reply });
  await driver.watch(`[data-turn-id="${REPLY_ID}"] .content`);

  const trace = await startMainThreadTrace(driver.page);
  const started = performance.now();
  let frames = 0;
  for (let at = 0; at < input.markdown.length; at += perFrame) {
    driver.post({ type: 'replyDelta', id: REPLY_ID, content: input.markdown.slice(at, at + perFrame) });
    frames++;
    const due = started + frames * FRAME_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  driver.post({ type: 'replyEnded', id: REPLY_ID, status: 'done', finishReason: 'stop' });
  const seconds = (performance.now() - started) / 1000;
  // Every message delivered, then two frames: the page has handled them and rendered what they left.
  const caughtUp = Promise.all([
    driver.settled(),
    driver.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))),
  ]);
  const unfinished = await Promise.race([
    caughtUp.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), SETTLE_MS)),
  ]);
  const tasks = await trace.stop();
  driver.page.off('pageerror', onError);
  return {
    name: input.name,
    characters: input.markdown.length,
    perFrame,
    frames,
    seconds,
    tasks,
    errors: errors.slice(0, 3),
    unfinished,
  };
}

/** Characters a frame for `input`: its own (33, 500 tokens/s), or more so that it streams in at most `maxFrames` frames. */
export function hostilePerFrame(input: HostileInput, maxFrames: number): number {
  return Math.max(input.perFrame, Math.ceil(input.markdown.length / maxFrames));
}
