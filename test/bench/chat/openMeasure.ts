// Opening a long conversation: a freshly loaded page (as when VS Code shows the chat view) gets the
// `conversation` message, and the time runs from posting it to the end of the first frame painted
// after its handler ran (see benchHarness in pageScripts.ts). The chat renders the markdown of
// older replies later (near the viewport or when idle): the time until none is left, and every
// main-thread task until then, are measured too.
import type { Conversation } from '../../../src/shared/chatModel';
import type { BenchPageDriver } from './benchPage';
import { startMainThreadTrace, type TaskStats } from './mainThreadTrace';
import type { BenchPage } from './pageScripts';

export interface OpenResult {
  /** Posting the message -> end of the first frame painted after it was handled. */
  readonly openMs: number;
  /** Posting the message -> no reply left with its markdown unrendered (within ~20 ms). */
  readonly completeMs: number;
  /** Every main-thread task from the post until complete. */
  readonly tasks: TaskStats;
}

/** What the chat puts on a reply whose markdown is deferred (AssistantTurnView in assistantTurnView.ts). */
const DEFERRED = '[data-md-deferred]';
const COMPLETE_TIMEOUT_MS = 30_000;

export async function measureOpen(
  driver: BenchPageDriver,
  serverUrl: string,
  conversation: Conversation,
): Promise<OpenResult> {
  await driver.load(serverUrl);
  driver.post({ type: 'connectionState', state: { baseUrl: 'http://127.0.0.1', keySource: 'secretStorage' } });
  await driver.settled();
  const trace = await startMainThreadTrace(driver.page);
  await driver.page.evaluate((message) => (window.__bench as BenchPage).open(message), {
    type: 'conversation' as const,
    conversation,
    busy: false,
  });
  const openMs = (): Promise<number | undefined> => driver.page.evaluate(() => (window.__bench as BenchPage).openMs());
  await driver.until(async () => (await openMs()) !== undefined, COMPLETE_TIMEOUT_MS, 'did not open the conversation');
  let completeMs = NaN;
  await driver.until(
    async () => {
      // querySelector, not ...All: this poll must not be a cost of its own over 500 turns.
      const [left, now, start] = await driver.page.evaluate(
        (selector) =>
          [
            document.querySelector(selector) !== null,
            (window.__bench as BenchPage).clock(),
            (window.__bench as BenchPage).openStartedAt() ?? NaN,
          ] as const,
        DEFERRED,
      );
      if (!left) completeMs = now - start;
      return !left;
    },
    COMPLETE_TIMEOUT_MS,
    'did not render every reply',
  );
  const tasks = await trace.stop();
  const shown = await driver.page.evaluate(() => document.querySelectorAll('[data-turn-id]').length);
  if (shown !== conversation.turns.length)
    throw new Error(`the ${driver.kind} page shows ${shown} of ${conversation.turns.length} turns`);
  return { openMs: (await openMs()) as number, completeMs, tasks };
}
