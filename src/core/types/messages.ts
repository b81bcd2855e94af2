// The Anthropic Messages format of POST /api/v1/messages (wire-conventions "Messages").

interface TextBlock {
  type: 'text';
  text: string;
  /** Sources the text cites (web search result locations...), as sent; never sent back. */
  citations?: unknown[];
}
interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
/** Sent back unchanged (with its signature) in later turns. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
/** A block type this client does not know; kept as it came. */
export interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

interface ImageBlockParam {
  type: 'image';
  source: { type: string; media_type?: string; data?: string; url?: string };
}
interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (TextBlock | ImageBlockParam)[];
  is_error?: boolean;
}

export type ContentBlockParam =
  TextBlock | ImageBlockParam | ToolUseBlock | ToolResultBlockParam | ThinkingBlock | RedactedThinkingBlock;

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | ContentBlockParam[];
}

export interface MessageTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export interface MessageCreateRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlock[];
  tools?: MessageTool[];
  tool_choice?: { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };
  /** budget_tokens >= 1024 and < max_tokens. */
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  /** 0 to 1. */
  temperature?: number;
  stop_sequences?: string[];
  /** Addresses of tool servers the gateway runs tools on (as on chat completions). */
  mcp_servers?: string[];
  [key: string]: unknown;
}

export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  [key: string]: unknown;
}

export interface Message {
  id: string;
  type: string;
  role: string;
  model: string;
  content: (ContentBlock | OtherBlock)[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: MessageUsage;
}

export type MessageDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  /** One citation of the text block, before the text it cites (read by parse/sources.ts). */
  | { type: 'citations_delta'; citation: unknown };

interface MessageStartEvent {
  type: 'message_start';
  message: Message;
}
interface ContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  content_block: ContentBlock | OtherBlock;
}
interface ContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: MessageDelta;
}
interface ContentBlockStopEvent {
  type: 'content_block_stop';
  index: number;
}
/** Usage counts here are cumulative for the message. */
interface MessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason: string | null; stop_sequence: string | null };
  usage: Partial<MessageUsage>;
}
interface MessageStopEvent {
  type: 'message_stop';
}

/** Pings, errors (thrown as StreamError) and unknown event types are not yielded. */
export type MessageStreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent;
