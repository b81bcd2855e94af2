// VS Code's language model request (messages, model options, tools) in the neutral shape the
// gateway mapping takes. Pure: the vscode classes it recognises are handed in (`LanguageModelKit`),
// so the mapping is unit-tested in plain Node with stand-ins.
import type { GatewayMessage, GatewayPart, GatewayTool } from '../answers/gatewayMessages';
import { checkChatImage } from '../images/chatImage';
import { sniffImageType } from '../images/imageType';
import { MAX_IMAGE_BYTES } from '../../shared/chatModel';
import { IMAGE_CHARS } from '../context/tokenEstimate';

type PartClass<T> = abstract new (...args: never[]) => T;

/** The parts of the vscode API the mapping needs to tell parts and roles apart. */
export interface LanguageModelKit {
  readonly TextPart: PartClass<{ readonly value: string }>;
  readonly ToolCallPart: PartClass<{ readonly callId: string; readonly name: string; readonly input: object }>;
  /** `isError` exists at run time from VS Code 1.105 on (not in the 1.104 types we compile against). */
  readonly ToolResultPart: PartClass<{
    readonly callId: string;
    readonly content: readonly unknown[];
    readonly isError?: boolean;
  }>;
  /** `System` exists in newer VS Code (callers need the `languageModelSystem` proposal to send it). */
  readonly roles: { readonly Assistant: number; readonly System?: number };
}

export interface RequestMessage {
  readonly role: number;
  readonly content: readonly unknown[];
}

export interface MappedRequest {
  /** The text of every system message, in order (the gateway's `system`). */
  readonly system?: string;
  readonly messages: GatewayMessage[];
  /**
   * MIME types of the image parts the messages carry (as image parts of the wire, wire-conventions
   * "Images in requests"). Only models whose catalog says they take images are listed with image
   * input; a request with images for another model is refused rather than answered without them.
   */
  readonly images: readonly string[];
  /** Why image parts could not be sent (not an image of the type it claims, too large): the request is refused. */
  readonly refusedImages: readonly string[];
}

interface DataPartLike {
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/** LanguageModelDataPart (VS Code 1.105+) by shape: the 1.104 types have no class to test against. */
function asDataPart(part: unknown): DataPartLike | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const { mimeType, data } = part as { mimeType?: unknown; data?: unknown };
  return typeof mimeType === 'string' && data instanceof Uint8Array ? { mimeType, data } : undefined;
}

function isTextual(mimeType: string): boolean {
  return /^text\/|[/+]json\b|^application\/(xml|x-yaml|yaml)\b/i.test(mimeType);
}

