// Messages between the extension host and the chat webview. Discriminated unions on `type`; the
// webview sends `ready` first and the host queues everything until then. A streaming reply is a
// `replyStarted`, then `replyDelta` / `toolStep` notifications carrying the reply's id, then
// `replyEnded`: the conversation is sent whole only when one is opened, never per token.
import { assertNever } from './assertNever';
import type {
  Attachment,
  AssistantTurn,
  ReplyContext,
  ChatErrorAction,
  ChatParameters,
  Conversation,
  ConversationCost,
  ConversationSummary,
  ReplyCost,
  ReplyStatus,
  ChatErrorInfo,
  ImageRef,
  TokenUsage,
  ToolStep,
  UserTurn,
} from './chatModel';
import type { ReplySource } from './replySources';
import { CHAT_ERROR_ACTIONS, MAX_IMAGE_BYTES } from './chatModel';

/** Where the API key in use comes from (never the key itself). */
export type KeySource = 'secretStorage' | 'environment' | 'none';

export interface ConnectionState {
  readonly baseUrl: string;
  readonly keySource: KeySource;
}

/** A model in the picker: chat models first, then every other model of the catalog. */
export interface ModelOption {
  readonly id: string;
  readonly provider?: string;
  readonly isChat: boolean;
  /** The catalog says the model reads images (the composer offers to attach them). */
  readonly takesImages?: boolean;
}

/** The composer's context meter. */
export interface ContextMeter {
  /** Tokens the next request holds (before the draft being typed). */
  readonly usedTokens: number;
  /** The model's context length; absent when the catalog does not list it. */
  readonly contextLength?: number;
  /** 'measured': the last reply's usage from the gateway; 'estimated': counted from characters. */
  readonly source: 'measured' | 'estimated';
  /** Instruction files added to the system prompt (shown as chips). */
  readonly files: readonly InstructionFileChip[];
}

/**
 * What the message being written would cost to send, shown beside Send: the input priced in full,
 * the output between nothing and its bound (max tokens). 'unbounded': no bound is known for the
 * output, so only the input's part is a figure; 'unknown': the catalog lists no prices.
 */
export type CostEstimate =
  | { readonly kind: 'range'; readonly low: number; readonly high: number }
  | { readonly kind: 'unbounded'; readonly low: number }
  | { readonly kind: 'unknown' };

export interface InstructionFileChip {
  /** Workspace-relative path, as shown and as `openInstructionFile` names it. */
  readonly path: string;
  readonly tokens: number;
  /** Cut to the size cap. */
  readonly truncated: boolean;
}

export type ApprovalDecision = 'once' | 'always' | 'deny';

