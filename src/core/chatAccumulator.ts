// Builds the whole answer from stream chunks. The caller owns it, so whatever arrived before an
// error or interruption is still there when the stream throws.
import type { ChatCompletionChunk, ToolExecuted, Usage } from './types/chat';

export interface AccumulatedToolCall {
  id: string;
  name: string;
  /** The concatenated JSON text; may be incomplete if the stream broke. */
  arguments: string;
}

export interface ChatStreamSnapshot {
  content: string;
  reasoning: string;
  toolCalls: AccumulatedToolCall[];
  finishReason: string | null;
  usage: Usage | null;
  toolsExecuted: ToolExecuted[];
}

/** Accumulates choice 0 (the only one a chat UI shows). */
export class ChatStreamAccumulator {
  private content = '';
  private reasoning = '';
  private readonly toolCalls: AccumulatedToolCall[] = [];
  /** Stream index of a tool call -> its position in toolCalls (a new id on a reused index starts a new call). */
  private readonly callAt = new Map<number, number>();
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private readonly toolsExecuted: ToolExecuted[] = [];
  private readonly toolsSeen = new Set<string>();

  add(chunk: ChatCompletionChunk): void {
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const delta = choice.delta;
      if (delta.content) this.content += delta.content;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) this.reasoning += reasoning;
      if (delta.tool_calls) for (const call of delta.tool_calls) this.addToolCall(call.index, call.id, call.function?.name, call.function?.arguments);
      if (choice.finish_reason !== null) this.finishReason = choice.finish_reason;
    }
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.tools_executed) {
      // Some servers repeat the whole list on every chunk; keep each tool once.
      for (const tool of chunk.tools_executed) {
        const key = JSON.stringify(tool);
        if (this.toolsSeen.has(key)) continue;
        this.toolsSeen.add(key);
        this.toolsExecuted.push(tool);
      }
    }
  }

  private addToolCall(index: number, id: string | undefined, name: string | undefined, args: string | undefined): void {
    const at = this.callAt.get(index);
    let call = at === undefined ? undefined : this.toolCalls[at];
    if (call === undefined || (id !== undefined && id !== '' && call.id !== '' && id !== call.id)) {
      call = { id: id ?? '', name: '', arguments: '' };
      this.callAt.set(index, this.toolCalls.length);
      this.toolCalls.push(call);
    }
    if (id && call.id === '') call.id = id;
    if (name && call.name === '') call.name = name;
    if (args) call.arguments += args;
  }

  snapshot(): ChatStreamSnapshot {
    return {
      content: this.content,
      reasoning: this.reasoning,
      toolCalls: this.toolCalls.map((call) => ({ ...call })),
      finishReason: this.finishReason,
      usage: this.usage === null ? null : { ...this.usage },
      toolsExecuted: [...this.toolsExecuted],
    };
  }
}