/** The text inside a tool result's content: text parts, textual data decoded, anything else named or as JSON. */
function resultText(content: readonly unknown[], kit: LanguageModelKit): string {
  return content
    .map((part) => {
      if (part instanceof kit.TextPart) return part.value;
      const data = asDataPart(part);
      if (data)
        return isTextual(data.mimeType)
          ? new TextDecoder().decode(data.data)
          : `[${data.mimeType} data, ${data.data.byteLength} bytes, not sent]`;
      if (typeof part === 'string') return part;
      if (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string')
        return (part as { value: string }).value;
      return JSON.stringify(part);
    })
    .join('');
}

interface ImageTally {
  readonly images: string[];
  readonly refused: string[];
}

/** An image data part as a wire part: its type read from the bytes (never the caller's word), its size capped. */
function imagePart(data: DataPartLike, tally: ImageTally): GatewayPart | undefined {
  const checked = checkChatImage(data.data);
  if (typeof checked === 'string') {
    tally.refused.push(`${data.mimeType}: ${checked}`);
    return undefined;
  }
  tally.images.push(checked.mediaType);
  return { kind: 'image', mediaType: checked.mediaType, data: Buffer.from(data.data).toString('base64') };
}

function toPart(part: unknown, kit: LanguageModelKit, tally: ImageTally): GatewayPart | undefined {
  if (part instanceof kit.TextPart) return { kind: 'text', text: part.value };
  if (part instanceof kit.ToolCallPart)
    return { kind: 'toolCall', id: part.callId, name: part.name, input: part.input };
  if (part instanceof kit.ToolResultPart)
    return {
      kind: 'toolResult',
      callId: part.callId,
      content: resultText(part.content, kit),
      ...(part.isError === true ? { isError: true } : {}),
    };
  const data = asDataPart(part);
  if (data?.mimeType.startsWith('image/')) return imagePart(data, tally);
  return undefined; // other data parts (cache hints and the like) and thinking parts are not sent
}

/** Messages to the neutral conversation; system messages become the request's `system`. */
export function toGatewayRequest(messages: readonly RequestMessage[], kit: LanguageModelKit): MappedRequest {
  const system: string[] = [];
  const tally: ImageTally = { images: [], refused: [] };
  const out: GatewayMessage[] = [];
  for (const message of messages) {
    const parts = message.content
      .map((part) => toPart(part, kit, tally))
      .filter((part): part is GatewayPart => part !== undefined);
    if (kit.roles.System !== undefined && message.role === kit.roles.System) {
      const text = parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
      if (text.trim()) system.push(text);
      continue;
    }
    out.push({ role: message.role === kit.roles.Assistant ? 'assistant' : 'user', parts });
  }
  return {
    messages: out,
    images: tally.images,
    refusedImages: tally.refused,
    ...(system.length ? { system: system.join('\n\n') } : {}),
  };
}

/** An image counted as text of the length the token estimate gives images (tokenEstimate.ts). */
const IMAGE_PLACEHOLDER = ' '.repeat(IMAGE_CHARS);

export interface GatewayModelOptions {
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/** The widest temperature range the gateway's formats take (OpenAI style; /messages clamps to 1). */
const MAX_TEMPERATURE = 2;

/**
 * `modelOptions` a caller passed to `sendRequest`: `max_tokens` (a positive integer) and
 * `temperature` (0 to 2). Other keys, and values of the wrong type or out of range, are ignored.
 */
export function toGatewayModelOptions(
  modelOptions: { readonly [name: string]: unknown } | undefined,
): GatewayModelOptions {
  const maxTokens = modelOptions?.max_tokens;
  const temperature = modelOptions?.temperature;
  return {
    ...(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
    ...(typeof temperature === 'number' &&
    Number.isFinite(temperature) &&
    temperature >= 0 &&
    temperature <= MAX_TEMPERATURE
      ? { temperature }
      : {}),
  };
}

export function toGatewayTools(
  tools: readonly { readonly name: string; readonly description: string; readonly inputSchema?: object }[] | undefined,
): GatewayTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    ...(tool.inputSchema && typeof tool.inputSchema === 'object'
      ? { inputSchema: tool.inputSchema as Record<string, unknown> }
      : {}),
  }));
}

/**
 * The text a message holds, for the token estimate (tool parts as JSON, an image as its estimate's
 * worth). VS Code asks for counts often: an image is told by its header and size alone, never
 * hashed or base64-encoded as a request's image part is.
 */
export function countableText(message: RequestMessage, kit: LanguageModelKit): string {
  const tally: ImageTally = { images: [], refused: [] };
  const system = kit.roles.System !== undefined && message.role === kit.roles.System;
  return message.content
    .map((part) => {
      const data = asDataPart(part);
      if (data?.mimeType.startsWith('image/')) return system || !wouldSend(data.data) ? '' : IMAGE_PLACEHOLDER;
      const mapped = toPart(part, kit, tally);
      if (mapped?.kind === 'text') return mapped.text;
      return mapped && !system ? JSON.stringify(mapped) : '';
    })
    .join('');
}

/** Whether checkChatImage would take the bytes (what is refused is not sent, so not counted). */
function wouldSend(bytes: Uint8Array): boolean {
  return bytes.byteLength > 0 && bytes.byteLength <= MAX_IMAGE_BYTES && sniffImageType(bytes) !== undefined;
}
