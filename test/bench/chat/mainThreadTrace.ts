// Main-thread tasks of the page, from a Chromium trace (CDP Tracing): every task the renderer's
// main thread ran while tracing, with its duration, also those under the 50 ms that the page's
// 'longtask' observer reports (so "the longest task" is known even when none is long).
import type { CDPSession, Page } from 'playwright-core';

export interface TaskStats {
  readonly tasks: number;
  /** Durations in ms, longest first (the ten longest). */
  readonly longest: readonly number[];
  readonly over50: number;
  /** The same by the thread's CPU time (tdur): what the page itself cost, without the time the OS
   *  gave the core to other processes (this machine is shared). */
  readonly longestCpu: number;
  readonly over50Cpu: number;
  /** CPU time of all tasks together, ms (how busy the page kept its main thread). */
  readonly cpuTotal: number;
  /** The longest task by CPU time in each tenth of the traced window, ms: growth over a stream shows here. */
  readonly longestCpuByTenth: readonly number[];
  /** Where the time of the tasks over 50 ms went: their direct sub-events by name, ms, largest first. */
  readonly longTaskBreakdown: readonly { readonly name: string; readonly ms: number }[];
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { name?: string; data?: { frames?: { url?: string; processId?: number }[] } };
}

/** RunTask is the top-level event of one task in the devtools timeline category. */
const CATEGORIES = ['disabled-by-default-devtools.timeline', 'devtools.timeline'];
const TASK = 'RunTask';

export async function startMainThreadTrace(page: Page): Promise<{ stop(): Promise<TaskStats> }> {
  const session: CDPSession = await page.context().newCDPSession(page);
  // Keep only what is needed (a 40 s trace of the timeline category is tens of MB of events).
  const kept: TraceEvent[] = [];
  session.on('Tracing.dataCollected', ({ value }) => {
    // The protocol types events as string maps; they are trace events (numbers for pid/tid/dur).
    for (const event of value as unknown as TraceEvent[]) {
      // Sub-events of a millisecond or more are enough to say where a long task's time went.
      const keep =
        (event.ph === 'X' && (event.name === TASK || (event.dur ?? 0) >= 1000)) ||
        (event.ph === 'M' && event.name === 'thread_name') ||
        event.name === 'TracingStartedInBrowser';
      if (keep) kept.push(event);
    }
  });
  await session.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
  });
  return {
    async stop(): Promise<TaskStats> {
      const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
      await session.send('Tracing.end');
      await complete;
      await session.detach();
      return summarize(kept, page.url());
    },
  };
}

function summarize(events: readonly TraceEvent[], url: string): TaskStats {
  const mains = events.filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain');
  const started = events.find((e) => e.name === 'TracingStartedInBrowser');
  const pagePid = started?.args?.data?.frames?.find((frame) => frame.url === url)?.processId;
  // The page's renderer: the one the trace names for our URL, else the busiest renderer main thread.
  const busiest = (): TraceEvent | undefined => {
    const count = (m: TraceEvent): number =>
      events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === TASK).length;
    return [...mains].sort((a, b) => count(b) - count(a))[0];
  };
  const main = mains.find((m) => m.pid === pagePid) ?? busiest();
  if (!main) throw new Error('the trace has no renderer main thread');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === TASK);
  const durations = tasks.map((e) => (e.dur ?? 0) / 1000).sort((a, b) => b - a);
  const long = tasks.filter((e) => (e.dur ?? 0) > 50_000);
  const cpu = tasks.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  return {
    tasks: durations.length,
    longest: durations.slice(0, 10),
    over50: long.length,
    longestCpu: cpu.reduce((a, b) => Math.max(a, b), 0),
    over50Cpu: cpu.filter((ms) => ms > 50).length,
    cpuTotal: cpu.reduce((a, b) => a + b, 0),
    longestCpuByTenth: byTenth(tasks),
    longTaskBreakdown: breakdown(
      long,
      onMain.filter((e) => e.name !== TASK),
    ),
  };
}

function byTenth(tasks: readonly TraceEvent[]): number[] {
  const tenths: number[] = Array.from({ length: 10 }, () => 0);
  if (tasks.length === 0) return tenths;
  const first = tasks.reduce((a, e) => Math.min(a, e.ts), Infinity);
  const last = tasks.reduce((a, e) => Math.max(a, e.ts), -Infinity);
  const span = Math.max(1, last - first);
  for (const task of tasks) {
    const index = Math.min(9, Math.floor(((task.ts - first) / span) * 10));
    tenths[index] = Math.max(tenths[index] ?? 0, (task.tdur ?? task.dur ?? 0) / 1000);
  }
  return tenths;
}

/** Sums the outermost sub-events of each task by name (nested ones are part of their parent's time). */
function breakdown(tasks: readonly TraceEvent[], inner: readonly TraceEvent[]): { name: string; ms: number }[] {
  const sorted = [...inner].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const totals = new Map<string, number>();
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    let coveredUntil = -Infinity;
    let covered = 0;
    for (const event of sorted) {
      if (event.ts < task.ts || event.ts + (event.dur ?? 0) > end || event.ts < coveredUntil) continue;
      coveredUntil = event.ts + (event.dur ?? 0);
      covered += event.dur ?? 0;
      totals.set(event.name, (totals.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
    }
    totals.set(
      '(not in a sub-event of 1 ms or more)',
      (totals.get('(not in a sub-event of 1 ms or more)') ?? 0) + ((task.dur ?? 0) - covered) / 1000,
    );
  }
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}
