// How many tokens a request will take, before the gateway says. No tokenizer: the gateway fronts
// many providers, each with its own (and none is exposed), and a bundled BPE table would weigh
// megabytes for one family's numbers only. So a character count, deliberately pessimistic:
// English prose is about 4 characters per token with current tokenizers, code and non-Latin
// text denser, so 3 characters per token compacts a little early rather than late. After a reply
// the gateway's own usage figure recalibrates the ratio for the conversation (calibratedRatio).
// The parts counted are the chat's wire parts, the ones it replays (shared/chatModel.ts).
import type { WireMessage, WirePart } from '../../shared/chatModel';

/** Tokens per character when nothing was measured yet (see above). */
export const DEFAULT_TOKENS_PER_CHAR = 1 / 3;
/** Role markers and separators each message costs beyond its text (OpenAI documents 3 to 4). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * An image as characters: providers bill an image by its pixels, up to about 1,600 tokens for a
 * large one (Anthropic's (width x height) / 750, capped by downscaling); counted as that, pessimistic.
 */
export const IMAGE_CHARS = 1600 * 3;

function partChars(part: WirePart): number {
  switch (part.kind) {
    case 'text':
      return part.text.length;
    case 'thinking':
      return part.thinking.length;
    case 'redactedThinking':
      return part.data.length;
    case 'toolCall':
      return part.name.length + (JSON.stringify(part.input ?? {})?.length ?? 2);
    case 'toolResult':
      return part.content.length;
    case 'image':
      return IMAGE_CHARS;
  }
}

export function messageChars(message: WireMessage): number {
  let chars = 0;
  for (const part of message.parts) chars += partChars(part);
  return chars;
}

export function estimateTextTokens(text: string, tokensPerChar = DEFAULT_TOKENS_PER_CHAR): number {
  return Math.ceil(text.length * tokensPerChar);
}

export function estimateMessageTokens(message: WireMessage, tokensPerChar = DEFAULT_TOKENS_PER_CHAR): number {
  return MESSAGE_OVERHEAD_TOKENS + Math.ceil(messageChars(message) * tokensPerChar);
}

/** A whole request: the system prompt (one message), the messages, and tool definitions (as their JSON). */
export function estimateRequestTokens(
  request: { readonly system?: string; readonly messages: readonly WireMessage[]; readonly toolChars?: number },
  tokensPerChar = DEFAULT_TOKENS_PER_CHAR,
): number {
  let tokens = request.system ? MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(request.system, tokensPerChar) : 0;
  for (const message of request.messages) tokens += estimateMessageTokens(message, tokensPerChar);
  return tokens + Math.ceil((request.toolChars ?? 0) * tokensPerChar);
}

/**
 * The ratio to use after the gateway measured a request: the measured tokens over the request's
 * characters, never below the default (one short, wordy request must not make the estimate
 * optimistic) and never absurd (a gateway that reports nonsense cannot make every text "huge").
 */
export function calibratedRatio(measuredTokens: number, chars: number, base = DEFAULT_TOKENS_PER_CHAR): number {
  if (!(measuredTokens > 0) || !(chars > 0)) return base;
  return Math.min(2, Math.max(base, measuredTokens / chars));
}
