// What a streaming request's 2xx answer turns out to be, decided from its Content-Type and, when
// that is not `text/event-stream`, from its first bytes: an event stream (handed to the protocol's
// SSE decoder), a whole JSON answer (read whole, then turned into the items its stream would have
// yielded), or neither (a captive portal's page, a proxy's text: an UnexpectedContentError that
// names it, never "the stream ended early"). Pure, like the stream decoders it wraps.
import type { StreamDecoder } from '../streams/decodedStream';
import { ResponseTooLargeError, StreamError } from '../errors';
import { formatByteSize, MAX_JSON_BYTES } from '../limits';
import { tryParseJson } from '../parse/json';
import { sourceFailure } from '../streams/streamCommon';
import { mediaType, unexpectedContent } from './unexpectedContent';

/**
 * A whole JSON answer as stream items, or the error it stands for (an error body), or both: the
 * items it holds and the error it ended with (a finish reason that names an error).
 */
export type WholeAnswer<T> = (json: unknown) => T[] | Error | { readonly items: T[]; readonly error: Error };

type Mode = 'sniff' | 'sse' | 'json' | 'other';

/** Enough of a page to find its title; the rest is not read. */
const PAGE_BYTES = 16 * 1024;
/** The longest SSE field name a body may start with (`retry:`). */
const SSE_PREFIX_CHARS = 6;
const SSE_START = /^(data|event|id|retry)?:/;

function isEventStream(type: string): boolean {
  return type === 'text/event-stream';
}

/** The mode the body's start says, or undefined while too little has arrived to tell. */
function sniff(start: string, final: boolean, type: string): Mode | undefined {
  const text = start.trimStart();
  // Nothing at all: without a content type it reads as a stream that ended early (which may be
  // retried); a typed empty body is named for what it is.
  if (text === '') return final ? (type === '' ? 'sse' : 'other') : undefined;
  const first = text[0];
  if (first === '{' || first === '[') return 'json';
  if (SSE_START.test(text)) return 'sse';
  // `dat` may still become `data:`.
  if (
    !final &&
    text.length < SSE_PREFIX_CHARS &&
    ['data:', 'event:', 'id:', 'retry:'].some((field) => field.startsWith(text))
  )
    return undefined;
  return 'other';
}

export class AnswerDecoder<T> implements StreamDecoder<T> {
  private mode: Mode;
  private readonly type: string;
  private chunks: Uint8Array[] = [];
  private size = 0;
  private ended = false;
  /**
   * While sniffing: the first characters after any BOM and leading whitespace (keep-alive newlines
   * before a slow JSON answer), decoded as bytes arrive, so each chunk costs its own size. The
   * streaming decoder holds back a character (or a BOM) cut at a chunk's end.
   */
  private readonly sniffDecoder = new TextDecoder('utf-8');
  private sniffText = '';

  constructor(
    private readonly sse: StreamDecoder<T>,
    private readonly whole: WholeAnswer<T>,
    private readonly contentType: string | undefined,
  ) {
    this.type = mediaType(contentType);
    // The normal case costs one comparison: an event stream goes straight to its decoder.
    this.mode = isEventStream(this.type) ? 'sse' : 'sniff';
  }

  get done(): boolean {
    return this.mode === 'sse' ? this.sse.done : this.ended;
  }

  push(bytes: Uint8Array, out: T[]): Error | undefined {
    if (this.mode === 'sse') return this.sse.push(bytes, out);
    this.chunks.push(bytes);
    this.size += bytes.byteLength;
    if (this.mode === 'sniff') {
      this.sniffText = (this.sniffText + this.sniffDecoder.decode(bytes, { stream: true }))
        .trimStart()
        .slice(0, SSE_PREFIX_CHARS * 4);
      // Only whitespace so far: past a page's worth it is not an answer either.
      const mode = sniff(this.sniffText, false, this.type) ?? (this.size >= PAGE_BYTES ? 'other' : undefined);
      if (mode === undefined) return undefined;
      this.mode = mode;
      if (mode === 'sse') return this.replay(out);
    }
    if (this.mode === 'json') {
      if (this.size <= MAX_JSON_BYTES) return undefined;
      this.ended = true;
      return new ResponseTooLargeError(
        `The gateway answered the stream with a JSON answer larger than ${formatByteSize(MAX_JSON_BYTES)}, more than the extension reads, so it was not read. This is not a normal answer: check the gateway address, or ask the gateway administrator.`,
        { limitBytes: MAX_JSON_BYTES },
      );
    }
    if (this.size < PAGE_BYTES) return undefined;
    this.ended = true;
    return unexpectedContent(this.contentType, this.text(PAGE_BYTES));
  }

  end(out: T[]): Error | undefined {
    if (this.mode === 'sse') return this.sse.end(out);
    if (this.mode === 'sniff') {
      this.sniffText = (this.sniffText + this.sniffDecoder.decode()).trimStart();
      this.mode = sniff(this.sniffText, true, this.type) ?? 'other';
      if (this.mode === 'sse') return this.replay(out) ?? this.sse.end(out);
    }
    this.ended = true;
    const text = this.text().replace(/^\ufeff/, '');
    if (this.mode === 'other') return unexpectedContent(this.contentType, text);
    const json = tryParseJson(text);
    // A whole answer that ended cleanly but does not parse was cut short on the way.
    if (json === undefined)
      return new StreamError('The gateway answered the stream with JSON that ended before it was complete', {
        interrupted: true,
      });
    const answer = this.whole(json);
    if (answer instanceof Error) return answer;
    const items = Array.isArray(answer) ? answer : answer.items;
    for (const item of items) out.push(item);
    return Array.isArray(answer) ? undefined : answer.error;
  }

  fail(error: unknown): Error | undefined {
    return this.mode === 'sse' ? this.sse.fail(error) : sourceFailure(error);
  }

  /** The bytes held while sniffing go to the SSE decoder, as if it had had them all along. */
  private replay(out: T[]): Error | undefined {
    const chunks = this.chunks;
    this.chunks = [];
    for (const chunk of chunks) {
      const error = this.sse.push(chunk, out);
      if (error !== undefined) return error;
    }
    return undefined;
  }

  private bytes(limit: number): Buffer {
    const bytes = Buffer.concat(
      this.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
    );
    return bytes.subarray(0, Math.min(bytes.byteLength, limit));
  }

  /** The held bytes as text (the first `limit` bytes of them, if given). */
  private text(limit = Number.POSITIVE_INFINITY): string {
    return this.bytes(limit).toString('utf8');
  }
}
