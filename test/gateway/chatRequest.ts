import type { SimInput, SimTool, SimToolChoice } from './chatSim';
import { badRequest } from './errors';
import { chatImagePart, type ReceivedImage } from './imageParts';
import { countTokens } from './text';
import { isObject, optionalArray, optionalEnum, type JsonObject } from './validate';

/**
 * Turns a /chat/completions body into the simulator's neutral SimInput, validating every part
 * the simulation reads and naming the exact field (`messages[2].tool_call_id`) when one is wrong.
 */

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
/** What one image adds to the prompt's token count (a flat share, as providers bill a tile). */
export const IMAGE_TOKENS = 85;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Text of a message's content: a string, null, or an array of parts (`{type:'text', text}`, images...). */
function contentText(content: unknown, field: string, images: ReceivedImage[] = []): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw badRequest(field, `'${field}' must be a string, null or an array of content parts`, 'invalid_type');
  return content
    .map((part, i) => {
      if (!isObject(part)) throw badRequest(`${field}[${i}]`, `'${field}[${i}]' must be an object`, 'invalid_type');
      if (part.type === 'text' && typeof part.text === 'string') return part.text;
      if (part.type === 'image_url') {
        images.push(chatImagePart(part, `${field}[${i}]`));
        return '';
      }
      return `[${String(part.type)}]`;
    })
    .join('\n');
}

export interface ParsedChat {
  readonly sim: Omit<SimInput, 'model'>;
  readonly promptTokens: number;
  /** Every image the request carried (a model without image input refuses them). */
  readonly images: readonly ReceivedImage[];
}

function parseTools(body: JsonObject): SimTool[] {
  return (optionalArray(body, 'tools') ?? []).map((tool, i) => {
    const field = `tools[${i}]`;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function)) {
      throw badRequest(field, `'${field}' must be {"type": "function", "function": {...}}`, 'invalid_type');
    }
    const name = tool.function.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw badRequest(`${field}.function.name`, `'${field}.function.name' must match ${TOOL_NAME.source}`);
    }
    const parameters = tool.function.parameters;
    if (parameters !== undefined && !isObject(parameters))
      throw badRequest(
        `${field}.function.parameters`,
        `'${field}.function.parameters' must be a JSON schema object`,
        'invalid_type',
      );
    return { name, schema: parameters ?? {} };
  });
}

function parseToolChoice(body: JsonObject, tools: readonly SimTool[]): SimToolChoice {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null || choice === 'auto') return { kind: 'auto' };
  if (choice === 'none') return { kind: 'none' };
  if (choice === 'required') return { kind: 'required' };
  if (
    isObject(choice) &&
    choice.type === 'function' &&
    isObject(choice.function) &&
    typeof choice.function.name === 'string'
  ) {
    const name = choice.function.name;
    if (!tools.some((t) => t.name === name))
      throw badRequest('tool_choice', `'tool_choice' names '${name}', which is not in 'tools'`);
    return { kind: 'named', name };
  }
  throw badRequest(
    'tool_choice',
    `'tool_choice' must be "auto", "none", "required" or {"type": "function", "function": {"name": ...}}`,
  );
}

export function parseChatRequest(body: JsonObject): ParsedChat {
  const messages = optionalArray(body, 'messages');
  if (!messages) throw badRequest('messages', "'messages' is required", 'missing_required_parameter');
  if (messages.length === 0) throw badRequest('messages', "'messages' must contain at least one message");
  let promptTokens = 0;
  let lastUserText = '';
  let lastUserImages: ReceivedImage[] = [];
  const allImages: ReceivedImage[] = [];
  const toolNames = new Map<string, string>();
  let lastTool: { name?: string; content: string } | undefined;
  messages.forEach((message, i) => {
    const field = `messages[${i}]`;
    if (!isObject(message)) throw badRequest(field, `'${field}' must be an object`, 'invalid_type');
    if (typeof message.role !== 'string' || !ROLES.includes(message.role)) {
      throw badRequest(`${field}.role`, `'${field}.role' must be one of ${ROLES.join(', ')}`);
    }
    const hasToolCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    if (message.content === undefined && !(message.role === 'assistant' && hasToolCalls)) {
      throw badRequest(`${field}.content`, `'${field}.content' is required`, 'missing_required_parameter');
    }
    const images: ReceivedImage[] = [];
    const text = contentText(message.content, `${field}.content`, images);
    allImages.push(...images);
    // An image counts as a fixed share of the prompt, as providers bill a tile.
    promptTokens += 3 + countTokens(text) + images.length * IMAGE_TOKENS;
    if (message.role === 'user') {
      lastUserText = text;
      lastUserImages = images;
      lastTool = undefined;
    } else if (message.role === 'assistant') {
      lastTool = undefined;
      for (const call of hasToolCalls ? (message.tool_calls as unknown[]) : []) {
        if (
          isObject(call) &&
          typeof call.id === 'string' &&
          isObject(call.function) &&
          typeof call.function.name === 'string'
        )
          toolNames.set(call.id, call.function.name);
      }
    } else if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '') {
        throw badRequest(
          `${field}.tool_call_id`,
          `'${field}.tool_call_id' is required on tool messages`,
          'missing_required_parameter',
        );
      }
      lastTool = { name: toolNames.get(message.tool_call_id), content: text };
    }
  });
  const last = messages[messages.length - 1];
  const endsWithTool = isObject(last) && last.role === 'tool';
  const tools = parseTools(body);
  const toolChoice = parseToolChoice(body, tools);
  const mcpServers = (optionalArray(body, 'mcp_servers') ?? []).map((server, i) => {
    if (typeof server !== 'string' || server === '')
      throw badRequest(`mcp_servers[${i}]`, `'mcp_servers[${i}]' must be a server address string`, 'invalid_type');
    return server;
  });
  let reasoningEffort: string | undefined = optionalEnum(body, 'reasoning_effort', ['low', 'medium', 'high'] as const);
  if (body.thinking !== undefined) {
    if (!isObject(body.thinking)) throw badRequest('thinking', "'thinking' must be an object", 'invalid_type');
    const budget = body.thinking.budget_tokens;
    if (body.thinking.type === 'enabled')
      reasoningEffort ??= typeof budget === 'number' && budget >= 8000 ? 'high' : 'medium';
  }
  return {
    images: allImages,
    // Real providers count the tools' definitions as part of the prompt.
    promptTokens: promptTokens + (tools.length ? countTokens(JSON.stringify(body.tools)) : 0),
    sim: {
      messageCount: messages.length,
      lastUserText,
      lastIsUser: isObject(last) && last.role === 'user',
      toolResult: endsWithTool ? lastTool : undefined,
      tools,
      toolChoice,
      reasoningEffort,
      mcpServers,
      images: lastUserImages,
    },
  };
}
