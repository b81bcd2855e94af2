// Streams one answer from the gateway for a neutral request, through /chat/completions or
// /messages, handing text and reasoning to the sink as they arrive and tool calls when each is
// complete. Shared by the language model provider (VS Code's chat), the @unified participant and
// the chat panel. The caller keeps what the sink received when the stream throws.
//
// Everything handed to the sink and returned is redacted here, once for every consumer: a gateway
// or proxy may echo the key into the answer, split across deltas or re-encoded (redactingSink.ts).
import { ChatStreamAccumulator } from '../streams/chatAccumulator';
import { MAX_SERVER_TOOL_STEPS_PER_ANSWER, MAX_TOOL_CALLS_PER_ANSWER } from '../limits';
import { MessageStreamAccumulator } from '../streams/messageAccumulator';
import { redactValue } from '../secrets/redact';
import type { ChatCompletionRequest, ToolExecuted } from '../types/chat';
import type { GatewayClient } from '../transport/client';
import type { ContentBlock, MessageCreateRequest } from '../types/messages';
import type { RequestOptions } from '../types/common';
import type { TokenUsage } from '../../shared/chatModel';
import type { ReplySource } from '../../shared/replySources';
import { answerTokens, DEFAULT_MESSAGES_MAX_TOKENS } from './answerTokens';
import { redactingSink } from './redactingSink';
import { ServerToolBlocks } from './serverToolBlocks';
import {
  parseToolInput,
  toolInputOf,
  toChatMessages,
  toChatTools,
  toMessagesParams,
  toMessagesTools,
  usesMessagesApi,
  type GatewayAnswerRequest,
  type GatewayPart,
} from './gatewayMessages';

export type { GatewayAnswerRequest, GatewayTool } from './gatewayMessages';

export interface AnswerSink {
  text(delta: string): void;
  /** Reasoning or thinking text, as it streams (never sent back to chat completions). */
  reasoning?(delta: string): void;
  toolCall?(call: { id: string; name: string; input: Record<string, unknown>; arguments: string }): void;
  /** Tools the gateway ran through `mcp_servers` or its own tools (web search), each reported once. */
  toolsExecuted?(tools: readonly ToolExecuted[]): void;
  /** Pages the answer cites or its web search found, new ones only (http(s), each once, bounded). */
  sources?(sources: readonly ReplySource[]): void;
}

export interface AnswerResult {
  readonly finishReason?: string;
  readonly usage?: TokenUsage;
  /** The assistant message as the wire saw it: text, thinking blocks with signatures, tool calls. */
  readonly parts: readonly GatewayPart[];
  /**
   * Tool calls past MAX_TOOL_CALLS_PER_ANSWER: left out of `parts` and never handed to the sink
   * (so nothing runs them); the caller tells the model.
   */
  readonly refusedToolCalls?: number;
  /** Tools the gateway ran past MAX_SERVER_TOOL_STEPS_PER_ANSWER: counted, not handed to the sink. */
  readonly hiddenServerTools?: number;
}

/** Hands server-run tools to the sink up to the cap, and counts the rest. */
class ServerTools {
  shown = 0;
  hidden = 0;

  constructor(private readonly sink: AnswerSink) {}

  report(tools: readonly ToolExecuted[]): void {
    const room = Math.max(0, MAX_SERVER_TOOL_STEPS_PER_ANSWER - this.shown);
    const shown = tools.length > room ? tools.slice(0, room) : tools;
    this.hidden += tools.length - shown.length;
    this.shown += shown.length;
    if (shown.length > 0) this.sink.toolsExecuted?.(shown);
  }
}

function counts(refused: number, servers: ServerTools): { refusedToolCalls?: number; hiddenServerTools?: number } {
  return {
    ...(refused > 0 ? { refusedToolCalls: refused } : {}),
    ...(servers.hidden > 0 ? { hiddenServerTools: servers.hidden } : {}),
  };
}

