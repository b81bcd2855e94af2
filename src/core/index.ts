// The public surface of src/core (issue 3). Other layers import from here only.
export { GatewayClient } from './client';
export { ChatStreamAccumulator } from './chatAccumulator';
export type { AccumulatedToolCall, ChatStreamSnapshot } from './chatAccumulator';
export { MessageStreamAccumulator } from './messageAccumulator';
export {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  InvalidRequestError,
  RateLimitError,
  StreamError,
  TimeoutError,
  isAbortError,
} from './errors';
export type { GatewayErrorInit } from './errors';

// Pure helpers later features use.
export { apiBaseUrl, normalizeBaseUrl } from './baseUrl';
export { parseChatStream } from './chatStream';
export { parseMessagesStream } from './messagesStream';
export { sseEvents } from './sse';
export type { SseEvent } from './sse';
export { parseErrorBody } from './parse/errorBody';
export type { ErrorBody } from './parse/errorBody';
export { backoffDelay, isOutOfCredits, isRetryableStatus, parseRetryAfter, DEFAULT_MAX_RETRIES, MAX_RETRY_AFTER_MS } from './retry';
export {
  buildResearchQuery,
  classifyResearchStatus,
  extractResearchReport,
  extractResearchSources,
  isKnownResearchStatus,
  isResearchTerminal,
  whereAnd,
  whereField,
  whereOr,
  whereStatus,
} from './researchHelpers';
export { classifyModel } from './modelCategory';
export { MAX_SPEECH_INPUT, splitSpeechInput } from './speechInput';
export { decodeBase64Embedding } from './parse/resources';
export { redactSecrets } from './redact';

export type { ApiKeySource, AuthHeader, GatewayClientOptions, RequestOptions } from './types/common';
export type {
  ChatChoice,
  ChatChunkChoice,
  ChatChunkDelta,
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionRequest,
  ChatContentPart,
  ChatFunctionTool,
  ChatMessageParam,
  ChatToolCall,
  ChatToolCallDelta,
  ChatToolChoice,
  ToolExecuted,
  Usage,
} from './types/chat';
export type {
  ContentBlock,
  ContentBlockDeltaEvent,
  ContentBlockParam,
  ContentBlockStartEvent,
  ContentBlockStopEvent,
  ImageBlockParam,
  Message,
  MessageCreateRequest,
  MessageDelta,
  MessageDeltaEvent,
  MessageParam,
  MessageStartEvent,
  MessageStopEvent,
  MessageStreamEvent,
  MessageTool,
  MessageUsage,
  OtherBlock,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlockParam,
  ToolUseBlock,
} from './types/messages';
export type {
  Embedding,
  EmbeddingList,
  EmbeddingRequest,
  GeneratedImage,
  ImageGenerationRequest,
  ImageGenerationResult,
  RerankItem,
  RerankRequest,
  RerankResult,
  SpeechFormat,
  SpeechRequest,
  SpeechResult,
  Transcription,
  TranscriptionFormat,
  TranscriptionRequest,
  TranscriptionSegment,
  TranscriptionWord,
} from './types/media';
export type {
  Model,
  ModelCategory,
  Quota,
  ResearchCreated,
  ResearchJob,
  ResearchList,
  ResearchListQuery,
  ResearchPhase,
  ResearchSource,
  ResearchWhere,
  ResearchWhereOperator,
} from './types/account';
