// The public surface of src/core. Other layers import from here only.
export { GatewayClient } from './client';
export { ChatStreamAccumulator } from './chatAccumulator';
export type { AccumulatedToolCall, ChatStreamSnapshot } from './chatAccumulator';
export { MessageStreamAccumulator } from './messageAccumulator';
export {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  ImageDownloadError,
  InvalidRequestError,
  RateLimitError,
  ResponseTooLargeError,
  StreamError,
  TimeoutError,
  UnexpectedContentError,
  isAbortError,
} from './errors';
export type { GatewayErrorInit, ImageRefusal, TimeoutPhase } from './errors';

// Image downloads (links from the gateway) and image types read from bytes.
export { DEFAULT_IMAGE_TIMEOUT_MS, ImageDownloader, imageFromBase64, MAX_IMAGE_REDIRECTS, typedImage } from './images/imageDownloader';
export type { DownloadedImage, ImageDownloadOptions, ImageSource } from './images/imageDownloader';
export type { HostLookup, ResolvedAddress } from './images/addressPolicy';
export { describeNonImage, IMAGE_TYPES, imageTypeOfExtension, sniffImageType } from './images/imageType';
export type { ImageFormat, ImageType } from './images/imageType';
export { addressClass } from './net/addressClass';
export type { AddressClass } from './net/addressClass';

// Pure helpers later features use.
export { apiBaseUrl, normalizeBaseUrl, sendsKeyInClearText } from './baseUrl';
export { parseChatStream } from './chatStream';
export { parseMessagesStream } from './messagesStream';
export { sseEvents, EVENT_TOO_LARGE, STREAM_TOO_LARGE } from './sse';
export { TOO_MANY_BLOCKS } from './messagesStream';
export { checkJsonValue, parseBoundedJson } from './parse/boundedJson';
export { asRecord, isFiniteNumber, isRecord, str } from './parse/json';
export type { BoundedJson, JsonBounds } from './parse/boundedJson';
export type { SseEvent } from './sse';
export { parseErrorBody } from './parse/errorBody';
export type { ErrorBody } from './parse/errorBody';
export { backoffDelay, isOutOfCredits, isRetryableStatus, parseRetryAfter, DEFAULT_MAX_RETRIES, MAX_RETRY_AFTER_MS } from './retry';
export { clampDelay, MAX_TIMER_DELAY_MS } from './delay';
export {
  formatByteSize,
  MAX_APPLY_MERGE_CHARS,
  MAX_CATALOG_BYTES,
  MAX_IMAGE_BYTES,
  MAX_JSON_BYTES,
  MAX_MESSAGE_BLOCKS,
  MAX_RESEARCH_LIST_BYTES,
  MAX_SERVER_TOOL_STEPS_PER_ANSWER,
  MAX_SSE_EVENT_BYTES,
  MAX_SSE_STREAM_BYTES,
  MAX_TOOL_ARGUMENT_BYTES,
  MAX_TOOL_ARGUMENT_DEPTH,
  MAX_TOOL_CALLS_PER_ANSWER,
  MAX_SMALL_JSON_BYTES,
  MAX_SPEECH_BYTES,
  MAX_TRANSCRIPTION_BYTES,
  TRANSCRIPTION_CONFIRM_BYTES,
  TRANSCRIPTION_MAX_BYTES,
} from './limits';
export { transcriptionUploadVerdict } from './uploadSize';
export type { UploadVerdict } from './uploadSize';
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
export { modelPricing, pricedCost, type TokenPricing } from './modelPricing';
export { MAX_SPEECH_INPUT, splitSpeechInput } from './speechInput';
export { audioUploadType, fileExtension, isTranscribableFile, SPEECH_CONTENT_TYPES, SPEECH_FORMATS, TRANSCRIPTION_FILE_EXTENSIONS, TRANSCRIPTION_FORMATS } from './audioFiles';
export { decodeBase64Embedding } from './parse/resources';
export { catalogEntry } from './parse/catalogEntry';
export { REDACTED, redactError, redactSecrets, redactValue, secretForms } from './redact';
export { StreamRedactor } from './streamRedactor';

// Account and network helpers: credits formatting, spend tracking, proxies, diagnosis.
export { formatCredits, formatDuration, formatResetIn, UNKNOWN_CREDITS } from './account/creditsFormat';
export { SpendTracker, SPEND_RETENTION_MS, MAX_SPEND_READINGS } from './account/spendTracker';
export type { CreditReading } from './account/spendTracker';
export { matchesNoProxy, selectProxy } from './net/proxy';
export type { ProxyConfig } from './net/proxy';
export { createDispatcher, describeProxy, InvalidProxyUrlError, isValidProxyUrl } from './net/dispatcher';
export type { DispatcherOptions } from './net/dispatcher';
export { ProxyError } from './net/proxyError';
export { connectionFailureText, diagnoseConnectionError } from './net/diagnose';
export type { ConnectionDiagnosis, ConnectionDiagnosisKind, DiagnosisContext } from './net/diagnose';