/** Host -> webview. */
export type HostToChatMessage =
  | { readonly type: 'connectionState'; readonly state: ConnectionState }
  | {
      readonly type: 'models';
      readonly models: readonly ModelOption[];
      readonly selected: string;
      readonly loading: boolean;
      readonly error?: string;
    }
  /** Opens a conversation (on start, switch, new, or after an edit rewrote its turns). */
  | { readonly type: 'conversation'; readonly conversation: Conversation; readonly busy: boolean }
  | { readonly type: 'userTurn'; readonly turn: UserTurn }
  /** Regenerate, retry or edit: the turn with this id and every later one are gone. */
  | { readonly type: 'turnsRemoved'; readonly fromId: string }
  /** The conversation's title changed (first message, rename). */
  | { readonly type: 'title'; readonly title: string }
  | { readonly type: 'replyStarted'; readonly turn: AssistantTurn }
  | { readonly type: 'replyDelta'; readonly id: string; readonly content?: string; readonly reasoning?: string }
  | { readonly type: 'toolStep'; readonly id: string; readonly index: number; readonly step: ToolStep }
  | {
      readonly type: 'replyEnded';
      readonly id: string;
      readonly status: ReplyStatus;
      readonly finishReason?: string;
      readonly error?: ChatErrorInfo;
      readonly usage?: TokenUsage;
      /** Pages the reply cites or its web search found (shown under it once it ends). */
      readonly sources?: readonly ReplySource[];
    }
  | { readonly type: 'replyCost'; readonly id: string; readonly cost: ReplyCost }
  /** How the reply's request was fitted into the context window (summary, trims), as it happens. */
  | { readonly type: 'replyContext'; readonly id: string; readonly context: ReplyContext }
  /** How full the model's context is, and the instruction files the requests carry. */
  | { readonly type: 'contextMeter'; readonly meter: ContextMeter }
  /** The cost estimate beside Send; absent: nothing to show (nothing to send, or under the threshold). */
  | { readonly type: 'costEstimate'; readonly estimate?: CostEstimate }
  /** What the open conversation's replies cost together (shown in the header); absent: none told a cost. */
  | { readonly type: 'conversationCost'; readonly cost?: ConversationCost }
  | { readonly type: 'attachments'; readonly attachments: readonly Attachment[] }
  /** The images waiting for the next message (stored already; shown as thumbnails). */
  | { readonly type: 'images'; readonly images: readonly ImageRef[] }
  /**
   * The webview URI of the images folder: an image is `<root>/<conversation id>/<image id>.<ext>`
   * (chatImageStore.ts), loaded through the webview's resource roots (the CSP's img-src allows it).
   */
  | { readonly type: 'imageRoot'; readonly root: string }
  | { readonly type: 'history'; readonly conversations: readonly ConversationSummary[]; readonly query: string }
  | { readonly type: 'fileSuggestions'; readonly requestId: number; readonly paths: readonly string[] }
  | { readonly type: 'parameters'; readonly parameters: ChatParameters }
  /** Puts text in the composer (e.g. "Ask about selection"). */
  | { readonly type: 'prefill'; readonly text: string }
  | { readonly type: 'showView'; readonly view: 'chat' | 'history' }
  /**
   * The turns of the open conversation whose reply has a checkpoint (sent when one opens, and when a
   * checkpoint is made or restored); `restored`: those whose files were put back to before them.
   */
  | { readonly type: 'checkpoints'; readonly turnIds: readonly string[]; readonly restored: readonly string[] }
  /**
   * What an action taken in the chat came to (inserted nowhere, exported, deleted), said in the chat
   * where the user is looking; `action` labels the one button (Undo, Open) that answers with `noticeAction`.
   */
  | { readonly type: 'notice'; readonly notice: ChatNotice };

export interface ChatNotice {
  readonly id: number;
  readonly text: string;
  readonly severity: 'info' | 'warning';
  readonly action?: string;
}

/**
 * Whether a message asks the page to do something once (fill the composer, show a view) rather than
 * carry state. The host answers a page's `ready` with its whole state, which replaces the state
 * messages posted before; these go out after it, or a page that loads late would miss them.
 */
export function outlivesChatState(message: HostToChatMessage): boolean {
  switch (message.type) {
    case 'prefill':
    case 'showView':
    case 'notice':
      return true;
    case 'connectionState':
    case 'models':
    case 'conversation':
    case 'userTurn':
    case 'turnsRemoved':
    case 'title':
    case 'replyStarted':
    case 'replyDelta':
    case 'toolStep':
    case 'replyEnded':
    case 'replyCost':
    case 'replyContext':
    case 'contextMeter':
    case 'costEstimate':
    case 'conversationCost':
    case 'attachments':
    case 'images':
    case 'imageRoot':
    case 'history':
    case 'fileSuggestions':
    case 'parameters':
    case 'checkpoints':
      return false;
    default:
      return assertNever(message);
  }
}

/** Commands the webview may ask the host to run (a closed list: never arbitrary command ids). */
export type ChatWebviewCommand = 'setApiKey' | 'openSettings' | 'showLog' | 'refreshCredits';

