// Builds the whole answer from stream chunks. The caller owns it, so whatever arrived before an
// error or interruption is still there when the stream throws. Chunks from client.chat.stream are
// normalised already, but callers may also feed raw chunks from elsewhere, so add() reads every
// field defensively (wire-conventions: tolerant of every variant) and never mutates the chunk.
import { mergeUsage, parseChunkUsage, parseToolsExecuted } from '../parse/chat';
import { contentText } from '../parse/contentParts';
import { asRecord, isRecord, num, str } from '../parse/json';
import { addAnnotations } from '../parse/sources';
import { SourceList, type ReplySource } from '../../shared/replySources';
import type { ChatCompletionChunk, ChunkUsage, ToolExecuted, Usage } from '../types/chat';

export interface AccumulatedToolCall {
  id: string;
  name: string;
  /** The concatenated JSON text (`{}` when no fragment carried any); may be incomplete if the stream broke. */
  arguments: string;
}

export interface ChatStreamSnapshot {
  content: string;
  reasoning: string;
  toolCalls: AccumulatedToolCall[];
  finishReason: string | null;
  usage: Usage | null;
  toolsExecuted: ToolExecuted[];
  /** The `url_citation` annotations' pages: http(s) only, each once, in order, bounded. */
  sources: ReplySource[];
}

/** Accumulates choice 0 (the only one a chat UI shows). */
export class ChatStreamAccumulator {
  private content = '';
  private reasoning = '';
  private readonly toolCalls: AccumulatedToolCall[] = [];
  /** Stream index of a tool call -> its position in toolCalls (a new id on a reused index starts a new call). */
  private readonly callAt = new Map<number, number>();
  private finishReason: string | null = null;
  /** The counts known so far: a later usage replaces only the counts it knows. */
  private usage: ChunkUsage | undefined;
  private readonly toolsExecuted: ToolExecuted[] = [];
  private readonly toolsSeen = new Set<string>();
  private readonly sources = new SourceList();

  add(chunk: ChatCompletionChunk): void {
    const body: unknown = chunk;
    if (!isRecord(body)) return;
    const choices = body.choices;
    if (Array.isArray(choices)) for (let i = 0; i < choices.length; i++) this.addChoice(choices[i], i);
    if (body.usage !== undefined && body.usage !== null) {
      const usage = parseChunkUsage(body.usage);
      if (usage) this.usage = mergeUsage(this.usage, usage);
    }
    if (body.tools_executed !== undefined) {
      // Some servers repeat the whole list on every chunk; keep each tool once.
      for (const tool of parseToolsExecuted(body.tools_executed) ?? []) {
        const key = keyOf(tool);
        // Nested too deep to write down: neither shown nor kept (it could not be saved either).
        if (key === undefined || this.toolsSeen.has(key)) continue;
        this.toolsSeen.add(key);
        this.toolsExecuted.push(tool);
      }
    }
  }

  /** One choice; a missing index means its position (as the stream normaliser reads it). */
  private addChoice(value: unknown, position: number): void {
    if (!isRecord(value)) return;
    const index = value.index === undefined || value.index === null ? position : num(value.index);
    if (index !== 0) return;
    // Some proxies put a `message` where the delta belongs.
    const delta = isRecord(value.delta) ? value.delta : isRecord(value.message) ? value.message : undefined;
    if (delta !== undefined) {
      const content = contentText(delta.content);
      if (content !== undefined) this.content += content;
      const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
      if (reasoning) this.reasoning += reasoning;
      if (delta.annotations !== undefined) addAnnotations(this.sources, delta.annotations);
      const calls = delta.tool_calls;
      if (Array.isArray(calls)) {
        for (let i = 0; i < calls.length; i++) {
          const call: unknown = calls[i];
          if (!isRecord(call)) continue;
          const fn = asRecord(call.function);
          const args =
            typeof fn.arguments === 'string'
              ? fn.arguments
              : isRecord(fn.arguments)
                ? JSON.stringify(fn.arguments)
                : undefined;
          this.addToolCall(num(call.index) ?? i, str(call.id), str(fn.name), args);
        }
      }
    }
    // Only a real reason counts: null, undefined or '' on a later chunk must not erase one.
    const finish = value.finish_reason;
    if (typeof finish === 'string' && finish !== '') this.finishReason = finish;
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

  /** How many tools the gateway reported running so far (no copy, unlike snapshot()). */
  get toolsExecutedCount(): number {
    return this.toolsExecuted.length;
  }

  /** The tools reported from position `start` on: what arrived since a caller last looked. */
  toolsExecutedFrom(start: number): ToolExecuted[] {
    return this.toolsExecuted.slice(start);
  }

  /** How many sources arrived so far (no copy, unlike snapshot()). */
  get sourceCount(): number {
    return this.sources.size;
  }

  /** The sources from position `start` on: what arrived since a caller last looked. */
  sourcesFrom(start: number): ReplySource[] {
    return this.sources.list().slice(start);
  }

  snapshot(): ChatStreamSnapshot {
    return {
      content: this.content,
      reasoning: this.reasoning,
      // A call whose argument deltas were absent or empty is a call with no arguments: `{}`.
      toolCalls: this.toolCalls.map((call) => ({
        ...call,
        arguments: call.arguments.trim() === '' ? '{}' : call.arguments,
      })),
      finishReason: this.finishReason,
      usage: this.usage === undefined ? null : filledUsage(this.usage),
      toolsExecuted: [...this.toolsExecuted],
      sources: this.sources.list(),
    };
  }
}

/** A count never known is 0, as a missing one always was; a known one is never lost. */
function filledUsage(usage: ChunkUsage): Usage {
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  return {
    ...usage,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.total_tokens ?? prompt + completion,
  };
}

function keyOf(tool: ToolExecuted): string | undefined {
  try {
    return JSON.stringify(tool);
  } catch {
    return undefined; // a stack overflow: nested thousands of levels deep
  }
}
