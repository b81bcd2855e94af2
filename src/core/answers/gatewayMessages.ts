// A neutral conversation (what VS Code's chat and the @unified participant hand us) and its
// mapping to the two gateway formats: OpenAI chat completions and Anthropic messages.
import { checkJsonValue, parseBoundedJson, type BoundedJson } from '../parse/boundedJson';
import { formatByteSize, MAX_TOOL_ARGUMENT_BYTES, MAX_TOOL_ARGUMENT_DEPTH } from '../limits';
import type { ChatFunctionTool, ChatMessageParam } from '../types/chat';
import type { ContentBlockParam, MessageParam, MessageTool } from '../types/messages';
import { isRecord } from '../parse/json';
import type { ReasoningEffort, WireMessage, WirePart } from '../../shared/chatModel';
import type { ChatApi } from '../../shared/settings';

/** One part of a message as the models see it (the chat panel stores the same shape in history). */
export type GatewayPart = WirePart;
export type GatewayMessage = WireMessage;

export interface GatewayTool {
  readonly name: string;
  readonly description?: string;
  /** A JSON schema of the input (an object schema). */
  readonly inputSchema?: Record<string, unknown>;
}

export interface GatewayAnswerRequest {
  readonly model: string;
  readonly messages: readonly GatewayMessage[];
  readonly system?: string;
  readonly maxTokens?: number;
  readonly api: ChatApi;
  /** The model's provider label, when known (helps `auto` pick the endpoint). */
  readonly provider?: string;
  readonly tools?: readonly GatewayTool[];
  /** `required`: the model must call one of the tools. */
  readonly toolChoice?: 'auto' | 'required';
  readonly temperature?: number;
  readonly reasoningEffort?: ReasoningEffort;
  /** Extended thinking budget in tokens; undefined leaves thinking off. */
  readonly thinkingBudget?: number;
  /**
   * The most tokens the answer may ask for: what the model's context leaves after the input (the
   * context keeper measures it). `max_tokens` and the thinking budget shrink to fit (answerTokens.ts).
   */
  readonly answerRoom?: number;
  /** Tool servers the gateway runs tools on (`mcp_servers`, on both endpoints). */
  readonly mcpServers?: readonly string[];
  /**
   * Retries of a refused or failed request (the client's default when unset). Completions send 0:
   * a retry with sleeps would outlive the suggestion, and a 429 must pause them, not be waited out.
   */
  readonly maxRetries?: number;
}

/** `auto` picks /messages for Anthropic-style models: the provider or id names Anthropic or Claude. */
export function usesMessagesApi(model: string, api: ChatApi, provider?: string): boolean {
  if (api !== 'auto') return api === 'messages';
  return /anthropic|claude/i.test(`${provider ?? ''} ${model}`);
}

const EMPTY_SCHEMA: Record<string, unknown> = { type: 'object', properties: {} };

function textOf(parts: readonly GatewayPart[]): string {
  return parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
}

/** OpenAI shape: tool results become `role: tool` messages right after the call that asked. */
export function toChatMessages(request: Pick<GatewayAnswerRequest, 'messages' | 'system'>): ChatMessageParam[] {
  const out: ChatMessageParam[] = request.system ? [{ role: 'system', content: request.system }] : [];
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      const calls = message.parts.flatMap((part) =>
        part.kind === 'toolCall'
          ? [
              {
                id: part.id,
                type: 'function' as const,
                function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
              },
            ]
          : [],
      );
      const text = textOf(message.parts);
      out.push(
        calls.length
          ? { role: 'assistant', content: text || null, tool_calls: calls }
          : { role: 'assistant', content: text },
      );
      continue;
    }
    for (const part of message.parts) {
      // `role: tool` has no error flag: say it in the content, so the model does not take it as data.
      if (part.kind === 'toolResult')
        out.push({
          role: 'tool',
          tool_call_id: part.callId,
          content: part.isError ? `Error: ${part.content}` : part.content,
        });
    }
    const text = textOf(message.parts);
    // An image part without data is an estimate's stand-in (conversationWire.ts): never sent.
    const images = message.parts.flatMap((part) =>
      part.kind === 'image' && part.data
        ? [{ type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } }]
        : [],
    );
    // Images make the content a list of parts (wire-conventions: "Images in requests").
    if (images.length) out.push({ role: 'user', content: [...(text ? [{ type: 'text', text }] : []), ...images] });
    else if (text) out.push({ role: 'user', content: text });
  }
  return out;
}