export type { ApiKeySource, AuthHeader, DispatcherSource, GatewayClientOptions, RequestOptions } from './types/common';
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

// Research polling policy: the pure schedule and the loop that drives it on an injected clock.
export { DEFAULT_POLL_OPTIONS, intervalForAge, nextPollDelay, resolvePollOptions } from './research/pollSchedule';
export type { PollDecision, PollInput, PollJob, PollOptions } from './research/pollSchedule';
export { ResearchPollLoop, systemPollClock } from './research/pollLoop';
export type { PollClock, ResearchPollLoopOptions, ResearchPollState } from './research/pollLoop';

// Semantic search over a workspace: chunking, the binary vector store, cosine top-k,
// incremental index updates and their files on disk.
export { chunkText, DEFAULT_CHUNK_OPTIONS } from './search/chunking';
export type { ChunkOptions, TextChunk } from './search/chunking';
export { normalize, topK } from './search/cosine';
export type { ScoredIndex } from './search/cosine';
export { VectorStore, VECTOR_HEADER_BYTES } from './search/vectorStore';
export type { ChunkRecord } from './search/vectorStore';
export { contentHash, planUpdate } from './search/indexPlan';
export type { FileState, IndexedFile, UpdatePlan } from './search/indexPlan';
export { chunkHash, SemanticIndex, DEFAULT_BATCH_SIZE } from './search/semanticIndex';
export type { EmbedBatch, IndexProgress, IndexSource, PendingChanges, UpdateOptions, UpdateReport } from './search/semanticIndex';
export { deleteIndex, loadIndex, saveIndex } from './search/indexFiles';
export { DELTA_FILE, IndexStorage, METADATA_FILE, POINTER_FILE, VECTORS_FILE } from './search/indexStorage';
export type { IndexStorageOptions, LoadResult, SaveResult, SaveStep } from './search/indexStorage';
export { rankResults, reorderLines } from './search/rankResults';
export type { Candidate, RankedResult } from './search/rankResults';

// The workspace's files as anything that sends them to a model sees them: real paths inside the
// folders, files.exclude / search.exclude / .gitignore (negations, nested files), sensitive paths,
// reads bounded by a byte cap, binary detection.
export { WorkspaceFiles } from './workspaceFiles/workspaceFiles';
export { AS_IT_WAS, ExclusionBaseline, NOT_KEPT, NOT_KEPT_NOTE, type BaselineBounds } from './workspaceFiles/exclusionBaseline';
export { gitConfigRunValues } from './workspaceFiles/gitRunPaths';
export type { Resolution, ResolveProblem, WorkspaceFilesConfig, WriteResolution } from './workspaceFiles/workspaceFiles';
export type { NewFileProblem, NewFileResolution, NewFileTarget } from './workspaceFiles/newFileTarget';
export type { FolderConfig } from './workspaceFiles/rootFolders';
export type { FolderRef, Placement } from './workspaceFiles/placePath';
export { folderIdentity, isFolderIdentity } from './workspaceFiles/folderIdentity';
export { relativeWithin } from './workspaceFiles/rootFolders';
export type { WorkspaceFile } from './workspaceFiles/workspaceFile';
export type { Listing, ListOptions } from './workspaceFiles/fileWalk';
export type { FileContent } from './workspaceFiles/boundedRead';
export { FileRules } from './workspaceFiles/fileRules';
export type { ExcludeGlobs } from './workspaceFiles/fileRules';
export { compileGlob, compileGlobs, globMachine } from './workspaceFiles/glob';
export type { PathMatcher, RefusedGlob } from './workspaceFiles/glob';
export { MAX_BRACE_DEPTH, MAX_GLOB_LENGTH } from './workspaceFiles/globParse';
export { gitignoreVerdict, isGitignored, parseGitignore, parseGitignoreLine } from './workspaceFiles/gitignore';
export type { GitignoreFile, GitignoreRule } from './workspaceFiles/gitignore';
export { BUILT_IN_SENSITIVE_FILES, sensitiveMatcher } from './workspaceFiles/sensitivePaths';
export { BUILT_IN_GUARDED_WRITES, guardedWriteMatcher } from './workspaceFiles/guardedWrites';
export type { GuardedPath, GuardReason } from './workspaceFiles/guardedWrites';
export { BINARY_SAMPLE_BYTES, decodeText, looksBinary } from './workspaceFiles/binary';
export { isDurableTempName, processIsAlive, removeStrayTempFiles, renameWithRetry, syncFolder, writeFileDurably } from './storage/durableFile';
export type { FileStamp } from './storage/durableFile';
export { CheckpointCorruptError, CheckpointStore, sha256 } from './checkpoints/checkpointStore';
export type { PreImageSource, PruneReport, RecordResult, ReplyIds } from './checkpoints/checkpointStore';
export { fileKey, isCheckpointId, isSafeRelativePath, MANIFEST_VERSION, parseManifest } from './checkpoints/checkpointManifest';
export type { CheckpointFile, CheckpointFileRef, CheckpointManifest, FileState as CheckpointFileState, ManifestParse } from './checkpoints/checkpointManifest';
export { changingItems, planRestore } from './checkpoints/restorePlan';
export { describeDrift, restoreDrift } from './checkpoints/restoreDrift';
export type { DriftKind, DriftNote, PlannedRestore, RestoreDrift } from './checkpoints/restoreDrift';
export type { CurrentState, PlanFile, PlanItem, RestoreAction, RestorePlan, SkippedFile } from './checkpoints/restorePlan';
export { decidePrune } from './checkpoints/pruneRules';
export type { CheckpointSummary, PruneDecision, PruneInput } from './checkpoints/pruneRules';
export { MAX_SNAPSHOT_BYTES } from './checkpoints/snapshotLimit';
export { blockTargetPath, looksLikePath, pathFromFenceInfo, pathFromLineAbove } from './apply/codeTarget';
export { classifyBlock, hasElisionMarkers, isElisionLine } from './apply/wholeFile';
export type { BlockKind } from './apply/wholeFile';
export { codeFromAnswer, fenceFor, matchFileConventions, mergePrompt } from './apply/mergeAnswer';
export type { MergePrompt } from './apply/mergeAnswer';
export { applyHunk, computeHunks, lineRangeOffsets, rebaseProposal, replaceLines, revertHunk, splitLines } from './apply/lineHunks';
export type { Hunk } from './apply/lineHunks';

