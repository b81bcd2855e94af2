// The shape of a stored conversation, checked when a file is read. Files are untrusted input (a
// hand edit, a half-synced folder, another version of the extension). Pure: no file system.
import type {
  AssistantTurn,
  Attachment,
  ChatErrorInfo,
  ChatParameters,
  ChatTurn,
  Conversation,
  GuardedWrite,
  ImageRef,
  ReasoningEffort,
  ReplyContext,
  ReplyStatus,
  ToolCallStatus,
  ToolChange,
  ToolChangeFile,
  ToolCommand,
  ToolStep,
  WireMessage,
  WirePart,
} from '../../../shared/chatModel';
import { isFiniteNumber, isRecord, str } from '../../parse/json';
import { CHAT_ERROR_ACTIONS, GUARDED_WRITE_REASONS, IMAGE_MEDIA_TYPES, isSettingId } from '../../../shared/chatModel';
import { sanitizeSources } from '../../../shared/replySources';
import { cleanImageName, isImageId } from '../../images/chatImage';
// Files are untrusted input (a hand edit, a half-synced folder). Fields the chat relies on are
// checked and the file is refused (moved aside) when they are wrong; a missing array is empty; a
// malformed optional detail (usage, cost, error, a parameter) is dropped rather than costing the
// user the whole conversation.

class ShapeError extends Error {}

/** The conversation, or why the value is not one. */
export function parseConversation(value: unknown, id: string): Conversation | string {
  try {
    const o = object(value, 'conversation');
    if (o['id'] !== id) throw new ShapeError(`its id ${JSON.stringify(o['id'])} does not match the file name`);
    return {
      id,
      title: string(o, 'title', 'conversation'),
      model: string(o, 'model', 'conversation'),
      parameters: parameters(o['parameters']),
      turns: list(o, 'turns', 'conversation', turn, false),
      createdAt: number(o, 'createdAt', 'conversation'),
      updatedAt: number(o, 'updatedAt', 'conversation'),
    };
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
}

function turn(value: unknown, at: string): ChatTurn {
  const o = object(value, at);
  const common = { id: string(o, 'id', at), createdAt: number(o, 'createdAt', at) };
  if (o['role'] === 'user') {
    const images = Array.isArray(o['images']) ? o['images'].flatMap(imageRef) : [];
    return {
      role: 'user',
      ...common,
      text: string(o, 'text', at),
      attachments: list(o, 'attachments', at, attachment),
      ...(images.length ? { images } : {}),
    };
  }
  if (o['role'] !== 'assistant') throw new ShapeError(`${at}.role is neither 'user' nor 'assistant'`);
  const status = oneOf(o['status'], REPLY_STATUSES, `${at}.status`);
  return dropUndefined<AssistantTurn>({
    role: 'assistant',
    ...common,
    model: string(o, 'model', at),
    content: string(o, 'content', at),
    reasoning: o['reasoning'] === undefined ? '' : string(o, 'reasoning', at),
    toolSteps: list(o, 'toolSteps', at, toolStep),
    // Saved mid-stream (the window closed): after a reload nothing is streaming it any more.
    status: status === 'streaming' ? 'stopped' : status,
    finishReason: typeof o['finishReason'] === 'string' ? o['finishReason'] : undefined,
    error: errorInfo(o['error']),
    usage:
      isRecord(o['usage']) && isCount(o['usage']['promptTokens']) && isCount(o['usage']['completionTokens'])
        ? { promptTokens: o['usage']['promptTokens'], completionTokens: o['usage']['completionTokens'] }
        : undefined,
    cost:
      isRecord(o['cost']) && isFiniteNumber(o['cost']['credits']) && typeof o['cost']['estimate'] === 'boolean'
        ? {
            credits: o['cost']['credits'],
            estimate: o['cost']['estimate'],
            ...(o['cost']['source'] === 'pricing' || o['cost']['source'] === 'balance'
              ? { source: o['cost']['source'] }
              : {}),
          }
        : undefined,
    context: replyContext(o['context']),
    // Checked again on load: a hand-edited or old file may hold any link; a bad one is dropped, not fatal.
    sources: sanitizeSources(o['sources']),
    wire: list(o, 'wire', at, wireMessage),
  });
}

/** Dropped when malformed: a reply without it is sent as it was (nothing was compacted). */
function replyContext(value: unknown): ReplyContext | undefined {
  if (!isRecord(value)) return undefined;
  const count = (key: string): number | undefined => (isCount(value[key]) ? value[key] : undefined);
  const through = (raw: unknown): { throughTurnId: string; turns: number } | undefined =>
    isRecord(raw) && typeof raw['throughTurnId'] === 'string' && isCount(raw['turns'])
      ? { throughTurnId: raw['throughTurnId'], turns: raw['turns'] }
      : undefined;
  const summary =
    isRecord(value['summary']) && typeof value['summary']['text'] === 'string' ? through(value['summary']) : undefined;
  const dropped =
    isRecord(value['dropped']) && typeof value['dropped']['reason'] === 'string'
      ? through(value['dropped'])
      : undefined;
  const tokensPerChar = value['tokensPerChar'];
  const context = dropUndefined<ReplyContext>({
    usedTokens: count('usedTokens'),
    contextLength: count('contextLength'),
    tokensPerChar: isFiniteNumber(tokensPerChar) && tokensPerChar > 0 && tokensPerChar <= 2 ? tokensPerChar : undefined,
    summary: summary && isRecord(value['summary']) ? { ...summary, text: String(value['summary']['text']) } : undefined,
    dropped:
      dropped && isRecord(value['dropped']) ? { ...dropped, reason: String(value['dropped']['reason']) } : undefined,
    trimmedResults: count('trimmedResults'),
    trimmedMessageChars: count('trimmedMessageChars'),
    retried: value['retried'] === true ? true : undefined,
  });
  return Object.keys(context).length ? context : undefined;
}

function attachment(value: unknown, at: string): Attachment {
  const o = object(value, at);
  return dropUndefined<Attachment>({
    id: string(o, 'id', at),
    kind: oneOf(o['kind'], ['selection', 'file', 'research'] as const, `${at}.kind`),
    path: string(o, 'path', at),
    startLine: isCount(o['startLine']) ? o['startLine'] : undefined,
    endLine: isCount(o['endLine']) ? o['endLine'] : undefined,
    languageId: typeof o['languageId'] === 'string' ? o['languageId'] : undefined,
    text: string(o, 'text', at),
    truncated: o['truncated'] === true ? true : undefined,
  });
}

/**
 * An image's description, or nothing when it is malformed (the message stays, without it). The id
 * names a file, so only a hash passes: `../` or an absolute path never reaches the file system.
 */
function imageRef(value: unknown): ImageRef[] {
  if (!isRecord(value)) return [];
  const { id, mediaType, byteLength, sha256, width, height, name } = value;
  const type = IMAGE_MEDIA_TYPES.find((known) => known === mediaType);
  if (!isImageId(id) || !type || !isCount(byteLength) || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256))
    return [];
  if (!sha256.startsWith(id)) return [];
  const label = cleanImageName(name);
  return [
    dropUndefined<ImageRef>({
      id,
      mediaType: type,
      byteLength,
      sha256,
      width: isCount(width) && isCount(height) ? width : undefined,
      height: isCount(width) && isCount(height) ? height : undefined,
      name: label,
    }),
  ];
}

