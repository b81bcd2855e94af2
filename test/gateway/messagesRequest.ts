import type { SimInput, SimTool, SimToolChoice } from './chatSim';
import { badRequest } from './errors';
import { IMAGE_TOKENS } from './chatRequest';
import { messagesImageBlock, type ReceivedImage } from './imageParts';
import { isIssuedRedactedData } from './messagesFaults';
import { countTokens, hmacBase64 } from './text';
import { isObject, optionalArray, requireString, type JsonObject } from './validate';

/**
 * Turns an Anthropic-style /messages body into SimInput. Field paths in errors follow that API's
 * style (`messages.1.content.0.signature`). Thinking blocks sent back must carry the signature
 * this gateway gave them, which is how clients are tested for returning them intact.
 */

const BLOCK_TYPES = [
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'mcp_tool_use',
  'mcp_tool_result',
];

export interface ParsedMessages {
  readonly sim: Omit<SimInput, 'model' | 'maxTokens'>;
  readonly inputTokens: number;
  readonly thinking: boolean;
  /** Every image the request carried (a model without image input refuses them). */
  readonly images: readonly ReceivedImage[];
}

function blockText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

function parseTools(body: JsonObject): SimTool[] {
  return (optionalArray(body, 'tools') ?? []).map((tool, i) => {
    if (!isObject(tool) || typeof tool.name !== 'string' || tool.name === '')
      throw badRequest(`tools.${i}.name`, `tools.${i}.name: Field required`, 'missing_required_parameter');
    if (tool.input_schema !== undefined && !isObject(tool.input_schema))
      throw badRequest(`tools.${i}.input_schema`, `tools.${i}.input_schema: must be an object`, 'invalid_type');
    return { name: tool.name, schema: tool.input_schema ?? {} };
  });
}

function parseToolChoice(body: JsonObject, tools: readonly SimTool[]): SimToolChoice {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return { kind: 'auto' };
  if (!isObject(choice))
    throw badRequest('tool_choice', 'tool_choice: must be an object like {"type": "auto"}', 'invalid_type');
  switch (choice.type) {
    case 'auto':
      return { kind: 'auto' };
    case 'any':
      return { kind: 'required' };
    case 'none':
      return { kind: 'none' };
    case 'tool':
      if (typeof choice.name !== 'string' || !tools.some((t) => t.name === choice.name))
        throw badRequest('tool_choice.name', 'tool_choice.name: must name one of the tools');
      return { kind: 'named', name: choice.name };
    default:
      throw badRequest('tool_choice.type', 'tool_choice.type: must be auto, any, tool or none');
  }
}