export async function streamGatewayAnswer(
  client: GatewayClient,
  request: GatewayAnswerRequest,
  sink: AnswerSink,
  signal: AbortSignal,
): Promise<AnswerResult> {
  const secrets = await client.redactionSecrets();
  const redacting = redactingSink(sink, secrets);
  try {
    const result = usesMessagesApi(request.model, request.api, request.provider)
      ? await viaMessages(client, request, redacting.sink, signal)
      : await viaChat(client, request, redacting.sink, signal);
    redacting.flush();
    return redactValue(result, secrets);
  } catch (error) {
    // A cut or stopped stream: the text that arrived stays, held-back tail included.
    redacting.flush();
    throw error;
  }
}

function streamOptions(request: GatewayAnswerRequest, signal: AbortSignal): RequestOptions {
  return request.maxRetries !== undefined ? { signal, maxRetries: request.maxRetries } : { signal };
}

function chatRequest(request: GatewayAnswerRequest): ChatCompletionRequest {
  const tools = toChatTools(request.tools);
  const { maxTokens, thinkingBudget } = answerTokens(request, false);
  return {
    model: request.model,
    messages: toChatMessages(request),
    ...(maxTokens ? { max_tokens: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.reasoningEffort ? { reasoning_effort: request.reasoningEffort } : {}),
    ...(thinkingBudget ? { thinking: { type: 'enabled', budget_tokens: thinkingBudget } } : {}),
    ...(request.mcpServers?.length ? { mcp_servers: [...request.mcpServers] } : {}),
    ...(tools ? { tools, tool_choice: request.toolChoice === 'required' ? 'required' : 'auto' } : {}),
  };
}

async function viaChat(
  client: GatewayClient,
  request: GatewayAnswerRequest,
  sink: AnswerSink,
  signal: AbortSignal,
): Promise<AnswerResult> {
  const stream = client.chat.stream(chatRequest(request), streamOptions(request, signal));
  const accumulator = new ChatStreamAccumulator();
  const servers = new ServerTools(sink);
  let toolsReported = 0;
  let sourcesReported = 0;
  for await (const chunk of stream) {
    accumulator.add(chunk);
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (!delta || (choice.index ?? 0) !== 0) continue;
      if (delta.content) sink.text(delta.content);
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) sink.reasoning?.(reasoning);
    }
    // What is new since the last look only: a copy of the whole list per chunk is quadratic.
    if (chunk.tools_executed && accumulator.toolsExecutedCount > toolsReported) {
      servers.report(accumulator.toolsExecutedFrom(toolsReported));
      toolsReported = accumulator.toolsExecutedCount;
    }
    if (accumulator.sourceCount > sourcesReported) {
      sink.sources?.(accumulator.sourcesFrom(sourcesReported));
      sourcesReported = accumulator.sourceCount;
    }
  }
  const snapshot = accumulator.snapshot();
  const parts: GatewayPart[] = snapshot.content ? [{ kind: 'text', text: snapshot.content }] : [];
  const calls = snapshot.toolCalls.slice(0, MAX_TOOL_CALLS_PER_ANSWER);
  for (const call of calls) {
    const input = parseToolInput(call.arguments);
    parts.push({ kind: 'toolCall', id: call.id, name: call.name, input });
    sink.toolCall?.({ id: call.id, name: call.name, input, arguments: call.arguments });
  }
  return {
    parts,
    ...counts(snapshot.toolCalls.length - calls.length, servers),
    ...(snapshot.finishReason ? { finishReason: snapshot.finishReason } : {}),
    ...(snapshot.usage
      ? { usage: { promptTokens: snapshot.usage.prompt_tokens, completionTokens: snapshot.usage.completion_tokens } }
      : {}),
  };
}

function messagesRequest(request: GatewayAnswerRequest): MessageCreateRequest {
  const tools = toMessagesTools(request.tools);
  const { maxTokens, thinkingBudget: budget } = answerTokens(request, true);
  return {
    model: request.model,
    max_tokens: maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS,
    messages: toMessagesParams(request.messages),
    ...(request.system ? { system: request.system } : {}),
    // Anthropic-style temperature is 0 to 1, and thinking only runs at the default temperature.
    ...(request.temperature !== undefined && !budget ? { temperature: Math.min(1, request.temperature) } : {}),
    ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    ...(request.mcpServers?.length ? { mcp_servers: [...request.mcpServers] } : {}),
    ...(tools ? { tools, tool_choice: { type: request.toolChoice === 'required' ? 'any' : 'auto' } } : {}),
  };
}

