// Typed views of chat completion bodies and stream chunks, tolerant of every variant in
// wire-conventions "Chat completions": missing id/object/created, `choices: null`, reasoning under
// either name, tool-call fragments, `tools_executed` as strings or objects.
import type {
  ChatChoice,
  ChatChunkChoice,
  ChatChunkDelta,
  ChatCompletion,
  ChatCompletionChunk,
  ChatToolCall,
  ChatToolCallDelta,
  ToolExecuted,
  Usage,
} from '../types/chat';
import { arr, asRecord, isRecord, num, str } from './json';
import type { JsonRecord } from './json';

export function parseUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = num(value.prompt_tokens) ?? 0;
  const completion = num(value.completion_tokens) ?? 0;
  return { ...value, prompt_tokens: prompt, completion_tokens: completion, total_tokens: num(value.total_tokens) ?? prompt + completion };
}

export function parseToolsExecuted(value: unknown): ToolExecuted[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tools: ToolExecuted[] = [];
  for (const item of value) {
    if (typeof item === 'string') tools.push(item);
    else if (isRecord(item)) tools.push(item);
  }
  return tools;
}

function parseToolCall(value: unknown): ChatToolCall | undefined {
  if (!isRecord(value)) return undefined;
  const fn = asRecord(value.function);
  const args = fn.arguments;
  return {
    id: str(value.id) ?? '',
    type: 'function',
    function: { name: str(fn.name) ?? '', arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args) },
  };
}

function parseChoice(value: unknown, position: number): ChatChoice {
  const choice = asRecord(value);
  const message = asRecord(choice.message);
  const content = message.content;
  const parsed: ChatChoice = {
    index: num(choice.index) ?? position,
    message: { role: str(message.role) ?? 'assistant', content: typeof content === 'string' ? content : joinContentParts(content) },
    finish_reason: str(choice.finish_reason) ?? null,
  };
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning !== undefined) parsed.message.reasoning_content = reasoning;
  const toolCalls = arr(message.tool_calls).map(parseToolCall).filter((call): call is ChatToolCall => call !== undefined);
  if (toolCalls.length > 0) parsed.message.tool_calls = toolCalls;
  return parsed;
}

/** Some providers answer content as an array of text parts; the caller gets one string. */
function joinContentParts(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const texts = content.map((part) => (typeof part === 'string' ? part : str(asRecord(part).text) ?? ''));
  return texts.join('');
}

export function parseChatCompletion(value: unknown): ChatCompletion {
  const body = asRecord(value);
  const completion: ChatCompletion = {
    id: str(body.id) ?? '',
    object: str(body.object) ?? 'chat.completion',
    created: num(body.created) ?? 0,
    model: str(body.model) ?? '',
    choices: arr(body.choices).map(parseChoice),
  };
  const usage = parseUsage(body.usage);
  if (usage) completion.usage = usage;
  const tools = parseToolsExecuted(body.tools_executed);
  if (tools) completion.tools_executed = tools;
  return completion;
}

function parseToolCallDelta(value: unknown, position: number): ChatToolCallDelta | undefined {
  if (!isRecord(value)) return undefined;
  const delta: ChatToolCallDelta = { index: num(value.index) ?? position };
  const id = str(value.id);
  if (id) delta.id = id;
  const type = str(value.type);
  if (type) delta.type = type;
  if (isRecord(value.function)) {
    const fn: { name?: string; arguments?: string } = {};
    const name = str(value.function.name);
    if (name) fn.name = name;
    const args = value.function.arguments;
    if (typeof args === 'string') fn.arguments = args;
    else if (isRecord(args)) fn.arguments = JSON.stringify(args);
    delta.function = fn;
  }
  return delta;
}

function parseDelta(value: JsonRecord): ChatChunkDelta {
  const delta: ChatChunkDelta = {};
  const role = value.role;
  if (typeof role === 'string') delta.role = role;
  const content = value.content;
  if (typeof content === 'string') delta.content = content;
  const reasoningContent = value.reasoning_content;
  if (typeof reasoningContent === 'string') delta.reasoning_content = reasoningContent;
  const reasoning = value.reasoning;
  if (typeof reasoning === 'string') delta.reasoning = reasoning;
  const toolCalls = value.tool_calls;
  if (Array.isArray(toolCalls)) {
    const calls: ChatToolCallDelta[] = [];
    for (let i = 0; i < toolCalls.length; i++) {
      const call = parseToolCallDelta(toolCalls[i], i);
      if (call) calls.push(call);
    }
    delta.tool_calls = calls;
  }
  return delta;
}

/** One stream chunk. Written for speed: it runs once per event of every stream. */
export function parseChatChunk(body: JsonRecord): ChatCompletionChunk {
  const rawChoices = body.choices;
  const choices: ChatChunkChoice[] = [];
  if (Array.isArray(rawChoices)) {
    for (let i = 0; i < rawChoices.length; i++) {
      const raw: unknown = rawChoices[i];
      if (!isRecord(raw)) continue;
      const index = raw.index;
      const finish = raw.finish_reason;
      choices.push({
        index: typeof index === 'number' ? index : i,
        // A non-streaming-style `message` in a chunk is read as the delta (some proxies do that).
        delta: parseDelta(isRecord(raw.delta) ? raw.delta : asRecord(raw.message)),
        finish_reason: typeof finish === 'string' && finish !== '' ? finish : null,
      });
    }
  }
  const chunk: ChatCompletionChunk = { choices };
  if (typeof body.id === 'string') chunk.id = body.id;
  if (typeof body.object === 'string') chunk.object = body.object;
  if (typeof body.created === 'number') chunk.created = body.created;
  if (typeof body.model === 'string') chunk.model = body.model;
  if (body.usage !== undefined && body.usage !== null) {
    const usage = parseUsage(body.usage);
    if (usage) chunk.usage = usage;
  }
  if (body.tools_executed !== undefined) {
    const tools = parseToolsExecuted(body.tools_executed);
    if (tools) chunk.tools_executed = tools;
  }
  return chunk;
}
