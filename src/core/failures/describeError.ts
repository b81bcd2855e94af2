// Turns a failed request into what every feature shows: a kind, a specific message that names the
// cause and the next step, the actions that fix it, and the error's own (redacted) text. The chat,
// the palette commands, @unified, the language model tools and the vscode.lm provider all present
// this one description (see failures.ts and errorWords.ts). Compared by `name`, not instanceof: a
// caller's copy of the error classes may not be ours.
import { EVENT_TOO_LARGE, STREAM_TOO_LARGE } from '../streams/sse';
import { isContextLengthError } from '../context/contextErrors';
import { redactSecrets } from '../secrets/redact';
import { TOO_MANY_BLOCKS } from '../streams/messagesStream';
import {
  connectionFailureText,
  diagnoseConnectionError,
  type ConnectionDiagnosis,
  type DiagnosisContext,
} from '../net/diagnose';
import type { ChatErrorAction, ChatErrorInfo } from '../../shared/chatModel';
import { SETUP_ERROR_NAME } from './setupError';

type ErrorKind = ChatErrorInfo['kind'];
/** The chat's actions, plus setting the gateway address (the chat offers Open Settings for that). */
/** What a gateway failure can offer; the spend cap's button is the chat's own (no failure offers it). */
export type ErrorAction = Exclude<ChatErrorAction, 'openSpendCap'> | 'setBaseUrl';

export interface ErrorDescription {
  readonly kind: ErrorKind;
  /** One or two sentences: what happened, then what to do about it. Never the API key. */
  readonly message: string;
  /** What fixes it, most useful first ('retry' is offered only where the caller can re-run). */
  readonly actions: readonly ErrorAction[];
  /** The error's own text (redacted), for the log and for callers that quote it. */
  readonly detail: string;
  /** The full id of the setting Open Settings shows (the one the message names), when it names one. */
  readonly setting?: string;
}

export interface ErrorContext {
  readonly baseUrl: string;
  /** When the quota window resets (ISO 8601), from the last credits reading, if any. */
  readonly reset?: string;
  readonly now?: number;
  /** Values that must never appear in the description (the API key, old and new). */
  readonly secrets?: readonly string[];
  /** The proxy and CA file in use (diagnosisContext), so a connection failure names the one in the way. */
  readonly connection?: DiagnosisContext;
}

interface ErrorLike {
  readonly name?: string;
  readonly message?: string;
  readonly status?: number;
  readonly quotaExhausted?: boolean;
  readonly retryAfterMs?: number;
  readonly interrupted?: boolean;
  readonly code?: string;
  /** TimeoutError: which wait ran out ('connect' | 'firstByte' | 'idle'). */
  readonly phase?: string;
  readonly type?: string;
  /** SetupRequiredError: what is missing. */
  readonly missing?: string;
}

/** An overloaded gateway or upstream (Anthropic's `overloaded_error`, 529): transient, worth another try. */
function isOverloaded(e: ErrorLike): boolean {
  return e.type === 'overloaded_error' || e.status === 529 || /\boverloaded\b/i.test(e.message ?? '');
}

function isStreamCap(code: string | undefined): boolean {
  return code === EVENT_TOO_LARGE || code === STREAM_TOO_LARGE || code === TOO_MANY_BLOCKS;
}

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/** When new credits arrive, from the reset of the last credits reading. */
function resetText(reset: string | undefined, now: number): string {
  const at = reset ? Date.parse(reset) : NaN;
  if (!Number.isFinite(at)) return 'New credits arrive when the quota window resets.';
  const minutes = Math.max(0, Math.round((at - now) / 60_000));
  const relative = minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `The quota window resets at ${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC (in ${relative}).`;
}

/**
 * A text as a sentence: ends with a full stop (or its own ! or ?), so the next step that follows
 * starts a sentence of its own ("Invalid API key. Set a valid key...", never "Invalid API key Set").
 */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The core's words for a connection that closed mid-answer (http.ts), as opposed to one never made. */
const ANSWER_CUT = /closed while the answer was being read/;