/** Webview -> host. */
export type ChatToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'runCommand'; readonly command: ChatWebviewCommand }
  | { readonly type: 'send'; readonly text: string }
  /** The draft's length changed (debounced): the host estimates the send's cost. Its length only, never its text. */
  | { readonly type: 'draftSize'; readonly chars: number }
  | { readonly type: 'stop' }
  | { readonly type: 'regenerate' }
  | { readonly type: 'retry' }
  | { readonly type: 'editAndResend'; readonly turnId: string; readonly text: string }
  | { readonly type: 'selectModel'; readonly model: string }
  /** Opens the host's searchable list of chat models (the choice comes back as a `models` message). */
  | { readonly type: 'pickModel' }
  | { readonly type: 'setParameters'; readonly parameters: ChatParameters }
  | { readonly type: 'approveTool'; readonly callId: string; readonly decision: ApprovalDecision }
  /** Opens VS Code's diff editor on an edit tool call's reviewed change. */
  | { readonly type: 'openToolDiff'; readonly callId: string }
  /** Shows a research job a tool call started in the Research view. */
  | { readonly type: 'openResearchJob'; readonly jobId: string }
  | { readonly type: 'addContext'; readonly source: 'selection' | 'activeFile' | 'pickFile' }
  | { readonly type: 'attachFile'; readonly path: string }
  | { readonly type: 'removeAttachment'; readonly id: string }
  /** An image pasted or dropped into the composer: its bytes as base64 (the host checks type and size). */
  | { readonly type: 'addImage'; readonly name: string; readonly data: string }
  /** The attach button: the host opens a file picker for images. */
  | { readonly type: 'pickImage' }
  | { readonly type: 'removeImage'; readonly id: string }
  | { readonly type: 'suggestFiles'; readonly requestId: number; readonly query: string }
  | { readonly type: 'newConversation' }
  | { readonly type: 'openConversation'; readonly id: string }
  | { readonly type: 'searchHistory'; readonly query: string }
  | { readonly type: 'renameConversation'; readonly id: string }
  | { readonly type: 'deleteConversation'; readonly id: string }
  | { readonly type: 'exportConversation'; readonly id: string }
  | { readonly type: 'copyText'; readonly text: string }
  | { readonly type: 'insertCode'; readonly code: string }
  | { readonly type: 'newFile'; readonly code: string; readonly language: string }
  /**
   * Apply the reply's code block number `blockIndex` (0-based, in the order the reply shows its
   * code blocks) to its file. No code: the host takes it from its own copy of the reply.
   */
  | { readonly type: 'applyCode'; readonly turnId: string; readonly blockIndex: number }
  | { readonly type: 'openLink'; readonly href: string }
  | { readonly type: 'errorAction'; readonly action: ChatErrorAction }
  /** Opens one of the instruction files the meter listed (the host checks it is one of them). */
  | { readonly type: 'openInstructionFile'; readonly path: string }
  /** "Restore files to before this reply" on an assistant turn (the host previews before it changes anything). */
  | { readonly type: 'restoreCheckpoint'; readonly turnId: string }
  /** The button of notice `id` (the host acts only while that notice is its latest). */
  | { readonly type: 'noticeAction'; readonly id: number };

const webviewCommands: readonly ChatWebviewCommand[] = ['setApiKey', 'openSettings', 'showLog', 'refreshCredits'];
const errorActions: readonly ChatErrorAction[] = CHAT_ERROR_ACTIONS;
const decisions: readonly ApprovalDecision[] = ['once', 'always', 'deny'];
const contextSources = ['selection', 'activeFile', 'pickFile'] as const;

/** A message text, a model id or a path: bounded so a broken webview cannot flood the host. */
const MAX_TEXT = 1_000_000;
const str = (value: unknown, max = MAX_TEXT): value is string => typeof value === 'string' && value.length <= max;
/** An image's base64 is 4/3 of its bytes: one over the cap is refused before it is even decoded. */
const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function parseParameters(value: unknown): ChatParameters | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const out: { -readonly [K in keyof ChatParameters]: ChatParameters[K] } = {};
  if (finite(raw.temperature)) out.temperature = Math.min(2, Math.max(0, raw.temperature));
  if (finite(raw.maxTokens) && raw.maxTokens >= 1) out.maxTokens = Math.floor(raw.maxTokens);
  if (raw.reasoningEffort === 'low' || raw.reasoningEffort === 'medium' || raw.reasoningEffort === 'high')
    out.reasoningEffort = raw.reasoningEffort;
  if (finite(raw.thinkingBudget) && raw.thinkingBudget >= 1) out.thinkingBudget = Math.floor(raw.thinkingBudget);
  if (str(raw.systemPrompt, 100_000) && raw.systemPrompt.trim()) out.systemPrompt = raw.systemPrompt;
  return out;
}

