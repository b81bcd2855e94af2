// The chat panel's conversation, as stored in history and as the webview shows it. Pure data
// (JSON-safe): the host persists it, the webview renders it.
import type { ReplySource } from './replySources';

/** Where a piece of context came from: the editor, a workspace file, or a finished research job's report (@research). */
type AttachmentKind = 'selection' | 'file' | 'research';

/** Editor context the user added to a message (shown as a chip; its text goes to the model). */
export interface Attachment {
  readonly id: string;
  readonly kind: AttachmentKind;
  /** Workspace-relative path (or the file name for files outside the workspace). */
  readonly path: string;
  /** 1-based inclusive line range, for selections. */
  readonly startLine?: number;
  readonly endLine?: number;
  readonly languageId?: string;
  readonly text: string;
  /** True when the text was cut to the attachment size cap. */
  readonly truncated?: boolean;
}

/** The image types a chat message can carry (raster only: SVG can hold script). */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The most one image may weigh: the providers' own limit for a base64 image is about 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Images one message may carry. */
export const MAX_IMAGES_PER_MESSAGE = 8;

/**
 * An image the user added to a message. Only this description lives in the conversation; the
 * bytes are a file in the extension's storage, named by `id` (chatImageStore.ts).
 */
export interface ImageRef {
  /** The file's name without extension: the first 32 hex digits of the sha256 (the same image is stored once). */
  readonly id: string;
  readonly mediaType: ImageMediaType;
  readonly byteLength: number;
  /** The whole sha256 of the bytes, hex. */
  readonly sha256: string;
  /** Pixels, when the header tells them cheaply. */
  readonly width?: number;
  readonly height?: number;
  /** The file name it came with (alt text, export), when it had one. */
  readonly name?: string;
}

/** An image's file name in its conversation's folder: `<id>.<png|jpg|gif|webp>`. */
export function imageFileName(ref: Pick<ImageRef, 'id' | 'mediaType'>): string {
  return `${ref.id}.${ref.mediaType === 'image/jpeg' ? 'jpg' : ref.mediaType.slice('image/'.length)}`;
}

/** A message part as the models see it; replayed in later requests. */
export type WirePart =
  | { readonly kind: 'text'; readonly text: string }
  /** An image in a user message (base64 bytes, read from storage for the request; never saved in `wire`). */
  | { readonly kind: 'image'; readonly mediaType: ImageMediaType; readonly data: string }
  | { readonly kind: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly kind: 'redactedThinking'; readonly data: string }
  | { readonly kind: 'toolCall'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly content: string; readonly isError?: boolean };

export interface WireMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly WirePart[];
}

/**
 * What the gateway ran itself (tools_executed, /messages server tool and MCP connector blocks), or a
 * function tool the extension ran.
 */
export type ToolStep =
  | {
      readonly kind: 'server';
      readonly name: string;
      readonly server?: string;
      readonly arguments?: string;
      readonly result?: string;
      /** The server said the tool failed (`is_error`, a search's error code): the result says why. */
      readonly failed?: boolean;
    }
  | {
      readonly kind: 'function';
      readonly id: string;
      readonly name: string;
      /** The arguments as the model sent them (JSON text). */
      readonly arguments: string;
      readonly status: ToolCallStatus;
      /**
       * Sensitive files (keys, credentials, .env) the call reads: the approval names them, and
       * only "Allow Once" can let it run.
       */
      readonly sensitive?: readonly string[];
      /** What went back to the model (possibly shortened for display). */
      readonly result?: string;
      /**
       * Files the call writes whose content can run code or steers the model (.vscode/,
       * package.json, scripts, AGENTS.md...): always asked, even with autoApproveEdits on, and
       * only "Allow Once" can let it run. The card names each with its reason.
       */
      readonly guarded?: readonly GuardedWrite[];
      /** An edit tool's change, computed before asking: the approval shows it as a diff. */
      readonly change?: ToolChange;
      /** A terminal command, shown verbatim: always asked, never allowed for the conversation. */
      readonly command?: ToolCommand;
      /**
       * What the call costs or starts (building the semantic index, a deep research job), in the
       * host's words: the card says it, and only "Allow Once" can let it run.
       */
      readonly notice?: string;
      /** A research job the call started: the step offers to open it in the Research view. */
      readonly researchJobId?: string;
    };

