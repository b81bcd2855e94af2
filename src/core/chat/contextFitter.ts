// The one stage of a reply's round that assembles what is sent: the runner asks it once per
// round (and once more only after the gateway refused that round as too long), streams the
// answer, reports the usage back once, runs the tools, and loops. The context keeper
// (context/contextKeeper.ts) is the fitter that compacts; wholeHistory is the one that does not.
import type { TokenUsage, WireMessage } from '../../shared/chatModel';

/** What a fitter hands back for one round: what to send, and the room left for the answer. */
export interface FittedRequest {
  readonly messages: readonly WireMessage[];
  readonly system?: string;
  /** Tokens the context leaves for the answer after this input (estimated); undefined when the context length is unknown. */
  readonly answerRoom?: number;
  /** The ratio the fitter estimates tokens with (calibrated by the gateway's counts); absent: the default. */
  readonly tokensPerChar?: number;
}

/** Fits each round's request into the model's context window. */
export interface ContextFitter {
  /** The messages (history and `tail`, the reply's own rounds) and system prompt to send; `refusedWith`: the gateway's context-length error for the last try. */
  fit(tail: readonly WireMessage[], refusedWith: unknown, signal: AbortSignal): Promise<FittedRequest>;
  /** One round's usage, as the gateway reported it. */
  measured(usage: TokenUsage): void;
}

/** Sends the whole history before the reply's own rounds, every round: no compaction, nothing measured. */
export function wholeHistory(history: readonly WireMessage[]): ContextFitter {
  return {
    fit: async (tail) => ({ messages: [...history, ...tail] }),
    measured: () => undefined,
  };
}