export function parseMessagesRequest(body: JsonObject, maxTokens: number, secret: string): ParsedMessages {
  const messages = optionalArray(body, 'messages');
  if (!messages) throw badRequest('messages', 'messages: Field required', 'missing_required_parameter');
  if (messages.length === 0) throw badRequest('messages', 'messages: at least one message is required');
  let inputTokens = countTokens(blockText(body.system));
  let lastUserText = '';
  let lastUserImages: ReceivedImage[] = [];
  const allImages: ReceivedImage[] = [];
  let toolResult: { name?: string; content: string } | undefined;
  const toolNames = new Map<string, string>();
  messages.forEach((message, i) => {
    if (!isObject(message)) throw badRequest(`messages.${i}`, `messages.${i}: must be an object`, 'invalid_type');
    if (message.role !== 'user' && message.role !== 'assistant')
      throw badRequest(`messages.${i}.role`, `messages.${i}.role: must be "user" or "assistant"`);
    const content = message.content;
    if (typeof content === 'string') {
      inputTokens += 3 + countTokens(content);
      if (message.role === 'user') [lastUserText, toolResult, lastUserImages] = [content, undefined, []];
      return;
    }
    if (!Array.isArray(content))
      throw badRequest(
        `messages.${i}.content`,
        `messages.${i}.content: must be a string or an array of content blocks`,
        'invalid_type',
      );
    const texts: string[] = [];
    const images: ReceivedImage[] = [];
    let result: { name?: string; content: string } | undefined;
    content.forEach((block, j) => {
      const field = `messages.${i}.content.${j}`;
      if (!isObject(block) || typeof block.type !== 'string' || !BLOCK_TYPES.includes(block.type)) {
        throw badRequest(`${field}.type`, `${field}.type: must be one of ${BLOCK_TYPES.join(', ')}`);
      }
      if (block.type === 'text') texts.push(requireString(block, 'text'));
      if (block.type === 'image') {
        images.push(messagesImageBlock(block, field));
        inputTokens += IMAGE_TOKENS;
      }
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
        toolNames.set(block.id, block.name);
      if (block.type === 'tool_result') {
        const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
        if (!id)
          throw badRequest(
            `${field}.tool_use_id`,
            `${field}.tool_use_id: Field required`,
            'missing_required_parameter',
          );
        result = { name: toolNames.get(id), content: blockText(block.content) };
      }
      if (block.type === 'redacted_thinking') {
        if (message.role !== 'assistant')
          throw badRequest(`${field}.type`, `${field}: redacted_thinking blocks belong to assistant messages`);
        if (typeof block.data !== 'string' || !isIssuedRedactedData(secret, block.data)) {
          throw badRequest(
            `${field}.data`,
            `${field}.data: Invalid \`data\` in \`redacted_thinking\` block (it must be sent back exactly as received)`,
            'invalid_redacted_thinking',
          );
        }
      }
      if (block.type === 'thinking') {
        if (message.role !== 'assistant')
          throw badRequest(`${field}.type`, `${field}: thinking blocks belong to assistant messages`);
        const thinking = typeof block.thinking === 'string' ? block.thinking : '';
        if (typeof block.signature !== 'string' || block.signature !== hmacBase64(secret, thinking)) {
          throw badRequest(
            `${field}.signature`,
            `${field}.signature: Invalid \`signature\` in \`thinking\` block (it must be sent back exactly as received, with its text unchanged)`,
            'invalid_signature',
          );
        }
      }
      inputTokens += countTokens(blockText([block]));
    });
    inputTokens += 3;
    allImages.push(...images);
    if (message.role === 'user') {
      lastUserText = texts.join('\n') || lastUserText;
      toolResult = result;
      lastUserImages = images;
    }
  });
  const last = messages[messages.length - 1];
  let thinking = false;
  if (body.thinking !== undefined && body.thinking !== null) {
    if (!isObject(body.thinking)) throw badRequest('thinking', 'thinking: must be an object', 'invalid_type');
    if (body.thinking.type === 'enabled') {
      const budget = body.thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget))
        throw badRequest(
          'thinking.budget_tokens',
          'thinking.budget_tokens: Field required (an integer)',
          'missing_required_parameter',
        );
      if (budget < 1024)
        throw badRequest(
          'thinking.budget_tokens',
          'thinking.budget_tokens: Input should be greater than or equal to 1024',
        );
      if (budget >= maxTokens)
        throw badRequest('thinking.budget_tokens', '`max_tokens` must be greater than `thinking.budget_tokens`');
      thinking = true;
    } else if (body.thinking.type !== 'disabled') {
      throw badRequest('thinking.type', 'thinking.type: must be "enabled" or "disabled"');
    }
  }
  const tools = parseTools(body);
  // Attached tool servers, as on chat completions (wire-conventions: sent on /messages too).
  const mcpServers = (optionalArray(body, 'mcp_servers') ?? []).map((server, i) => {
    if (typeof server !== 'string' || server === '')
      throw badRequest(`mcp_servers.${i}`, `mcp_servers.${i}: must be a server address string`, 'invalid_type');
    return server;
  });
  const budget = isObject(body.thinking) ? Number(body.thinking.budget_tokens) : 0;
  return {
    // Real providers count the tools' definitions as part of the input.
    inputTokens: inputTokens + (tools.length ? countTokens(JSON.stringify(body.tools)) : 0),
    thinking,
    images: allImages,
    sim: {
      messageCount: messages.length,
      lastUserText,
      lastIsUser: isObject(last) && last.role === 'user',
      toolResult,
      tools,
      toolChoice: parseToolChoice(body, tools),
      reasoningEffort: thinking ? (budget >= 8000 ? 'high' : 'medium') : undefined,
      mcpServers,
      images: lastUserImages,
    },
  };
}