/**
 * Why a write is always asked (core's guardedWrites.ts decides; this is its wire form): it can run
 * code, it instructs the model, it decides what the model may read (.gitignore), or it is a hard
 * link whose other names (a hook, a script) cannot be told.
 */
export type GuardedWriteReason = 'runsCode' | 'instructsModel' | 'changesReads' | 'otherNames';

export const GUARDED_WRITE_REASONS: readonly GuardedWriteReason[] = [
  'runsCode',
  'instructsModel',
  'changesReads',
  'otherNames',
];

/** What a reason means, said of the file ("can run code"): the card's words. */
export function guardedWriteWords(reason: GuardedWriteReason): string {
  switch (reason) {
    case 'runsCode':
      return 'can run code';
    case 'instructsModel':
      return 'can instruct the model';
    case 'changesReads':
      return 'decides what the model may read';
    case 'otherNames':
      return 'may run code under another name, a hard link or a link not checked';
  }
}

export interface GuardedWrite {
  readonly path: string;
  readonly reason: GuardedWriteReason;
}

/** One file an edit call touches. */
export interface ToolChangeFile {
  readonly action: 'create' | 'modify' | 'delete' | 'rename';
  /** Workspace path (the old one for a rename). */
  readonly path: string;
  /** The new path of a rename. */
  readonly to?: string;
}

/** What an edit call will write, as reviewed. */
export interface ToolChange {
  readonly files: readonly ToolChangeFile[];
  /** Unified diff text (git style), cut for display when `truncated`. */
  readonly diff: string;
  readonly truncated?: boolean;
  /** Lines added and removed by the whole change. */
  readonly added: number;
  readonly removed: number;
}

export interface ToolCommand {
  /** The command line exactly as it runs (through the shell, as one argument). */
  readonly command: string;
  /** The working folder (workspace path; '.' for the first folder itself). */
  readonly cwd: string;
}

export type ToolCallStatus = 'awaitingApproval' | 'running' | 'done' | 'denied' | 'failed';

/** Why a reply ended early, with what the user can do about it. */
export interface ChatErrorInfo {
  readonly kind:
    | 'auth'
    | 'outOfCredits'
    | 'rateLimited'
    | 'unreachable'
    | 'timeout'
    | 'interrupted'
    | 'server'
    | 'invalid'
    | 'noModel'
    | 'setup'
    | 'contextLength'
    /** Not a failure: the reply passed the user's spend cap and asked for no more rounds (status 'stopped'). */
    | 'spendCap'
    | 'other';
  readonly message: string;
  /** Actions offered next to the error (closed list, run by the host). */
  readonly actions: readonly ChatErrorAction[];
  /**
   * The full id of the setting the message names (VS Code's `http.proxy`, the CA file...), which
   * Open Settings shows; without one it shows the extension's settings.
   */
  readonly setting?: string;
}

/** `openSpendCap`: the Settings editor at the per-reply spend cap (a reply it stopped offers it). */
/** A setting id an error may name (Open Settings filters on it): dotted words, nothing else. */
export function isSettingId(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= 100 && /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+$/.test(value)
  );
}

/** Every action an error may offer: what the webview may ask for and what a saved reply may keep. */
export const CHAT_ERROR_ACTIONS = [
  'retry',
  'setApiKey',
  'openSettings',
  'showLog',
  'refreshCredits',
  'openSpendCap',
] as const;

export type ChatErrorAction = (typeof CHAT_ERROR_ACTIONS)[number];

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Where a reply's cost comes from (the chat says which). */
type ReplyCostSource = 'pricing' | 'balance';

/** What a reply cost, in USD credits. */
export interface ReplyCost {
  readonly credits: number;
  /** Other requests ran at the same time, so the balance difference may include their cost. */
  readonly estimate: boolean;
  /**
   * 'pricing': the catalog's token prices times the reply's usage (exact, at once); 'balance': the
   * balance before the reply minus after it, once the gateway settled the charge. Absent while
   * there is no cost yet (`state`); a saved cost without one is shown as a balance difference.
   */
  readonly source?: ReplyCostSource;
  /**
   * Not a cost yet, `credits` is 0: 'pending' while the balance has not moved (gateways settle
   * charges late), 'unknown' when it could not be told after all (a reading failed, or the
   * balance rose). Shown, never saved.
   */
  readonly state?: 'pending' | 'unknown';
}

