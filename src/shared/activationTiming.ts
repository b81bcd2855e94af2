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
  /** activate()'s own work (awaited time left out) split at the points it named: what to make lazy next. */
  readonly phases: readonly ActivationPhase[];
}

interface ActivationPhase {
  readonly name: string;
  readonly ms: number;
}

export interface ActivationClock {
  /** Wraps each promise activate() awaits: the first marks the end of the synchronous part, and every wait is summed. */
  awaiting<T>(promise: Promise<T>): Promise<T>;
  /** Ends the phase of own work that ran since the previous phase (or the start), under this name. */
  phase(name: string): void;
  /** Call when activate() is about to return; later calls return the first result. */
  finish(): ActivationTiming;
}

export function startActivationClock(now: () => number): ActivationClock {
  const start = now();
  let firstAwaitAt: number | undefined;
  let awaitedMs = 0;
  let result: ActivationTiming | undefined;
  const phases: ActivationPhase[] = [];
  // Where the current phase began, moved later by every wait so that a phase holds only own work.
  let phaseStart = start;
  return {
    awaiting: async (promise) => {
      const from = now();
      firstAwaitAt ??= from;
      try {
        return await promise;
      } finally {
        const waited = now() - from;
        awaitedMs += waited;
        phaseStart += waited;
      }
    },
    phase: (name) => {
      const at = now();
      phases.push({ name, ms: at - phaseStart });
      phaseStart = at;
    },
    finish: () => {
      if (result) return result;
      const end = now();
      result = {
        untilFirstAwaitMs: (firstAwaitAt ?? end) - start,
        totalMs: end - start,
        awaitedMs,
        phases: [...phases],
      };
      return result;
    },
  };
}

const ms = (n: number): string => n.toFixed(1);

export function formatActivationLine(version: string, timing: ActivationTiming): string {
  return `Unified Inference ${version} activated in ${ms(timing.totalMs)} ms (${ms(timing.untilFirstAwaitMs)} ms before its first await, ${ms(timing.awaitedMs)} ms awaiting).`;
}

/** The log line after formatActivationLine's: the phases, or undefined when none were named. */
export function formatActivationPhases(timing: ActivationTiming): string | undefined {
  if (!timing.phases.length) return undefined;
  return `Activation phases, own work in ms: ${timing.phases.map((p) => `${p.name} ${ms(p.ms)}`).join(', ')}.`;
}
