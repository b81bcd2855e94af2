// Writes the summary of old turns through the gateway, with the conversation's own model. When
// the old turns alone are longer than the model's context, they go in chunks, each added to the
// summary so far. Pure (no vscode import): unit-tested in Node against the local gateway.
import { estimateTextTokens, trimMiddle, type ContextTurn, type GatewayClient } from '../../../core/index';
import type { TokenUsage } from '../../../shared/chatModel';
import { streamGatewayAnswer, type GatewayAnswerRequest } from '../../languageModels/gatewayAnswer';

export const SUMMARY_SYSTEM =
  'You compress a conversation between a user and an AI coding assistant so it can continue within a smaller context window. ' +
  'Write concise notes: the user\'s goals and requests, decisions and conclusions, facts learned, file names, code identifiers, commands, and open questions. ' +
  'Keep exact names and numbers. Do not answer the user and do not add anything that is not in the conversation.';

/** A tool result in the transcript: enough to remember what it was, not the whole file. */
const RESULT_CHARS = 1_500;

export interface SummaryRequest {
  readonly client: GatewayClient;
  /** The model and how to reach it (no tools, no thinking: a plain answer). */
  readonly request: Pick<GatewayAnswerRequest, 'model' | 'api' | 'provider'>;
  /** The summary of even older turns, folded in. */
  readonly previous?: string;
  readonly turns: readonly ContextTurn[];
  /** Input tokens one summary request may use, and the summary's own length. */
  readonly inputBudget: number;
  readonly maxTokens: number;
  readonly tokensPerChar: number;
  readonly signal: AbortSignal;
}

export interface SummaryResult {
  readonly text: string;
  readonly usage: TokenUsage;
}

/** The turns as a transcript a model can read. */
export function transcript(turns: readonly ContextTurn[]): string[] {
  const entries: string[] = [];
  for (const turn of turns) {
    for (const message of turn.messages) {
      for (const part of message.parts) {
        if (part.kind === 'text' && part.text.trim()) entries.push(`${message.role === 'user' ? 'User' : 'Assistant'}: ${part.text}`);
        else if (part.kind === 'toolCall') entries.push(`Assistant called the tool ${part.name} with ${JSON.stringify(part.input ?? {})}`);
        else if (part.kind === 'toolResult') entries.push(`Tool result${part.isError ? ' (error)' : ''}: ${trimMiddle(part.content, RESULT_CHARS).text}`);
      }
    }
  }
  return entries;
}

export async function summarizeTurns(run: SummaryRequest): Promise<SummaryResult> {
  const overhead = estimateTextTokens(SUMMARY_SYSTEM, run.tokensPerChar) + 64;
  const usage = { promptTokens: 0, completionTokens: 0 };
  let summary = run.previous;
  // Room for the transcript in one request, once the summary so far is in it.
  const room = (): number => Math.max(200, run.inputBudget - overhead - (summary ? estimateTextTokens(summary, run.tokensPerChar) : 0));
  const entries = transcript(run.turns);
  let index = 0;
  while (index < entries.length) {
    const roomChars = Math.floor(room() / run.tokensPerChar);
    const chunk: string[] = [];
    let chars = 0;
    while (index < entries.length) {
      const entry = entries[index] as string;
      if (chunk.length > 0 && chars + entry.length > roomChars) break;
      const fitted = chunk.length === 0 && entry.length > roomChars ? trimMiddle(entry, roomChars).text : entry;
      chunk.push(fitted);
      chars += fitted.length + 2;
      index++;
    }
    const prompt = `${summary ? `Summary of the conversation so far:\n${summary}\n\nThe conversation continues:\n` : 'The conversation:\n'}${chunk.join('\n\n')}\n\nWrite the summary${summary ? ' of all of it' : ''} now.`;
    let text = '';
    const result = await streamGatewayAnswer(
      run.client,
      { ...run.request, system: SUMMARY_SYSTEM, maxTokens: run.maxTokens, messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt }] }] },
      { text: (delta) => (text += delta) },
      run.signal,
    );
    if (result.usage) {
      usage.promptTokens += result.usage.promptTokens;
      usage.completionTokens += result.usage.completionTokens;
    }
    if (!text.trim()) throw new Error('the model returned an empty summary');
    summary = text.trim();
  }
  if (!summary) throw new Error('there was nothing to summarize');
  return { text: summary, usage };
}