function toolStep(value: unknown, at: string): ToolStep {
  const o = object(value, at);
  const name = string(o, 'name', at);
  const result = str(o['result']);
  if (o['kind'] === 'server') {
    return dropUndefined<ToolStep>({
      kind: 'server',
      name,
      server: str(o['server']),
      arguments: str(o['arguments']),
      result,
      failed: o['failed'] === true ? true : undefined,
    });
  }
  if (o['kind'] !== 'function') throw new ShapeError(`${at}.kind is neither 'server' nor 'function'`);
  const saved = oneOf(o['status'], TOOL_STATUSES, `${at}.status`);
  // Saved mid-reply (the window closed): after a reload nothing waits for a decision or runs it.
  const status = saved === 'awaitingApproval' ? 'denied' : saved === 'running' ? 'failed' : saved;
  const sensitive = Array.isArray(o['sensitive'])
    ? o['sensitive'].filter((path): path is string => typeof path === 'string')
    : [];
  const guarded = guardedWrites(o['guarded']);
  return dropUndefined<ToolStep>({
    kind: 'function',
    id: string(o, 'id', at),
    name,
    arguments: string(o, 'arguments', at),
    status,
    sensitive: sensitive.length ? sensitive : undefined,
    guarded: guarded.length ? guarded : undefined,
    result,
    change: toolChange(o['change']),
    command: toolCommand(o['command']),
    // Display details, bounded: a malformed one is dropped.
    notice: str(o['notice'])?.slice(0, 2_000),
    researchJobId: str(o['researchJobId'])?.slice(0, 200),
  });
}

/** The always-asked files a step named; a malformed entry is dropped (a display detail). */
function guardedWrites(value: unknown): GuardedWrite[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw: unknown): GuardedWrite[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const o = raw as Record<string, unknown>;
    const reason = GUARDED_WRITE_REASONS.find((known) => known === o['reason']);
    return typeof o['path'] === 'string' && reason ? [{ path: o['path'], reason }] : [];
  });
}

const CHANGE_ACTIONS = ['create', 'modify', 'delete', 'rename'] as const;

/** A reviewed change shown again from history; dropped when malformed (it is a display detail). */
function toolChange(value: unknown): ToolChange | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o['diff'] !== 'string' || !Array.isArray(o['files'])) return undefined;
  const files: ToolChangeFile[] = [];
  for (const raw of o['files'] as unknown[]) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const f = raw as Record<string, unknown>;
    const action = CHANGE_ACTIONS.find((a) => a === f['action']);
    if (!action || typeof f['path'] !== 'string') return undefined;
    files.push(
      dropUndefined<ToolChangeFile>({ action, path: f['path'], to: typeof f['to'] === 'string' ? f['to'] : undefined }),
    );
  }
  const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : 0);
  return dropUndefined<ToolChange>({
    files,
    diff: o['diff'],
    truncated: o['truncated'] === true ? true : undefined,
    added: count(o['added']),
    removed: count(o['removed']),
  });
}

