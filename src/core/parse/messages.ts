// Typed views of Anthropic Messages bodies and stream events (wire-conventions "Messages").
import type {
  ContentBlock,
  Message,
  MessageDelta,
  MessageStreamEvent,
  MessageUsage,
  OtherBlock,
} from '../types/messages';
import { arr, asRecord, isRecord, num, str } from './json';
import type { JsonRecord } from './json';

function parseUsage(value: unknown): MessageUsage {
  const usage = asRecord(value);
  return { ...usage, input_tokens: num(usage.input_tokens) ?? 0, output_tokens: num(usage.output_tokens) ?? 0 };
}

function parseContentBlock(value: unknown): ContentBlock | OtherBlock | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'text':
      // Citations stay only for the accumulator to read (whole answers carry them here).
      return Array.isArray(value.citations) && value.citations.length > 0
        ? { type: 'text', text: str(value.text) ?? '', citations: value.citations }
        : { type: 'text', text: str(value.text) ?? '' };
    case 'tool_use':
      return { type: 'tool_use', id: str(value.id) ?? '', name: str(value.name) ?? '', input: value.input ?? {} };
    case 'thinking':
      return { type: 'thinking', thinking: str(value.thinking) ?? '', signature: str(value.signature) ?? '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(value.data) ?? '' };
    default:
      return { ...value, type: str(value.type) ?? 'unknown' };
  }
}

export function parseMessage(value: unknown): Message {
  const body = asRecord(value);
  return {
    id: str(body.id) ?? '',
    type: str(body.type) ?? 'message',
    role: str(body.role) ?? 'assistant',
    model: str(body.model) ?? '',
    content: arr(body.content)
      .map(parseContentBlock)
      .filter((block): block is ContentBlock | OtherBlock => block !== undefined),
    stop_reason: str(body.stop_reason) ?? null,
    stop_sequence: str(body.stop_sequence) ?? null,
    usage: parseUsage(body.usage),
  };
}

function parseDelta(value: unknown): MessageDelta | undefined {
  const delta = asRecord(value);
  switch (delta.type) {
    case 'text_delta':
      return { type: 'text_delta', text: str(delta.text) ?? '' };
    case 'input_json_delta':
      return { type: 'input_json_delta', partial_json: str(delta.partial_json) ?? '' };
    case 'thinking_delta':
      return { type: 'thinking_delta', thinking: str(delta.thinking) ?? '' };
    case 'signature_delta':
      return { type: 'signature_delta', signature: str(delta.signature) ?? '' };
    case 'citations_delta':
      return { type: 'citations_delta', citation: delta.citation };
    default:
      return undefined;
  }
}

/** A stream event of a type this client knows, else undefined (unknown types are ignored). */
export function parseMessageEvent(type: string, body: JsonRecord): MessageStreamEvent | undefined {
  const index = num(body.index) ?? 0;
  switch (type) {
    case 'message_start':
      return { type, message: parseMessage(body.message) };
    case 'content_block_start': {
      const block = parseContentBlock(body.content_block);
      return block ? { type, index, content_block: block } : undefined;
    }
    case 'content_block_delta': {
      const delta = parseDelta(body.delta);
      return delta ? { type, index, delta } : undefined;
    }
    case 'content_block_stop':
      return { type, index };
    case 'message_delta': {
      const delta = asRecord(body.delta);
      const usage: Record<string, unknown> = isRecord(body.usage) ? { ...body.usage } : {};
      return {
        type,
        delta: { stop_reason: str(delta.stop_reason) ?? null, stop_sequence: str(delta.stop_sequence) ?? null },
        usage,
      };
    }
    case 'message_stop':
      return { type };
    default:
      return undefined;
  }
}
