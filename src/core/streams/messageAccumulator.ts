// Builds the whole Message from stream events: text, tool input JSON, thinking and its signature
// (which must go back unchanged in the next turn). Owned by the caller, like ChatStreamAccumulator.
import type { ContentBlock, Message, MessageStreamEvent, MessageUsage, OtherBlock } from '../types/messages';
import { num, tryParseJson } from '../parse/json';
import { isBlockIndex } from '../limits';
import { addCitation, addCitations, addWebSearchResults } from '../parse/sources';
import { SourceList, type ReplySource } from '../../shared/replySources';

/** Blocks whose `input` streams as input_json_delta pieces: the model's calls and the server's own. */
const TOOL_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * A tool block's input: its input_json_delta pieces joined and parsed when any arrived (the empty
 * string is `{}`; text that does not parse stays text), else what its start carried (`{}` if nothing).
 */
function toolInput(json: string | undefined, started: unknown): unknown {
  if (json === undefined) return started ?? {};
  if (json.trim() === '') return {};
  return tryParseJson(json) ?? json;
}

/**
 * Cumulative usage counts: a later value replaces an earlier one, except a count sent as null (or
 * not as a number: a proxy that does not know it), which never replaces a known one.
 */
export function mergeMessageUsage(usage: MessageUsage, later: Partial<MessageUsage>): MessageUsage {
  // Copied as data (spread, fromEntries), never assigned: a gateway's `"__proto__"` key stays a key.
  const known = Object.entries(later).flatMap(([key, value]): [string, unknown][] => {
    if (value === null || value === undefined) return [];
    if (!key.endsWith('_tokens')) return [[key, value]];
    const count = num(value);
    return count === undefined ? [] : [[key, count]];
  });
  return { ...usage, ...Object.fromEntries(known) };
}

export class MessageStreamAccumulator {
  private message: Message = {
    id: '',
    type: 'message',
    role: 'assistant',
    model: '',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  /** Tool input JSON text per block index, parsed at content_block_stop. */
  private readonly partialJson = new Map<number, string>();
  /** Cited pages and web search results: http(s) only, each once, in order, bounded. */
  private readonly sources = new SourceList();

  add(event: MessageStreamEvent): void {
    // Events fed from elsewhere are read as defensively as the stream's: an index is an array index here.
    if ('index' in event && !isBlockIndex(event.index)) return;
    switch (event.type) {
      case 'message_start':
        this.message = { ...event.message, content: [...event.message.content], usage: { ...event.message.usage } };
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          // The citations become sources; the block keeps its text only (a flood of them is not kept twice).
          const { citations, ...text } = block as { type: 'text'; text: string; citations?: unknown };
          addCitations(this.sources, citations);
          this.message.content[event.index] = { ...text };
        } else {
          if (block.type === 'web_search_tool_result') addWebSearchResults(this.sources, block);
          this.message.content[event.index] = { ...block };
        }
        break;
      }
      case 'content_block_delta':
        this.applyDelta(event.index, event.delta);
        break;
      case 'content_block_stop': {
        const block = this.message.content[event.index];
        if (block !== undefined && TOOL_BLOCKS.has(block.type)) {
          const tool = block as { input?: unknown };
          tool.input = toolInput(this.partialJson.get(event.index), tool.input);
        }
        break;
      }
      case 'message_delta':
        this.message.stop_reason = event.delta.stop_reason ?? this.message.stop_reason;
        this.message.stop_sequence = event.delta.stop_sequence ?? this.message.stop_sequence;
        // Counts are cumulative: later values replace earlier ones, a null never replaces a known one.
        this.message.usage = mergeMessageUsage(this.message.usage, event.usage);
        break;
      case 'message_stop':
        break;
    }
  }

  private applyDelta(
    index: number,
    delta: Extract<MessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): void {
    if (delta.type === 'citations_delta') {
      addCitation(this.sources, delta.citation);
      return;
    }
    let block = this.message.content[index];
    if (block === undefined) {
      // A delta without its block start: make the block the delta implies.
      block =
        delta.type === 'text_delta'
          ? { type: 'text', text: '' }
          : delta.type === 'input_json_delta'
            ? { type: 'tool_use', id: '', name: '', input: {} }
            : { type: 'thinking', thinking: '', signature: '' };
      this.message.content[index] = block;
    }
    // A block whose type this client knows always has that type's shape (parseContentBlock), never OtherBlock's.
    const target = block as ContentBlock;
    switch (delta.type) {
      case 'text_delta':
        if (target.type === 'text') target.text += delta.text;
        break;
      case 'input_json_delta':
        this.partialJson.set(index, (this.partialJson.get(index) ?? '') + delta.partial_json);
        break;
      case 'thinking_delta':
        if (target.type === 'thinking') target.thinking += delta.thinking;
        break;
      case 'signature_delta':
        if (target.type === 'thinking') target.signature += delta.signature;
        break;
    }
  }

  /** The message so far; blocks are copies. Tool input still streaming is shown as its JSON text. */
  snapshot(): Message {
    const content: (ContentBlock | OtherBlock)[] = [];
    this.message.content.forEach((block, index) => {
      const copy = this.copyOf(block, index);
      if (copy !== undefined) content.push(copy);
    });
    return { ...this.message, content, usage: { ...this.message.usage } };
  }

  /**
   * One block as snapshot() shows it, at the cost of that block alone: a caller that looks at each
   * block when it stops would otherwise copy (and parse) the whole message every time.
   */
  block(index: number): ContentBlock | OtherBlock | undefined {
    return isBlockIndex(index) ? this.copyOf(this.message.content[index], index) : undefined;
  }

  private copyOf(block: ContentBlock | OtherBlock | undefined, index: number): ContentBlock | OtherBlock | undefined {
    if (block === undefined) return undefined;
    const copy = { ...block };
    if (TOOL_BLOCKS.has(copy.type)) {
      const tool = copy as { input?: unknown };
      tool.input = toolInput(this.partialJson.get(index), tool.input);
    }
    return copy;
  }

  /** How many sources arrived so far. */
  get sourceCount(): number {
    return this.sources.size;
  }

  /** The sources from position `start` on (all of them by default): what arrived since a caller last looked. */
  sourcesFrom(start = 0): ReplySource[] {
    return this.sources.list().slice(start);
  }

  /** The text blocks joined. */
  text(): string {
    return this.message.content
      .map((block) => (block?.type === 'text' ? (block as { text: string }).text : ''))
      .join('');
  }
}