/** Connection failures whose fix is the gateway address itself (no such host, no address, no API there). */
const ADDRESS_KINDS: ReadonlySet<ConnectionDiagnosis['kind']> = new Set(['dns', 'invalidUrl', 'notFound']);

const TOO_LONG =
  'Start a new conversation, pick a model with a larger context window, or shorten the message (or the system prompt, the instruction files, or the Max tokens parameter).';

type Shown = Omit<ErrorDescription, 'detail'>;

function describeKnown(error: unknown, e: ErrorLike, detail: string, context: ErrorContext): Shown {
  const now = context.now ?? Date.now();
  const address = context.baseUrl || '(no address set)';
  // The chat compacts before sending and once more after such a refusal: this is what is left.
  if (e.name === 'ContextOverflowError')
    return { kind: 'contextLength', message: `${sentence(detail)} ${TOO_LONG}`, actions: ['retry', 'openSettings'] };
  if (isContextLengthError(error))
    return {
      kind: 'contextLength',
      message: `The gateway still found the conversation too long for the model's context window after it was compacted (${detail}). ${TOO_LONG}`,
      actions: ['retry'],
    };
  switch (e.name) {
    case SETUP_ERROR_NAME:
      return e.missing === 'baseUrl'
        ? { kind: 'setup', message: 'The gateway address is not set. Set it, then try again.', actions: ['setBaseUrl'] }
        : {
            kind: 'setup',
            message:
              "No API key is set for the gateway. Set one (it is kept in VS Code's secret storage), then try again.",
            actions: ['setApiKey'],
          };
    case 'AuthenticationError':
      return {
        kind: 'auth',
        message: `The gateway refused the API key (${e.status ?? 401}): ${sentence(detail)} Set a valid key, then try again.`,
        actions: ['setApiKey', 'retry'],
      };
    case 'RateLimitError':
      return e.quotaExhausted
        ? {
            kind: 'outOfCredits',
            message: `Out of credits or usage limit reached (${detail}). ${resetText(context.reset, now)} Add credits or wait for the reset before trying again.`,
            actions: ['refreshCredits', 'retry'],
          }
        : {
            kind: 'rateLimited',
            message: `Rate limited by the gateway (${detail}): try again in ${e.retryAfterMs ? waitText(e.retryAfterMs) : 'a moment'}.`,
            actions: ['retry'],
          };
    case 'ConnectionError':
    case 'ProxyError':
      // A connection that broke once the answer had begun is no question of address or network.
      if (ANSWER_CUT.test(detail))
        return {
          kind: 'unreachable',
          message: `${sentence(detail)} Try again; the log has the details.`,
          actions: ['retry', 'showLog'],
        };
      return unreachable(error, context);
    case 'TimeoutError':
      // The core's message names the wait (connect, first byte, silence), how long, and what to do.
      if (e.phase === 'connect')
        return { kind: 'timeout', message: sentence(detail), actions: ['retry', 'openSettings', 'showLog'] };
      if (e.phase !== undefined) return { kind: 'timeout', message: sentence(detail), actions: ['retry', 'showLog'] };
      return {
        kind: 'timeout',
        message: `The gateway at ${address} took too long to answer: ${sentence(detail)} Try again; the log has the details.`,
        actions: ['retry', 'showLog'],
      };
    case 'UnexpectedContentError':
      // A captive portal or a proxy page: the network or the address is the thing to fix.
      return { kind: 'unreachable', message: sentence(detail), actions: ['retry', 'openSettings', 'showLog'] };
    case 'StreamError':
      // A cap of the extension cut the answer (limits.ts): the core's message names which.
      if (e.interrupted && isStreamCap(e.code))
        return {
          kind: 'interrupted',
          message: `${sentence(detail)} What arrived is kept.`,
          actions: ['retry', 'showLog'],
        };
      return e.interrupted
        ? {
            kind: 'interrupted',
            message: 'The connection closed before the reply finished. What arrived is kept; try again.',
            actions: ['retry'],
          }
        : isOverloaded(e)
          ? {
              kind: 'server',
              message: `The model is overloaded and stopped the reply partway (${detail}). What arrived is kept; try again in a moment.`,
              actions: ['retry'],
            }
          : {
              kind: 'server',
              message: `The gateway ended the reply with an error: ${sentence(detail)} Try again; the log has the details.`,
              actions: ['retry', 'showLog'],
            };
    case 'InvalidProxyUrlError':
      // VS Code's own setting (or the environment): our Open Settings would not show it.
      return {
        kind: 'invalid',
        message: `${sentence(detail)} Correct VS Code's http.proxy setting (or the HTTPS_PROXY environment variable), then try again.`,
        actions: ['showLog'],
      };
    case 'InvalidRequestError':
      return { kind: 'invalid', message: `The request was not sent: ${sentence(detail)}`, actions: ['openSettings'] };
    default:
      return describeByStatus(e, detail);
  }
}