export type ReplyStatus = 'streaming' | 'done' | 'stopped' | 'error';

/** The oldest turns, replaced in requests by a summary the model wrote (the turns stay in the conversation). */
export interface ContextSummary {
  readonly text: string;
  /** The last turn the summary covers: requests send the turns after it. */
  readonly throughTurnId: string;
  /** How many turns it covers, from the first. */
  readonly turns: number;
}

/** The oldest turns, left out of requests because no summary of them could be made. */
export interface ContextDrop {
  readonly throughTurnId: string;
  readonly turns: number;
  /** Why (shown): the summary request's failure, in a few words. */
  readonly reason: string;
}

/**
 * How a reply's request was fitted into the model's context window, and how full the window was
 * afterwards. Only the requests change: the conversation keeps every turn as it was.
 */
export interface ReplyContext {
  /** Tokens the model's context held at the end of the reply: the last round's prompt plus its completion, as the gateway counted them. */
  readonly usedTokens?: number;
  /** The context length the catalog listed for the model, when it listed one. */
  readonly contextLength?: number;
  /** Tokens per character learned from the gateway's count, so the next estimate starts calibrated. */
  readonly tokensPerChar?: number;
  /** A summary made for this reply's request (it stays in use for later requests). */
  readonly summary?: ContextSummary;
  readonly dropped?: ContextDrop;
  /** Long tool results of older turns trimmed to their head and tail. */
  readonly trimmedResults?: number;
  /** Characters cut out of the message being answered: it alone did not fit. */
  readonly trimmedMessageChars?: number;
  /** The gateway still found the request too long: it was compacted harder and sent again. */
  readonly retried?: boolean;
}

export interface UserTurn {
  readonly role: 'user';
  readonly id: string;
  readonly text: string;
  readonly attachments: readonly Attachment[];
  /** Images sent with the message (absent: none). */
  readonly images?: readonly ImageRef[];
  readonly createdAt: number;
}

export interface AssistantTurn {
  readonly role: 'assistant';
  readonly id: string;
  readonly model: string;
  content: string;
  reasoning: string;
  toolSteps: ToolStep[];
  status: ReplyStatus;
  finishReason?: string;
  error?: ChatErrorInfo;
  usage?: TokenUsage;
  cost?: ReplyCost;
  /** How the request fitted the model's context (absent: it fitted as it was). */
  context?: ReplyContext;
  /** Pages the reply cites or its web search found, shown as numbered links under it (absent: none). */
  sources?: ReplySource[];
  /** The messages this reply added to the wire conversation (tool rounds, thinking blocks). */
  wire: WireMessage[];
  readonly createdAt: number;
}

export type ChatTurn = UserTurn | AssistantTurn;

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** Per-conversation request parameters ('' / undefined: the model's default). */
export interface ChatParameters {
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly reasoningEffort?: ReasoningEffort;
  /** Extended thinking budget in tokens (>= 1024); undefined turns thinking off. */
  readonly thinkingBudget?: number;
  readonly systemPrompt?: string;
}

export interface Conversation {
  readonly id: string;
  title: string;
  model: string;
  parameters: ChatParameters;
  turns: ChatTurn[];
  readonly createdAt: number;
  updatedAt: number;
}

/** One row of the history list. */
export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  readonly model: string;
  readonly updatedAt: number;
  readonly turnCount: number;
  /** What its replies cost together; absent when no reply told a cost (and in indexes written before it existed). */
  readonly cost?: ConversationCost;
}

/** What a conversation's replies cost together (the chat header and each History row show it). */
export interface ConversationCost {
  /** USD: the sum of the replies' known costs. */
  readonly credits: number;
  /** A figure in it is a balance difference other requests overlapped: the total is said "≈". */
  readonly approximate: boolean;
  /** Replies that received something but told no cost: the total is then "at least" (≥). */
  readonly unknownReplies: number;
}

export const THINKING_MIN_BUDGET = 1024;

/**
 * /messages has no `reasoning_effort` (the spec lists it for chat completions only); there the
 * effort becomes the one control that API has, an extended-thinking budget in tokens. An explicit
 * thinking budget wins.
 */
export const EFFORT_THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = {
  low: 2048,
  medium: 8192,
  high: 16384,
};