/** Validates a message that arrived from the webview (it is untrusted input). */
export function parseChatToHostMessage(value: unknown): ChatToHostMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'stop':
    case 'regenerate':
    case 'retry':
    case 'newConversation':
    case 'pickModel':
    case 'pickImage':
      return { type: m.type };
    case 'addImage':
      return str(m.name, 1000) && str(m.data, MAX_IMAGE_BASE64)
        ? { type: 'addImage', name: m.name, data: m.data }
        : undefined;
    case 'removeImage':
      return str(m.id, 64) && /^[0-9a-f]{32}$/.test(m.id) ? { type: 'removeImage', id: m.id } : undefined;
    case 'runCommand':
      return webviewCommands.includes(m.command as ChatWebviewCommand)
        ? { type: 'runCommand', command: m.command as ChatWebviewCommand }
        : undefined;
    case 'errorAction':
      return errorActions.includes(m.action as ChatErrorAction)
        ? { type: 'errorAction', action: m.action as ChatErrorAction }
        : undefined;
    case 'send':
      return str(m.text) ? { type: 'send', text: m.text } : undefined;
    case 'draftSize':
      return finite(m.chars) && Number.isInteger(m.chars) && m.chars >= 0 && m.chars <= MAX_TEXT
        ? { type: 'draftSize', chars: m.chars }
        : undefined;
    case 'noticeAction':
      return finite(m.id) && Number.isInteger(m.id) ? { type: 'noticeAction', id: m.id } : undefined;
    case 'restoreCheckpoint':
      return str(m.turnId, 200) && /^[A-Za-z0-9_-]+$/.test(m.turnId)
        ? { type: 'restoreCheckpoint', turnId: m.turnId }
        : undefined;
    case 'editAndResend':
      return str(m.turnId, 200) && str(m.text) ? { type: 'editAndResend', turnId: m.turnId, text: m.text } : undefined;
    case 'selectModel':
      return str(m.model, 500) && m.model ? { type: 'selectModel', model: m.model } : undefined;
    case 'setParameters': {
      const parameters = parseParameters(m.parameters);
      return parameters ? { type: 'setParameters', parameters } : undefined;
    }
    case 'approveTool':
      return str(m.callId, 500) && decisions.includes(m.decision as ApprovalDecision)
        ? { type: 'approveTool', callId: m.callId, decision: m.decision as ApprovalDecision }
        : undefined;
    case 'openToolDiff':
      return str(m.callId, 500) && m.callId ? { type: 'openToolDiff', callId: m.callId } : undefined;
    case 'openResearchJob':
      return str(m.jobId, 200) && m.jobId ? { type: 'openResearchJob', jobId: m.jobId } : undefined;
    case 'addContext':
      return contextSources.includes(m.source as (typeof contextSources)[number])
        ? { type: 'addContext', source: m.source as (typeof contextSources)[number] }
        : undefined;
    case 'attachFile':
      return str(m.path, 4096) && m.path ? { type: 'attachFile', path: m.path } : undefined;
    case 'removeAttachment':
    case 'openConversation':
    case 'renameConversation':
    case 'deleteConversation':
    case 'exportConversation':
      return str(m.id, 200) && m.id ? { type: m.type, id: m.id } : undefined;
    case 'suggestFiles':
      return finite(m.requestId) && str(m.query, 500)
        ? { type: 'suggestFiles', requestId: m.requestId, query: m.query }
        : undefined;
    case 'searchHistory':
      return str(m.query, 500) ? { type: 'searchHistory', query: m.query } : undefined;
    case 'copyText':
      return str(m.text) ? { type: 'copyText', text: m.text } : undefined;
    case 'insertCode':
      return str(m.code) ? { type: 'insertCode', code: m.code } : undefined;
    case 'newFile':
      return str(m.code) && str(m.language, 100) ? { type: 'newFile', code: m.code, language: m.language } : undefined;
    case 'applyCode':
      return str(m.turnId, 200) &&
        m.turnId &&
        Number.isSafeInteger(m.blockIndex) &&
        (m.blockIndex as number) >= 0 &&
        (m.blockIndex as number) < 100_000
        ? { type: 'applyCode', turnId: m.turnId, blockIndex: m.blockIndex as number }
        : undefined;
    case 'openLink':
      return str(m.href, 8192) ? { type: 'openLink', href: m.href } : undefined;
    case 'openInstructionFile':
      return str(m.path, 4096) && m.path ? { type: 'openInstructionFile', path: m.path } : undefined;
    default:
      return undefined;
  }
}

/**
 * Links from model output open only with these schemes (never `command:`, `file:` or scripts).
 * Browsers ignore tabs, line breaks and control characters inside a scheme (`java\tscript:`), so
 * those are removed before the check, and the href must then start with an allowed scheme.
 */
export function isOpenableLink(href: string): boolean {
  // eslint-disable-next-line no-control-regex
  const compact = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  return /^(https?:\/\/[^/]|mailto:.)/.test(compact);
}

export { assertNever } from './assertNever';
