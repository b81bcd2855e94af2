// Streams one answer from the gateway for a neutral request, through /chat/completions or
// /messages, handing text to the sink as it arrives and tool calls when each is complete. Shared by
// the language model provider (VS Code's chat) and the @unified participant.
import { ChatStreamAccumulator, type GatewayClient } from '../../core/index';
import { parseToolInput, toChatMessages, toChatTools, toMessagesParams, toMessagesTools, usesMessagesApi, type GatewayAnswerRequest } from './gatewayMessages';

export type { GatewayAnswerRequest, GatewayMessage, GatewayPart, GatewayTool } from './gatewayMessages';

export interface AnswerSink {
  text(delta: string): void;
  toolCall?(call: { id: string; name: string; input: Record<string, unknown> }): void;
}

export interface AnswerResult {
  readonly finishReason?: string;
}

/** /messages requires max_tokens; this leaves room for a long answer without a known limit. */
const DEFAULT_MESSAGES_MAX_TOKENS = 4096;

export async function streamGatewayAnswer(client: GatewayClient, request: GatewayAnswerRequest, sink: AnswerSink, signal: AbortSignal): Promise<AnswerResult> {
  return usesMessagesApi(request.model, request.api, request.provider) ? viaMessages(client, request, sink, signal) : viaChat(client, request, sink, signal);
}

async function viaChat(client: GatewayClient, request: GatewayAnswerRequest, sink: AnswerSink, signal: AbortSignal): Promise<AnswerResult> {
  const tools = toChatTools(request.tools);
  const stream = client.chat.stream(
    {
      model: request.model,
      messages: toChatMessages(request),
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
      ...(tools ? { tools, tool_choice: request.toolChoice === 'required' ? 'required' : 'auto' } : {}),
    },
    { signal },
  );
  const accumulator = new ChatStreamAccumulator();
  for await (const chunk of stream) {
    accumulator.add(chunk);
    for (const choice of chunk.choices) {
      const text = choice.delta?.content;
      if (text) sink.text(text);
    }
  }
  const snapshot = accumulator.snapshot();
  for (const call of snapshot.toolCalls) sink.toolCall?.({ id: call.id, name: call.name, input: parseToolInput(call.arguments) });
  return snapshot.finishReason ? { finishReason: snapshot.finishReason } : {};
}

async function viaMessages(client: GatewayClient, request: GatewayAnswerRequest, sink: AnswerSink, signal: AbortSignal): Promise<AnswerResult> {
  const tools = toMessagesTools(request.tools);
  const stream = client.messages.stream(
    {
      model: request.model,
      max_tokens: request.maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS,
      messages: toMessagesParams(request.messages),
      ...(request.system ? { system: request.system } : {}),
      ...(tools ? { tools, tool_choice: { type: request.toolChoice === 'required' ? 'any' : 'auto' } } : {}),
    },
    { signal },
  );
  /** Tool-use blocks by index: id and name from the start, input JSON from the deltas. */
  const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  let finishReason: string | undefined;
  for await (const event of stream) {
    switch (event.type) {
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const block = event.content_block as { id: string; name: string };
          toolBlocks.set(event.index, { id: block.id, name: block.name, json: '' });
        }
        break;
      case 'content_block_delta': {
        const delta = event.delta as { type: string; text?: string; partial_json?: string };
        if (delta.type === 'text_delta' && delta.text) sink.text(delta.text);
        else if (delta.type === 'input_json_delta' && delta.partial_json) {
          const block = toolBlocks.get(event.index);
          if (block) block.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const block = toolBlocks.get(event.index);
        if (block) sink.toolCall?.({ id: block.id, name: block.name, input: parseToolInput(block.json) });
        toolBlocks.delete(event.index);
        break;
      }
      case 'message_delta':
        finishReason = event.delta.stop_reason ?? finishReason;
        break;
      default:
        break;
    }
  }
  return finishReason ? { finishReason } : {};
}
