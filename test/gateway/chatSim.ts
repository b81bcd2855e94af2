import type { CatalogModel } from './catalog';
import { imageEcho, type ReceivedImage } from './imageParts';
import { scriptedToolCall } from './scriptedToolCall';
import { benchPiece, simulatedReply, streamPieces, truncate, words } from './text';

/**
 * The decision logic shared by /chat/completions and /messages. Both endpoints first normalise
 * their request into a SimInput, so tool calls, reasoning and long streams follow one rule set
 * (documented in README.md, "How the chat simulation decides").
 */

export interface SimTool {
  readonly name: string;
  /** JSON schema of the arguments (`parameters` / `input_schema`). */
  readonly schema: unknown;
}

export type SimToolChoice =
  { kind: 'auto' } | { kind: 'none' } | { kind: 'required' } | { kind: 'named'; name: string };

export interface SimInput {
  readonly model: CatalogModel;
  readonly messageCount: number;
  /** Text of the last user message (also when a tool result follows it). */
  readonly lastUserText: string;
  /** Tools are only called in answer to a user message. */
  readonly lastIsUser: boolean;
  /** Present when the conversation ends with a tool result: answer in text using it. */
  readonly toolResult?: { readonly name?: string; readonly content: string };
  readonly tools: readonly SimTool[];
  readonly toolChoice: SimToolChoice;
  /** undefined: no reasoning requested (reasoning models still reason, at `medium`). */
  readonly reasoningEffort?: string;
  readonly mcpServers: readonly string[];
  /** Images of the last user message: a vision model answers with what it received. */
  readonly images: readonly ReceivedImage[];
  readonly maxTokens?: number;
  /** `reply=` fault: the text answer is exactly this (tool calls and reasoning still follow the rules). */
  readonly scripted?: string;
  /** `tool-args`: the call is scripted by the last user message (scriptedToolCall.ts). */
  readonly scriptedTools?: boolean;
}

interface ToolExecution {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly result: string;
  readonly server: string;
}

export interface SimPlan {
  readonly reasoning?: string;
  /** Content stream pieces, already cut to max_tokens; joined they are the whole content. */
  readonly contentPieces: readonly string[];
  readonly toolCall?: { readonly name: string; readonly arguments: string };
  readonly toolsExecuted: readonly ToolExecution[];
  readonly finish: 'stop' | 'length' | 'tool_calls';
}

/** Long streams for benchmarks: `max_tokens` chunks from the bench model, this many when it is not given. */
export const BENCH_DEFAULT_TOKENS = 1000;
const BENCH_MAX_TOKENS = 200_000;

const REASONING_STEPS: Record<string, number> = { minimal: 1, low: 2, medium: 4, high: 8 };

function reasoningText(effort: string, prompt: string): string {
  const steps = REASONING_STEPS[effort] ?? 4;
  const sentences = [
    `The user wrote ${words(prompt).length} words; this is a local simulation, so I reason by rule, not by model.`,
    `Key phrase: "${truncate(prompt, 40) || 'nothing'}".`,
    'A heading, a list and a code block make the answer easy to check.',
    'No tool is needed unless one is named in the message.',
    'Deterministic output means the same question gets the same answer.',
    'The reply should say plainly that it is simulated.',
    'Keeping it short keeps the tests fast.',
    'Done thinking; writing the answer.',
  ];
  return sentences.slice(0, steps).join(' ');
}

function mentions(prompt: string, name: string): boolean {
  const text = prompt.toLowerCase();
  const lower = name.toLowerCase();
  return text.includes(lower) || text.includes(lower.replace(/[_-]+/g, ' '));
}

/** Chooses the tool to call, or none. See README.md for the rule. */
function chooseTool(input: SimInput): SimTool | undefined {
  if (!input.lastIsUser || input.toolResult || input.tools.length === 0) return undefined;
  const choice = input.toolChoice;
  if (choice.kind === 'none') return undefined;
  if (choice.kind === 'named') return input.tools.find((t) => t.name === choice.name);
  const mentioned = input.tools.find((t) => mentions(input.lastUserText, t.name));
  if (mentioned) return mentioned;
  return choice.kind === 'required' ? input.tools[0] : undefined;
}

function schemaRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Plausible arguments from the tool's schema: strings from the prompt, the first enum value, 1, true. */
function argumentsFor(schema: unknown, prompt: string): Record<string, unknown> {
  const properties = schemaRecord(schemaRecord(schema).properties);
  const args: Record<string, unknown> = {};
  const firstNumber = Number(prompt.match(/-?\d+(\.\d+)?/)?.[0] ?? 1);
  for (const [name, raw] of Object.entries(properties)) {
    const prop = schemaRecord(raw);
    const enumValues = Array.isArray(prop.enum) ? prop.enum : undefined;
    if (enumValues && enumValues.length) args[name] = enumValues[0];
    else if (prop.type === 'integer') args[name] = Math.trunc(firstNumber);
    else if (prop.type === 'number') args[name] = firstNumber;
    else if (prop.type === 'boolean') args[name] = true;
    else if (prop.type === 'array') args[name] = [truncate(prompt, 30)];
    else if (prop.type === 'object') args[name] = {};
    else args[name] = truncate(prompt, 60) || name;
  }
  return args;
}

function executeMcp(servers: readonly string[], prompt: string): ToolExecution[] {
  return servers.slice(0, 3).map((server, i) => {
    const query = truncate(prompt, 60);
    return {
      name: i === 0 ? 'sim_search' : `sim_tool_${i + 1}`,
      arguments: { query },
      result: `Simulated result from ${server} for "${query}": 3 items found (local simulation, nothing was fetched).`,
      server,
    };
  });
}

function cut(pieces: string[], maxTokens: number | undefined): { pieces: string[]; truncated: boolean } {
  if (maxTokens === undefined || pieces.length <= maxTokens) return { pieces, truncated: false };
  return { pieces: pieces.slice(0, maxTokens), truncated: true };
}

export function planReply(input: SimInput): SimPlan {
  const effort = input.reasoningEffort ?? (input.model.reasoning ? 'medium' : undefined);
  const reasoning = effort ? reasoningText(effort, input.lastUserText) : undefined;
  if (input.model.bench) {
    const count = Math.min(input.maxTokens ?? BENCH_DEFAULT_TOKENS, BENCH_MAX_TOKENS);
    return {
      reasoning,
      contentPieces: Array.from({ length: count }, (_, i) => benchPiece(i)),
      toolsExecuted: [],
      finish: 'stop',
    };
  }
  const scripted = input.scriptedTools ? scriptedToolCall(input) : undefined;
  if (scripted) return { reasoning, contentPieces: [], toolCall: scripted, toolsExecuted: [], finish: 'tool_calls' };
  const tool = chooseTool(input);
  if (tool) {
    const args = JSON.stringify(argumentsFor(tool.schema, input.lastUserText));
    return {
      reasoning,
      contentPieces: [],
      toolCall: { name: tool.name, arguments: args },
      toolsExecuted: [],
      finish: 'tool_calls',
    };
  }
  const toolsExecuted = input.toolResult ? [] : executeMcp(input.mcpServers, input.lastUserText);
  let extra: string | undefined;
  if (input.toolResult) {
    extra = `Using the result of the tool${input.toolResult.name ? ` \`${input.toolResult.name}\`` : ''}: ${truncate(input.toolResult.content, 200)}`;
  } else if (toolsExecuted.length) {
    extra = `Server-side tools ran first: ${toolsExecuted.map((t) => `\`${t.name}\` on ${t.server}`).join(', ')}.`;
  }
  if (input.images.length > 0) extra = [imageEcho(input.images), extra].filter(Boolean).join('\n\n');
  const text =
    input.scripted ??
    simulatedReply({ model: input.model.id, prompt: input.lastUserText, messageCount: input.messageCount, extra });
  const { pieces, truncated } = cut(streamPieces(text), input.maxTokens);
  return { reasoning, contentPieces: pieces, toolsExecuted, finish: truncated ? 'length' : 'stop' };
}