function toolCommand(value: unknown): ToolCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as Record<string, unknown>;
  return typeof o['command'] === 'string' && typeof o['cwd'] === 'string'
    ? { command: o['command'], cwd: o['cwd'] }
    : undefined;
}

/** Checked closely: these are replayed to the model in the next request. */
function wireMessage(value: unknown, at: string): WireMessage {
  const o = object(value, at);
  return {
    role: oneOf(o['role'], ['user', 'assistant'] as const, `${at}.role`),
    parts: list(o, 'parts', at, wirePart, false),
  };
}

function wirePart(value: unknown, at: string): WirePart {
  const o = object(value, at);
  switch (o['kind']) {
    case 'text':
      return { kind: 'text', text: string(o, 'text', at) };
    case 'thinking':
      return { kind: 'thinking', thinking: string(o, 'thinking', at), signature: string(o, 'signature', at) };
    case 'redactedThinking':
      return { kind: 'redactedThinking', data: string(o, 'data', at) };
    case 'toolCall':
      return { kind: 'toolCall', id: string(o, 'id', at), name: string(o, 'name', at), input: o['input'] };
    case 'toolResult':
      return dropUndefined<WirePart>({
        kind: 'toolResult',
        callId: string(o, 'callId', at),
        content: string(o, 'content', at),
        isError: typeof o['isError'] === 'boolean' ? o['isError'] : undefined,
      });
    default:
      throw new ShapeError(`${at}.kind is not a known message part`);
  }
}

function errorInfo(value: unknown): ChatErrorInfo | undefined {
  if (!isRecord(value) || typeof value['message'] !== 'string') return undefined;
  const kind = ERROR_KINDS.find((known) => known === value['kind']) ?? 'other';
  const actions = Array.isArray(value['actions']) ? value['actions'] : [];
  const setting = value['setting'];
  return {
    kind,
    message: value['message'],
    actions: CHAT_ERROR_ACTIONS.filter((action) => actions.includes(action)),
    // Open Settings filters on it: only a setting id, never other text from the file.
    ...(isSettingId(setting) ? { setting } : {}),
  };
}

function parameters(value: unknown): ChatParameters {
  if (!isRecord(value)) return {};
  const numberOrUndefined = (key: string): number | undefined => (isFiniteNumber(value[key]) ? value[key] : undefined);
  return dropUndefined<ChatParameters>({
    temperature: numberOrUndefined('temperature'),
    maxTokens: numberOrUndefined('maxTokens'),
    reasoningEffort: REASONING_EFFORTS.find((effort) => effort === value['reasoningEffort']),
    thinkingBudget: numberOrUndefined('thinkingBudget'),
    systemPrompt: typeof value['systemPrompt'] === 'string' ? value['systemPrompt'] : undefined,
  });
}

const REPLY_STATUSES = ['streaming', 'done', 'stopped', 'error'] as const satisfies readonly ReplyStatus[];
const TOOL_STATUSES = [
  'awaitingApproval',
  'running',
  'done',
  'denied',
  'failed',
] as const satisfies readonly ToolCallStatus[];
const REASONING_EFFORTS = ['low', 'medium', 'high'] as const satisfies readonly ReasoningEffort[];
const ERROR_KINDS = [
  'auth',
  'outOfCredits',
  'rateLimited',
  'unreachable',
  'timeout',
  'interrupted',
  'server',
  'invalid',
  'noModel',
  'setup',
  'contextLength',
  'spendCap',
  'other',
] as const satisfies readonly ChatErrorInfo['kind'][];

function object(value: unknown, at: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ShapeError(`${at} is not an object`);
  return value;
}

function string(o: Record<string, unknown>, key: string, at: string): string {
  const value = o[key];
  if (typeof value !== 'string') throw new ShapeError(`${at}.${key} is not a string`);
  return value;
}

function number(o: Record<string, unknown>, key: string, at: string): number {
  const value = o[key];
  if (!isFiniteNumber(value)) throw new ShapeError(`${at}.${key} is not a number`);
  return value;
}

/** An array of items, each checked; a missing array is empty when `optional` (a hand-edited file may lack it). */
function list<T>(
  o: Record<string, unknown>,
  key: string,
  at: string,
  item: (value: unknown, at: string) => T,
  optional = true,
): T[] {
  const value = o[key];
  if (value === undefined && optional) return [];
  if (!Array.isArray(value)) throw new ShapeError(`${at}.${key} is not an array`);
  return value.map((element, index) => item(element, `${at === 'conversation' ? '' : `${at}.`}${key}[${index}]`));
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], at: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new ShapeError(`${at} is not one of ${allowed.join(', ')}`);
  return found;
}

function isCount(value: unknown): value is number {
  return isFiniteNumber(value) && value >= 0;
}

/** Leaves optional keys out instead of present-but-undefined, so a loaded conversation equals the saved one. */
function dropUndefined<T>(value: { [K in keyof T]: T[K] | undefined }): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value as T;
}
