// The three waits of a request, each with its own bound and its own words (rather than one long
// overall timer): opening the connection (short: an address that does not answer is known fast),
// the first byte of the answer (long: a reasoning model may think for minutes before its first
// word), and silence between chunks once the answer flows.
import { TimeoutError } from '../errors';
import type { TimeoutPhase } from '../errors';

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 300_000;
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export interface PhaseTimeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
}

/** What a caller may set: each phase, or `timeoutMs` (the older single bound) for first byte and silence both. */
export interface TimeoutSettings {
  timeoutMs?: number | undefined;
  connectTimeoutMs?: number | undefined;
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** Per-call settings win over the client's; a phase of its own wins over `timeoutMs` at the same level. */
export function resolveTimeouts(call: TimeoutSettings, client: TimeoutSettings): PhaseTimeouts {
  const pick = (own: keyof TimeoutSettings, fallback: number): number =>
    call[own] ??
    (own === 'connectTimeoutMs' ? undefined : call.timeoutMs) ??
    client[own] ??
    (own === 'connectTimeoutMs' ? undefined : client.timeoutMs) ??
    fallback;
  return {
    connectMs: pick('connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS),
    firstByteMs: pick('firstByteTimeoutMs', DEFAULT_FIRST_BYTE_TIMEOUT_MS),
    idleMs: pick('idleTimeoutMs', DEFAULT_IDLE_TIMEOUT_MS),
  };
}

/** `800 ms`, `15 s`, `5 min`, `2.5 min`. */
function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  const minutes = ms / 60_000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min`;
}

/** The error for a wait that ran out: which wait, how long, and what to do. */
export function phaseTimeout(phase: TimeoutPhase, ms: number | undefined, host: string): TimeoutError {
  const after = ms === undefined ? 'in time' : `within ${formatWait(ms)}`;
  switch (phase) {
    case 'connect':
      return new TimeoutError(
        `Could not connect to ${host} ${after} (connect timeout). Check the gateway address and that it is reachable from this machine (a VPN or a proxy may be needed), then try again.`,
        { code: 'timeout', phase },
      );
    case 'firstByte':
      return new TimeoutError(
        `${host} did not start answering ${after} (first-byte timeout). A slow reasoning model can think that long before its first word; otherwise the gateway or a proxy is stuck. Try again, or a faster model.`,
        { code: 'timeout', phase },
      );
    case 'idle':
      return new TimeoutError(
        `${host} sent nothing for ${ms === undefined ? 'too long' : formatWait(ms)} in the middle of the answer (silence timeout), so the connection was closed. What arrived is kept; try again.`,
        { code: 'timeout', phase },
      );
  }
}