/** Test Connection's words for a connection never made (DNS, refused, TLS, proxy...), with its one next step. */
function unreachable(error: unknown, context: ErrorContext): Shown {
  const diagnosis = diagnoseConnectionError(error, context.connection ?? { baseUrl: context.baseUrl });
  return {
    kind: 'unreachable',
    message: connectionFailureText(diagnosis),
    // An address that names no gateway is fixed in the settings, not by trying it again.
    actions: ADDRESS_KINDS.has(diagnosis.kind)
      ? ['openSettings', 'retry', 'showLog']
      : ['retry', 'openSettings', 'showLog'],
    ...(diagnosis.setting === undefined ? {} : { setting: diagnosis.setting }),
  };
}

function describeByStatus(e: ErrorLike, detail: string): Shown {
  if (e.status === 413)
    return {
      kind: 'invalid',
      message:
        'The gateway refused the upload as too large (HTTP 413). Shorten or compress it (e.g. a lower-bitrate MP3) and try again.',
      actions: [],
    };
  if (e.status !== undefined && isOverloaded(e))
    return {
      kind: 'server',
      message: `The model is overloaded (${e.status}): ${sentence(detail)} Try again in a moment.`,
      actions: ['retry'],
    };
  if (e.status !== undefined && e.status >= 500)
    return {
      kind: 'server',
      message: `The gateway failed (${e.status}): ${sentence(detail)} Try again in a few minutes; the log has the details.`,
      actions: ['retry', 'showLog'],
    };
  if (e.status !== undefined && e.status >= 400)
    return {
      kind: 'invalid',
      message: `The gateway refused the request (${e.status}): ${sentence(detail)} Check the model and the settings it names.`,
      actions: ['openSettings', 'showLog'],
    };
  return { kind: 'other', message: sentence(detail), actions: ['retry', 'showLog'] };
}

/** The one description of a failure, for every feature. */
export function describeError(error: unknown, context: ErrorContext): ErrorDescription {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  const secrets = context.secrets ?? [];
  // Redacted before anything is built from it; the whole text again after (an address could hold a key too).
  const detail = redactSecrets(e.message || 'Unknown error', secrets);
  const shown = describeKnown(error, { ...pick(e), message: detail }, detail, context);
  return { ...shown, message: redactSecrets(shown.message, secrets), detail };
}

/** The fields read above, copied (an Error's own properties are not spread by `...`). */
function pick(e: ErrorLike): ErrorLike {
  return {
    name: e.name,
    status: e.status,
    quotaExhausted: e.quotaExhausted,
    retryAfterMs: e.retryAfterMs,
    interrupted: e.interrupted,
    code: e.code,
    phase: e.phase,
    type: e.type,
    missing: e.missing,
  };
}

/** The chat webview's shape (ChatErrorInfo): the gateway address is set through Open Settings there. */
export function chatErrorInfo(description: ErrorDescription): ChatErrorInfo {
  const actions = [
    ...new Set(
      description.actions.map((action): ChatErrorAction => (action === 'setBaseUrl' ? 'openSettings' : action)),
    ),
  ];
  return {
    kind: description.kind,
    message: description.message,
    actions,
    ...(description.setting === undefined ? {} : { setting: description.setting }),
  };
}

/** What the chat shows for a failed reply. */
export function describeChatError(error: unknown, context: ErrorContext): ChatErrorInfo {
  return chatErrorInfo(describeError(error, context));
}
