// What one round adds to the per-reply spend cap's count. The gateway's token counts when it sent
// them; for a count it did not send (no usage at all: a gateway that ignores stream_options, a
// proxy that drops the usage chunk; or a 0 where something was sent or received), an estimate from
// the characters of the round, at the context keeper's tokens-per-character ratio (pessimistic by
// default). Without it the cap would fail open: tool rounds without counts would run uncapped.
import {
  DEFAULT_TOKENS_PER_CHAR,
  estimateRequestTokens,
  messageChars,
  MESSAGE_OVERHEAD_TOKENS,
} from '../../context/tokenEstimate';
import type { TokenUsage, WireMessage, WirePart } from '../../../shared/chatModel';

/** What a round sent, as its fitter assembled it. */
export interface RoundSent {
  readonly system?: string;
  readonly messages: readonly WireMessage[];
  /** Characters of the tool definitions sent with it. */
  readonly toolChars: number;
  /** The fitter's ratio (calibrated by earlier replies' counts); the default without one. */
  readonly tokensPerChar?: number;
}

/** What a round received: the assistant message's parts, and reasoning streamed outside them (chat completions). */
export interface RoundReceived {
  readonly parts: readonly WirePart[];
  readonly reasoningChars: number;
}

export interface CapCharge {
  /** The tokens to add to the gateway's counts (0 and 0 when it counted everything). */
  readonly estimatedExtra: TokenUsage;
  /** Whether any of the round's count is an estimate. */
  readonly estimated: boolean;
}

/** The tokens the cap counts for a round beyond what the gateway reported for it. */
export function capCharge(measured: TokenUsage | undefined, sent: RoundSent, received: RoundReceived): CapCharge {
  const promptKnown = (measured?.promptTokens ?? 0) > 0; // no request is free of input
  const outputChars =
    messageChars({ role: 'assistant', parts: received.parts }) +
    // Messages streams carry thinking as parts and as reasoning deltas: counted once.
    (received.parts.some((part) => part.kind === 'thinking') ? 0 : received.reasoningChars);
  const completionKnown = (measured?.completionTokens ?? 0) > 0 || outputChars === 0;
  const promptTokens = promptKnown ? 0 : estimateRequestTokens(sent, sent.tokensPerChar);
  const completionTokens = completionKnown
    ? 0
    : MESSAGE_OVERHEAD_TOKENS + Math.ceil(outputChars * (sent.tokensPerChar ?? DEFAULT_TOKENS_PER_CHAR));
  return { estimatedExtra: { promptTokens, completionTokens }, estimated: !promptKnown || !completionKnown };
}