// The context window: token estimates, the input budget, the compaction plan, context-length errors.
export { calibratedRatio, DEFAULT_TOKENS_PER_CHAR, estimateMessageTokens, estimateRequestTokens, estimateTextTokens, messageChars, MESSAGE_OVERHEAD_TOKENS } from './context/tokenEstimate';
export type { ContextMessage, ContextPart } from './context/tokenEstimate';
export { contextBudget, DEFAULT_OUTPUT_RESERVE } from './context/contextBudget';
export type { ContextBudget } from './context/contextBudget';
export { MIN_TRIM_CHARS, trimMiddle, trimmedNote } from './context/trimText';
export { DEFAULT_KEEP_TURNS, OLD_RESULT_CHARS, planCompaction } from './context/compactionPlan';
export type { CompactionInput, CompactionPlan, ContextTurn } from './context/compactionPlan';
export { isContextLengthError, reportedContextLength, reportedInputTokens } from './context/contextErrors';
export { catalogContextLength, catalogMaxOutputTokens, catalogTokens, MAX_CATALOG_TOKENS } from './context/contextLength';
export { catalogFeatures } from './modelFeatures';
export type { ModelFeatures } from './modelFeatures';

// A model's edits: exact search/replace, unified diffs (jsdiff), the review diff, line endings kept.
export { applySearchReplace, lineAt, notFoundMessage, occurrences } from './edits/searchReplace';
export type { EditOutcome, SearchReplaceEdit } from './edits/searchReplace';
export { applyUnifiedDiff } from './edits/unifiedPatch';
export { MAX_REVIEW_CHARS, MAX_REVIEW_LINES, reviewDiff } from './edits/reviewDiff';
export type { ReviewDiff, ReviewedChange } from './edits/reviewDiff';
export { applyReplacements, textReplacements } from './edits/textChanges';
export type { TextReplacement } from './edits/textChanges';
export { lineEndingOf, linesOf, withLineEnding } from './edits/lineEndings';
export type { LineEnding } from './edits/lineEndings';
export { closestLines } from './edits/closestLines';
export { CappedOutput } from './commands/cappedOutput';
export { commandEnvironment, shellInvocation, treeKill } from './commands/shellInvocation';
export type { ShellInvocation, ShellPlatform, TreeKill } from './commands/shellInvocation';
export { COMMAND_MARKER_VAR, runCommand } from './commands/runCommand';
export type { CommandRunOptions, CommandRunResult } from './commands/runCommand';
export { descendantsOf, environHas, groupMember, parseProcStat, ProcessTree, readProcess } from './commands/processTree';
export type { ProcessEntry } from './commands/processTree';