async function viaMessages(
  client: GatewayClient,
  request: GatewayAnswerRequest,
  sink: AnswerSink,
  signal: AbortSignal,
): Promise<AnswerResult> {
  const stream = client.messages.stream(messagesRequest(request), streamOptions(request, signal));
  const accumulator = new MessageStreamAccumulator();
  const servers = new ServerTools(sink);
  /** The tool_use blocks handed to the sink: a block that stops twice is handed once. */
  const callsSeen = new Set<number>();
  const serverBlocks = new ServerToolBlocks();
  let sourcesReported = 0;
  for await (const event of stream) {
    accumulator.add(event);
    if (event.type === 'content_block_delta') {
      const delta = event.delta;
      if (delta.type === 'text_delta' && delta.text) sink.text(delta.text);
      else if (delta.type === 'thinking_delta' && delta.thinking) sink.reasoning?.(delta.thinking);
    } else if (event.type === 'content_block_start') {
      // A result sent whole in its start is a step at once (its stop, if one comes, adds nothing).
      const executed = serverBlocks.seen(accumulator.block(event.index));
      if (executed) servers.report([executed]);
    } else if (event.type === 'content_block_stop') {
      const block = accumulator.block(event.index);
      if (block?.type === 'tool_use') {
        if (callsSeen.size >= MAX_TOOL_CALLS_PER_ANSWER || callsSeen.has(event.index)) continue;
        callsSeen.add(event.index);
        const use = block as { id: string; name: string; input: unknown };
        const input = toolInputOf(use.input);
        sink.toolCall?.({ id: use.id, name: use.name, input, arguments: JSON.stringify(input) });
      } else {
        // A server tool's use is remembered again with its input assembled from its deltas.
        const executed = serverBlocks.seen(block);
        if (executed) servers.report([executed]);
      }
    }
    if (accumulator.sourceCount > sourcesReported) {
      sink.sources?.(accumulator.sourcesFrom(sourcesReported));
      sourcesReported = accumulator.sourceCount;
    }
  }
  const message = accumulator.snapshot();
  let toolCalls = 0;
  const parts = message.content.flatMap((block): GatewayPart[] => {
    // A block of a type this client knows has that type's shape (parseContentBlock), never OtherBlock's.
    const b = block as ContentBlock;
    switch (b.type) {
      case 'text':
        return b.text ? [{ kind: 'text', text: b.text }] : [];
      case 'thinking':
        return [{ kind: 'thinking', thinking: b.thinking, signature: b.signature }];
      case 'redacted_thinking':
        return [{ kind: 'redactedThinking', data: b.data }];
      case 'tool_use':
        // Past the cap: left out of the message, as the sink never got it (see refusedToolCalls).
        if (++toolCalls > MAX_TOOL_CALLS_PER_ANSWER) return [];
        return [{ kind: 'toolCall', id: b.id, name: b.name, input: toolInputOf(b.input) }];
      default:
        // Server tool blocks (server_tool_use, web_search_tool_result, mcp_tool_use, mcp_tool_result)
        // are left out of the replay, as are the text blocks' citations. The Messages API accepts an
        // assistant turn of text alone; sending them back would have to be byte-exact (a search
        // result's encrypted_content, which the chat does not keep) and, for MCP blocks, needs the
        // same mcp_servers on the later request. The text keeps what the model made of them, and the
        // steps and sources stay on the turn for the user.
        return [];
    }
  });
  const usage = message.usage;
  return {
    parts,
    ...counts(Math.max(0, toolCalls - MAX_TOOL_CALLS_PER_ANSWER), servers),
    ...(message.stop_reason ? { finishReason: message.stop_reason } : {}),
    ...(usage.input_tokens || usage.output_tokens
      ? { usage: { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens } }
      : {}),
  };
}