export function toChatTools(tools: readonly GatewayTool[] | undefined): ChatFunctionTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.inputSchema ?? EMPTY_SCHEMA,
    },
  }));
}

/** Anthropic shape: content blocks; tool results are blocks of the next user message. */
export function toMessagesParams(messages: readonly GatewayMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    const blocks: ContentBlockParam[] = message.parts.flatMap((part): ContentBlockParam[] => {
      switch (part.kind) {
        case 'text':
          return part.text ? [{ type: 'text', text: part.text }] : [];
        case 'toolCall':
          return [{ type: 'tool_use', id: part.id, name: part.name, input: part.input ?? {} }];
        case 'toolResult':
          return [
            {
              type: 'tool_result',
              tool_use_id: part.callId,
              content: part.content,
              ...(part.isError ? { is_error: true } : {}),
            },
          ];
        // Thinking goes back exactly as it came, signature included, or the API refuses the turn.
        case 'thinking':
          return [{ type: 'thinking', thinking: part.thinking, signature: part.signature }];
        case 'redactedThinking':
          return [{ type: 'redacted_thinking', data: part.data }];
        case 'image':
          return part.data
            ? [{ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } }]
            : [];
      }
    });
    if (blocks.length === 0) continue;
    // The Messages API wants alternating roles: merge consecutive turns of one role.
    const previous = out[out.length - 1];
    if (previous && previous.role === message.role && Array.isArray(previous.content)) previous.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  return out;
}

export function toMessagesTools(tools: readonly GatewayTool[] | undefined): MessageTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.inputSchema ?? EMPTY_SCHEMA,
  }));
}

const TOOL_INPUT_BOUNDS = { maxDepth: MAX_TOOL_ARGUMENT_DEPTH, maxBytes: MAX_TOOL_ARGUMENT_BYTES };

/**
 * The key of a tool input refused before any tool saw it (nested too deep, too large); its value
 * is the reason, which the chat sends back to the model as the call's error. What is kept is that
 * short text, never the refused JSON: a conversation must always stay saveable.
 */
const REFUSED_INPUT = 'refusedInput';

function refusedInput(verdict: Extract<BoundedJson, { ok: false }>): Record<string, unknown> {
  const reason =
    verdict.reason === 'depth'
      ? `The arguments of this call nest deeper than ${MAX_TOOL_ARGUMENT_DEPTH} levels, more than a tool call may; the tool was not run. Send flatter arguments.`
      : `The arguments of this call are ${formatByteSize(verdict.bytes)} of JSON, more than the ${formatByteSize(MAX_TOOL_ARGUMENT_BYTES)} a tool call may carry; the tool was not run. Split the work into smaller calls.`;
  return { [REFUSED_INPUT]: reason };
}

/** Why a tool input was refused (see REFUSED_INPUT), or undefined for an input the tool may see. */
export function toolInputRefusal(input: Record<string, unknown> | undefined): string | undefined {
  const reason = input?.[REFUSED_INPUT];
  return typeof reason === 'string' && Object.keys(input ?? {}).length === 1 ? reason : undefined;
}

function asInput(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : { value };
}

/**
 * Tool arguments arrive as JSON text; a model can send broken JSON, which must not crash the turn,
 * and JSON nested too deep or too large is refused (see REFUSED_INPUT).
 */
export function parseToolInput(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const parsed = parseBoundedJson(text, TOOL_INPUT_BOUNDS);
  if (parsed.ok) return asInput(parsed.value);
  return parsed.reason === 'syntax' ? { invalidJson: text } : refusedInput(parsed);
}

/** A tool input that arrived already parsed (inside a Messages event), within the same bounds. */
export function toolInputOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return parseToolInput(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const checked = checkJsonValue(value, TOOL_INPUT_BOUNDS);
  return checked.ok ? (value as Record<string, unknown>) : refusedInput(checked);
}
