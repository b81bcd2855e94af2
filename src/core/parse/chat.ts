// Typed views of chat completion bodies and stream chunks, tolerant of every variant in
// wire-conventions "Chat completions": missing id/object/created, `choices: null`, reasoning under
// either name, tool-call fragments, `tools_executed` as strings or objects.
import type {
  ChatChoice,
  ChatChunkDelta,
  ChatCompletion,
  ChatCompletionChunk,
  ChatToolCall,
  ChatToolCallDelta,
  ChunkUsage,
  ToolExecuted,
  Usage,
} from '../types/chat';
import { contentText } from './contentParts';
import { arr, asRecord, isRecord, num, str } from './json';
import type { JsonRecord } from './json';

function parseUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = num(value.prompt_tokens) ?? 0;
  const completion = num(value.completion_tokens) ?? 0;
  return {
    ...value,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: num(value.total_tokens) ?? prompt + completion,
  };
}

const USAGE_COUNTS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;

/** A chunk's usage with only the counts it knows: `null` (or any non-number) counts are left out. */
export function parseChunkUsage(value: unknown): ChunkUsage | undefined {
  if (!isRecord(value)) return undefined;
  const usage: ChunkUsage = { ...value };
  for (const key of USAGE_COUNTS) {
    const count = num(value[key]);
    if (count === undefined) delete usage[key];
    else usage[key] = count;
  }
  return usage;
}

/**
 * A later usage over an earlier one (either may be absent): counts the later one knows replace,
 * the others stay (a proxy's closing `"prompt_tokens": null` keeps the known count); other fields
 * the later one sends as null or leaves out stay too. The total follows its parts unless sent.
 */
export function mergeUsage(earlier: ChunkUsage | undefined, later: ChunkUsage): ChunkUsage {
  // Copied as data (spread, fromEntries), never assigned: a gateway's `"__proto__"` key stays a key.
  const known = Object.entries(later).filter(([, value]) => value !== null && value !== undefined);
  const merged: ChunkUsage = { ...earlier, ...Object.fromEntries(known) };
  if (later.total_tokens === undefined && (later.prompt_tokens !== undefined || later.completion_tokens !== undefined))
    merged.total_tokens = (merged.prompt_tokens ?? 0) + (merged.completion_tokens ?? 0);
  return merged;
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
    function: {
      name: str(fn.name) ?? '',
      // No arguments (absent, null or "") are the empty object: a call of a tool that takes none.
      arguments:
        typeof args === 'string' ? (args.trim() === '' ? '{}' : args) : args == null ? '{}' : JSON.stringify(args),
    },
  };
}

function parseChoice(value: unknown, position: number): ChatChoice {
  const choice = asRecord(value);
  const message = asRecord(choice.message);
  const content = message.content;
  const parsed: ChatChoice = {
    index: num(choice.index) ?? position,
    message: { role: str(message.role) ?? 'assistant', content: contentText(content) ?? null },
    finish_reason: str(choice.finish_reason) ?? null,
  };
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning !== undefined) parsed.message.reasoning_content = reasoning;
  const toolCalls = arr(message.tool_calls)
    .map(parseToolCall)
    .filter((call): call is ChatToolCall => call !== undefined);
  if (toolCalls.length > 0) parsed.message.tool_calls = toolCalls;
  if (Array.isArray(message.annotations)) parsed.message.annotations = message.annotations;
  return parsed;
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

function normalizeToolCallDelta(value: JsonRecord, position: number): ChatToolCallDelta {
  // Only a non-number pays for this: a numeric string ("2") is still the server's index.
  if (typeof value.index !== 'number') value.index = num(value.index) ?? position;
  if (value.id !== undefined && typeof value.id !== 'string') delete value.id;
  if (value.type !== undefined && typeof value.type !== 'string') delete value.type;
  const fn = value.function;
  if (isRecord(fn)) {
    if (fn.name !== undefined && typeof fn.name !== 'string') delete fn.name;
    const args = fn.arguments;
    if (args !== undefined && typeof args !== 'string') {
      if (isRecord(args)) fn.arguments = JSON.stringify(args);
      else delete fn.arguments;
    }
  } else if (fn !== undefined) {
    delete value.function;
  }
  return value as unknown as ChatToolCallDelta;
}

function normalizeDelta(value: JsonRecord): ChatChunkDelta {
  if (value.role !== undefined && typeof value.role !== 'string') delete value.role;
  const content = value.content;
  if (content !== undefined && typeof content !== 'string') {
    // An array of parts becomes its text; null or anything else is dropped.
    const text = contentText(content);
    if (text === undefined) delete value.content;
    else value.content = text;
  }
  if (value.reasoning_content !== undefined && typeof value.reasoning_content !== 'string')
    delete value.reasoning_content;
  if (value.reasoning !== undefined && typeof value.reasoning !== 'string') delete value.reasoning;
  const calls = value.tool_calls;
  if (Array.isArray(calls)) {
    let clean = true;
    for (let i = 0; i < calls.length; i++) {
      const call: unknown = calls[i];
      if (isRecord(call)) normalizeToolCallDelta(call, i);
      else clean = false;
    }
    if (!clean) value.tool_calls = calls.filter(isRecord);
  } else if (calls !== undefined) {
    delete value.tool_calls;
  }
  // Read item by item later (parse/sources.ts); only a list is kept.
  if (value.annotations !== undefined && !Array.isArray(value.annotations)) delete value.annotations;
  return value;
}

/**
 * One stream chunk, normalized in place: this runs once per event of every stream, so a valid
 * chunk costs a few typeof checks and no copies. Fields of the wrong type are dropped, missing
 * ones filled in (choices [], index, finish_reason null); unknown fields are left alone.
 */
export function normalizeChatChunk(body: JsonRecord): ChatCompletionChunk {
  const choices = body.choices;
  if (Array.isArray(choices)) {
    let clean = true;
    for (let i = 0; i < choices.length; i++) {
      const choice: unknown = choices[i];
      if (!isRecord(choice)) {
        clean = false;
        continue;
      }
      if (typeof choice.index !== 'number') choice.index = num(choice.index) ?? i;
      const delta = choice.delta;
      // A non-streaming-style `message` in a chunk is read as the delta (some proxies do that).
      if (isRecord(delta)) normalizeDelta(delta);
      else choice.delta = normalizeDelta(isRecord(choice.message) ? choice.message : {});
      const finish = choice.finish_reason;
      if (typeof finish !== 'string' || finish === '') choice.finish_reason = null;
    }
    if (!clean) body.choices = choices.filter(isRecord);
  } else {
    body.choices = [];
  }
  if (body.id !== undefined && typeof body.id !== 'string') delete body.id;
  if (body.object !== undefined && typeof body.object !== 'string') delete body.object;
  if (body.created !== undefined && typeof body.created !== 'number') delete body.created;
  if (body.model !== undefined && typeof body.model !== 'string') delete body.model;
  if (body.usage !== undefined) {
    const usage = parseChunkUsage(body.usage);
    if (usage) body.usage = usage;
    else delete body.usage;
  }
  if (body.tools_executed !== undefined) {
    const tools = parseToolsExecuted(body.tools_executed);
    if (tools) body.tools_executed = tools;
    else delete body.tools_executed;
  }
  return body as unknown as ChatCompletionChunk;
}
