// How much of the model's context the next request would hold: measured (the last reply's usage,
// as the gateway counted it) or estimated from characters (before the first reply, or after the
// model or the attachments changed). The estimate builds the system prompt as the reply will, with
// the same builder. Pure.
import { systemPrompt } from '../systemPrompt';
import {
  DEFAULT_TOKENS_PER_CHAR,
  estimateRequestTokens,
  estimateTextTokens,
  IMAGE_CHARS,
} from '../../context/tokenEstimate';
import type { Attachment, Conversation } from '../../../shared/chatModel';
import type { ContextMeter } from '../../../shared/chatProtocol';
import { turnsToWire, userTurnText } from '../conversationWire';
import { compactedHistory, compactionNote, summaryMessage } from './compactedHistory';
import { instructionPrompt, type InstructionFile } from './instructionPrompt';

export interface MeterInput {
  readonly conversation: Conversation;
  /** Added for the next message, not sent yet. */
  readonly attachments: readonly Attachment[];
  /** Images added for the next message, not sent yet (each counts as the estimate's image). */
  readonly pendingImages?: number;
  readonly instructionFiles: readonly InstructionFile[];
  /** The model the next request goes to. */
  readonly model: string;
  /** From the catalog; undefined when it lists none. */
  readonly contextLength?: number;
  /** The workspace tools are on but withheld (untrusted workspace): the system prompt says so. */
  readonly toolsWithheld: boolean;
  /** Characters of the tool definitions the next request offers (0 when none). */
  readonly toolChars: number;
}

export function estimateContextMeter(input: MeterInput): ContextMeter {
  const { conversation, attachments, instructionFiles: files, model } = input;
  const chips = files.map((file) => ({
    path: file.path,
    tokens: estimateTextTokens(file.text),
    truncated: file.truncated,
  }));
  const last = conversation.turns[conversation.turns.length - 1];
  const pending =
    (attachments.length ? estimateTextTokens(userTurnText({ text: '', attachments })) : 0) +
    (input.pendingImages ?? 0) * Math.ceil(IMAGE_CHARS * DEFAULT_TOKENS_PER_CHAR);
  const base = { ...(input.contextLength ? { contextLength: input.contextLength } : {}), files: chips };
  if (last?.role === 'assistant' && last.context?.usedTokens && last.model === model) {
    return { ...base, usedTokens: last.context.usedTokens + pending, source: pending ? 'estimated' : 'measured' };
  }
  const history = compactedHistory(conversation.turns);
  const instructions = instructionPrompt(files);
  const compaction = compactionNote(history.summary, history.dropped);
  const system = systemPrompt({
    ...(conversation.parameters.systemPrompt ? { conversationPrompt: conversation.parameters.systemPrompt } : {}),
    toolsWithheld: input.toolsWithheld,
    ...(instructions ? { instructions } : {}),
    ...(compaction ? { compaction } : {}),
  });
  const messages = [...(history.summary ? [summaryMessage(history.summary)] : []), ...turnsToWire(history.turns)];
  const usedTokens =
    estimateRequestTokens({ system, messages, toolChars: input.toolChars }, history.tokensPerChar) + pending;
  return { ...base, usedTokens, source: 'estimated' };
}
