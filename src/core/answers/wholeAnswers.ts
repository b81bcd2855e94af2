// A streaming request answered with the whole answer as JSON (some gateways and proxies ignore
// `stream: true`; wire-conventions "Chat completions"): the answer becomes the items a stream of it
// would have yielded, so every caller (accumulators, the chat panel, language model providers)
// shows the reply, its tool calls and its usage exactly as if it had streamed.
import { errorEvent } from '../streams/streamCommon';
import { finishReasonError, isErrorFinishReason } from '../streams/finishReasons';
import { parseChatCompletion } from '../parse/chat';
import { isRecord } from '../parse/json';
import { parseMessage } from '../parse/messages';
import type { ChatChunkDelta, ChatCompletionChunk } from '../types/chat';
import type { MessageStreamEvent } from '../types/messages';

/** A 2xx body that is an error object (`{"error": ...}`, or Anthropic's `{"type": "error"}`) is the server's error. */
function errorBody(json: unknown): Error | undefined {
  if (!isRecord(json)) return errorEvent(json);
  if ((json.error !== undefined && json.error !== null) || json.type === 'error') return errorEvent(json);
  return undefined;
}

/**
 * A whole chat completion as one chunk per choice's worth of delta, with usage and tools_executed;
 * a finish_reason that names an error ends it as failed after its text, as its stream would.
 */
export function chatCompletionAsChunks(
  json: unknown,
): ChatCompletionChunk[] | Error | { items: ChatCompletionChunk[]; error: Error } {
  const error = errorBody(json);
  if (error !== undefined) return error;
  const completion = parseChatCompletion(json);
  const chunk: ChatCompletionChunk = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: completion.choices.map((choice) => {
      const message = choice.message;
      const delta: ChatChunkDelta = { role: message.role };
      if (message.content !== null) delta.content = message.content;
      if (message.reasoning_content !== undefined) delta.reasoning_content = message.reasoning_content;
      if (message.annotations !== undefined) delta.annotations = message.annotations;
      if (message.tool_calls !== undefined)
        delta.tool_calls = message.tool_calls.map((call, index) => ({
          index,
          id: call.id,
          type: call.type,
          function: { ...call.function },
        }));
      return { index: choice.index, delta, finish_reason: choice.finish_reason };
    }),
  };
  if (completion.usage !== undefined) chunk.usage = completion.usage;
  if (completion.tools_executed !== undefined) chunk.tools_executed = completion.tools_executed;
  const failed = chunk.choices.find((choice) => choice.finish_reason && isErrorFinishReason(choice.finish_reason));
  if (!failed?.finish_reason) return [chunk];
  const ended = finishReasonError(failed.finish_reason);
  for (const choice of chunk.choices)
    if (choice.finish_reason && isErrorFinishReason(choice.finish_reason)) choice.finish_reason = null;
  return { items: [chunk], error: ended };
}

/**
 * A whole message as the events of its stream: text, thinking and tool input arrive as deltas (a
 * caller that renders deltas sees them), other blocks (redacted_thinking, server tools) whole in
 * their block start.
 */
export function messageAsEvents(
  json: unknown,
): MessageStreamEvent[] | Error | { items: MessageStreamEvent[]; error: Error } {
  const error = errorBody(json);
  if (error !== undefined) return error;
  const message = parseMessage(json);
  const events: MessageStreamEvent[] = [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null } },
  ];
  message.content.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        // Its citations ride in the block start (a stream sends them as citations_delta events).
        events.push({
          type: 'content_block_start',
          index,
          content_block: block.citations
            ? { type: 'text', text: '', citations: block.citations }
            : { type: 'text', text: '' },
        });
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: String(block.text) } });
        break;
      case 'thinking':
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'thinking_delta', thinking: String(block.thinking) },
        });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: String(block.signature) },
        });
        break;
      case 'tool_use':
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: String(block.id), name: String(block.name), input: {} },
        });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) },
        });
        break;
      default:
        events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  // A stop_reason that names an error: the usage is kept, the answer ends as failed (as streamed).
  const failed = message.stop_reason !== null && isErrorFinishReason(message.stop_reason);
  events.push({
    type: 'message_delta',
    delta: { stop_reason: failed ? null : message.stop_reason, stop_sequence: message.stop_sequence },
    usage: { ...message.usage },
  });
  if (failed && message.stop_reason !== null) return { items: events, error: finishReasonError(message.stop_reason) };
  events.push({ type: 'message_stop' });
  return events;
}
