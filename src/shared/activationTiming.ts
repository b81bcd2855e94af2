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
}

export interface ActivationClock {
  /** Call right before activate()'s first await. */
  firstAwait(): void;
  /** Call when activate() is about to return; later calls return the first result. */
  finish(): ActivationTiming;
}

export function startActivationClock(now: () => number): ActivationClock {
  const start = now();
  let firstAwaitAt: number | undefined;
  let result: ActivationTiming | undefined;
  return {
    firstAwait: () => {
      firstAwaitAt ??= now();
    },
    finish: () => {
      if (result) return result;
      const end = now();
      result = { untilFirstAwaitMs: (firstAwaitAt ?? end) - start, totalMs: end - start };
      return result;
    },
  };
}

const LINE = /activated in (\d+(?:\.\d+)?) ms \((\d+(?:\.\d+)?) ms before its first await\)/;

export function formatActivationLine(version: string, timing: ActivationTiming): string {
  return `Unified Inference ${version} activated in ${timing.totalMs.toFixed(1)} ms (${timing.untilFirstAwaitMs.toFixed(1)} ms before its first await).`;
}

/** The timing in a log text (the last activation in it), or undefined when it holds none. */
export function parseActivationLine(text: string): ActivationTiming | undefined {
  const lines = text.split('\n').filter((line) => LINE.test(line));
  const match = LINE.exec(lines[lines.length - 1] ?? '');
  if (!match) return undefined;
  return { totalMs: Number(match[1]), untilFirstAwaitMs: Number(match[2]) };
}
