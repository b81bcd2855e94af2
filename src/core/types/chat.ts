// OpenAI-style chat completions as the gateway speaks them (gateway-api.md, wire-conventions "Chat").

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

interface ChatContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** A message sent in a request. `reasoning_content`/`reasoning` are stripped before sending. */
export interface ChatMessageParam {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {});
  content: string | null | ChatContentPart[];
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessageParam[];
  /** 0 to 2. */
  temperature?: number;
  max_tokens?: number;
  tools?: ChatFunctionTool[];
  tool_choice?: ChatToolChoice;
  mcp_servers?: string[];
  thinking?: { type: string; budget_tokens?: number };
  reasoning_effort?: 'low' | 'medium' | 'high';
  generation_config?: Record<string, unknown>;
  safety_settings?: { category: string; threshold: string }[];
  /** Set by the client for streams unless given here; dropped for gateways that reject it. */
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [key: string]: unknown;
}

/** A tool the gateway ran through `mcp_servers`: a name, or an object with what the server told. */
export type ToolExecuted =
  string | { name?: string; arguments?: unknown; result?: unknown; server?: string; [key: string]: unknown };

interface ChatCompletionMessage {
  role: string;
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
  /** Sources (`url_citation` items), kept as sent: src/core/parse/sources.ts reads them. */
  annotations?: unknown[];
}

export interface ChatChoice {
  index: number;
  message: ChatCompletionMessage;
  /** stop, length, tool_calls, content_filter, or any other text the server sends. */
  finish_reason: string | null;
}

export interface ChatCompletion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: Usage;
  tools_executed?: ToolExecuted[];
}

export interface ChatToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChatChunkDelta {
  role?: string;
  content?: string;
  reasoning_content?: string;
  reasoning?: string;
  tool_calls?: ChatToolCallDelta[];
  /** Sources (`url_citation` items), kept as sent: src/core/parse/sources.ts reads them. */
  annotations?: unknown[];
}

interface ChatChunkChoice {
  index: number;
  delta: ChatChunkDelta;
  finish_reason: string | null;
}

export interface ChatCompletionChunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  /** Empty (never null) on the final usage chunk. */
  choices: ChatChunkChoice[];
  usage?: ChunkUsage;
  tools_executed?: ToolExecuted[];
}

/**
 * A stream chunk's usage as sent: a count the server did not know (a proxy sends `null`) is left
 * out, so that it never replaces a count an earlier chunk gave (ChatStreamAccumulator).
 */
export interface ChunkUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  [key: string]: unknown;
}
