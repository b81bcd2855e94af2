// How long `activate()` took, measured by the extension itself, and the log line that carries it.
// The line is the one place the figure can be read in a packaged (Production mode) extension,
// where there is no test API: `npm run bench -- activation` reads it from the log file, and a user
// sees it in "Unified Inference: Show Log". The clock is passed in (performance.now in the
// extension) so this stays pure and testable.

export interface ActivationTiming {
  /** From the first line of activate() to its first await: what blocks the extension host (VS Code calls it "Call Activate"). */
  readonly untilFirstAwaitMs: number;
  /** From the first line of activate() until its promise resolves, awaited work included ("Finish Activate" plus the above). */
  readonly totalMs: number;
  /** Of totalMs, the time spent waiting on awaited promises (secret storage, settings I/O): the rest is our own work on the host's thread. */
  readonly awaitedMs: number;
}

export interface ActivationClock {
  /** Wraps each promise activate() awaits: the first marks the end of the synchronous part, and every wait is summed. */
  awaiting<T>(promise: Promise<T>): Promise<T>;
  /** Call when activate() is about to return; later calls return the first result. */
  finish(): ActivationTiming;
}

export function startActivationClock(now: () => number): ActivationClock {
  const start = now();
  let firstAwaitAt: number | undefined;
  let awaitedMs = 0;
  let result: ActivationTiming | undefined;
  return {
    awaiting: async (promise) => {
      const from = now();
      firstAwaitAt ??= from;
      try {
        return await promise;
      } finally {
        awaitedMs += now() - from;
      }
    },
    finish: () => {
      if (result) return result;
      const end = now();
      result = { untilFirstAwaitMs: (firstAwaitAt ?? end) - start, totalMs: end - start, awaitedMs };
      return result;
    },
  };
}

const NUMBER = '(\\d+(?:\\.\\d+)?)';
const LINE = new RegExp(`activated in ${NUMBER} ms \\(${NUMBER} ms before its first await, ${NUMBER} ms awaiting\\)`);

export function formatActivationLine(version: string, timing: ActivationTiming): string {
  const ms = (n: number): string => n.toFixed(1);
  return `Unified Inference ${version} activated in ${ms(timing.totalMs)} ms (${ms(timing.untilFirstAwaitMs)} ms before its first await, ${ms(timing.awaitedMs)} ms awaiting).`;
}

/** The timing in a log text (the last activation in it), or undefined when it holds none. */
export function parseActivationLine(text: string): ActivationTiming | undefined {
  const lines = text.split('\n').filter((line) => LINE.test(line));
  const match = LINE.exec(lines[lines.length - 1] ?? '');
  if (!match) return undefined;
  return { totalMs: Number(match[1]), untilFirstAwaitMs: Number(match[2]), awaitedMs: Number(match[3]) };
}
