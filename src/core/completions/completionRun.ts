// One completion request from prompt to insertion: the stream is read only until the completion
// is complete (then it is aborted: the gateway stops generating and we stop paying), a hostile
// answer (huge, endless) is cut at a bound and shows nothing, and what it cost is counted even
// when it was cut (the gateway's usage when it sent one, an estimate from the characters otherwise).
import { estimateTextTokens } from '../context/tokenEstimate';
import type { CompletionPrompt } from './completionInput';
import { completionIsComplete } from './completionStop';
import { insertionFrom } from './completionText';
import { COMPLETION_ABORTED } from './completionAbort';

/** More raw text than any completion needs (a block is a few hundred tokens): past it the answer is not one. */
export const MAX_COMPLETION_RAW_CHARS = 16_000;
/** A completion later than this is no use to someone typing: the request is stopped and shows nothing. */
const MAX_COMPLETION_MS = 20_000;

interface CompletionUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Streams the prompt's answer, handing each text delta to `onText`; resolves with the gateway's usage when it sent one. */
export type CompletionSend = (
  prompt: CompletionPrompt,
  onText: (delta: string) => void,
  signal: AbortSignal,
) => Promise<{ readonly usage?: CompletionUsage }>;

export interface CompletionOutcome {
  /** What to show (undefined: nothing; '' never shows either). */
  readonly insertion: string | undefined;
  /** The raw characters received. */
  readonly rawChars: number;
  readonly usage: CompletionUsage;
  /** The usage is estimated (the stream was cut before the gateway said). */
  readonly estimated: boolean;
  /** Stopped because the completion was complete before the model finished. */
  readonly stoppedEarly: boolean;
  /** Stopped because the answer passed a bound (size or time): shows nothing. */
  readonly bounded: boolean;
  /** Stopped from outside (superseded, cancelled): shows nothing. */
  readonly aborted: boolean;
  /** The model the request went to (the extension sets it: the price is that model's, not the one picked since). */
  readonly model?: string;
}

/**
 * What a request cut before the gateway said its usage cost, estimated. The prompt counts only once
 * the model answered (a delta arrived): a request aborted while waiting (superseded by the next
 * keystroke) is not billed for a prompt the model never read, and a count of every such keystroke
 * would show a spend many times the real one.
 */
function estimate(prompt: CompletionPrompt, raw: string, answered: boolean): CompletionUsage {
  if (!answered) return { promptTokens: 0, completionTokens: 0 };
  return {
    promptTokens: estimateTextTokens(prompt.system) + estimateTextTokens(prompt.user),
    completionTokens: estimateTextTokens(raw),
  };
}

/**
 * Runs one request. Throws only what the request failed with (offline, 401, 429...); an abort from
 * outside resolves with `aborted`, so what a cut request cost is still counted.
 */
export async function runCompletion(
  prompt: CompletionPrompt,
  send: CompletionSend,
  signal: AbortSignal,
  maxMs = MAX_COMPLETION_MS,
): Promise<CompletionOutcome> {
  const controller = new AbortController();
  const stopOnOuter = (): void => controller.abort(COMPLETION_ABORTED);
  signal.addEventListener('abort', stopOnOuter, { once: true });
  let raw = '';
  let answered = false;
  let stoppedEarly = false;
  let bounded = false;
  const timer = setTimeout(() => {
    bounded = true;
    controller.abort(COMPLETION_ABORTED);
  }, maxMs);
  const onText = (delta: string): void => {
    answered = true;
    if (controller.signal.aborted) return;
    raw += delta;
    if (raw.length > MAX_COMPLETION_RAW_CHARS) {
      bounded = true;
      controller.abort(COMPLETION_ABORTED);
    } else if (completionIsComplete(raw, prompt)) {
      stoppedEarly = true;
      controller.abort(COMPLETION_ABORTED);
    }
  };
  let usage: CompletionUsage | undefined;
  try {
    usage = (await send(prompt, onText, controller.signal)).usage;
    // The stream ended by itself: the model answered (perhaps nothing), the prompt was read.
    answered = true;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stopOnOuter);
  }
  const aborted = signal.aborted;
  const shows = !aborted && !bounded;
  return {
    insertion: shows ? insertionFrom(raw, prompt) : undefined,
    rawChars: raw.length,
    usage: usage ?? estimate(prompt, raw, answered),
    estimated: usage === undefined,
    stoppedEarly: stoppedEarly && !aborted,
    bounded,
    aborted,
  };
}
