// Chat completion streams: bytes in, typed chunks out. A pure function of an
// AsyncIterable<Uint8Array>, so tests feed it recorded streams split anywhere and the transport
// only supplies the body.
import { DecodedStream } from './decodedStream';
import { normalizeChatChunk } from './parse/chat';
import { isRecord, tryParseJson } from './parse/json';
import { SseStreamDecoder, errorEvent } from './streamCommon';
import type { ChatCompletionChunk } from './types/chat';

/**
 * Yields every chunk of an OpenAI-style SSE chat stream. Ends normally at `[DONE]`, or at the end
 * of the bytes after a finish_reason (chunks that are not JSON are skipped). Throws StreamError for an error event,
 * and with `interrupted: true` when the stream ended or broke before either end marker.
 */
export function parseChatStream(source: AsyncIterable<Uint8Array>): DecodedStream<ChatCompletionChunk> {
  return new DecodedStream(source, new ChatStreamDecoder());
}

export class ChatStreamDecoder extends SseStreamDecoder<ChatCompletionChunk> {
  protected override onEvent(data: string, event: string | undefined): void {
    if (event === 'error') {
      this.error = errorEvent(data);
      return;
    }
    const json = tryParseJson(data);
    if (!isRecord(json)) {
      // Anything else that is not a JSON object (a garbled chunk, a cut-off last event) is skipped:
      // the stream goes on, and how it ends still decides between done and interrupted.
      if (data.trim() === '[DONE]') this.done = true;
      else this.skipped++;
      return;
    }
    if (json.error !== undefined && json.error !== null) {
      this.error = errorEvent(json);
      return;
    }
    const chunk = normalizeChatChunk(json);
    const choices = chunk.choices;
    for (let i = 0; i < choices.length; i++) if ((choices[i] as ChatCompletionChunk['choices'][number]).finish_reason !== null) this.finished = true;
    this.out.push(chunk);
  }
}
