// The extension's activation line in its log (formatActivationLine and formatActivationPhases in
// src/shared/activationTiming.ts) read back: the bench has no test API in the VS Code it launches,
// so it reads the timing from the log file the extension wrote.
import type { ActivationTiming } from '../../../src/shared/activationTiming';

const NUMBER = '(\\d+(?:\\.\\d+)?)';
const LINE = new RegExp(`activated in ${NUMBER} ms \\(${NUMBER} ms before its first await, ${NUMBER} ms awaiting\\)`);

const PHASES = /Activation phases, own work in ms: (.*)\.\s*$/;
const PHASE = new RegExp(`^(.+) ${NUMBER}$`);

/** The timing in a log text (the last activation in it), or undefined when it holds none. */
export function parseActivationLine(text: string): ActivationTiming | undefined {
  const lines = text.split('\n');
  let at = lines.length - 1;
  while (at >= 0 && !LINE.test(lines[at] as string)) at--;
  const match = LINE.exec(lines[at] ?? '');
  if (!match) return undefined;
  const phaseList = PHASES.exec(lines[at + 1] ?? '')?.[1];
  const phases = (phaseList ? phaseList.split(', ') : []).flatMap((part) => {
    const phase = PHASE.exec(part);
    return phase ? [{ name: phase[1] as string, ms: Number(phase[2]) }] : [];
  });
  return { totalMs: Number(match[1]), untilFirstAwaitMs: Number(match[2]), awaitedMs: Number(match[3]), phases };
}
