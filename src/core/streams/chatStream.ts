// Chat completion streams: bytes in, typed chunks out. A pure function of an
// AsyncIterable<Uint8Array>, so tests feed it recorded streams split anywhere and the transport
// only supplies the body.
import { AnswerDecoder } from '../answers/answerDecoder';
import { chatCompletionAsChunks } from '../answers/wholeAnswers';
import { DecodedStream } from './decodedStream';
import { normalizeChatChunk } from '../parse/chat';
import { isRecord, tryParseJson } from '../parse/json';
import { SseStreamDecoder, errorEvent } from './streamCommon';
import { finishReasonError, isErrorFinishReason } from './finishReasons';
import type { ChatCompletionChunk } from '../types/chat';

/**
 * Yields every chunk of an OpenAI-style SSE chat stream. Ends normally at `[DONE]`, or at the end
 * of the bytes after a finish_reason (chunks that are not JSON are skipped). Throws StreamError for an error event
 * or a finish_reason that names an error (`overloaded_error`, after that chunk's delta),
 * and with `interrupted: true` when the stream ended or broke before either end marker.
 * With the response's `contentType` (the transport passes it), an answer that is not an event
 * stream is read for what it is: a whole JSON completion yields its chunk, anything else throws
 * UnexpectedContentError.
 */
export function parseChatStream(
  source: AsyncIterable<Uint8Array>,
  contentType?: string,
): DecodedStream<ChatCompletionChunk> {
  const sse = new ChatStreamDecoder();
  return new DecodedStream(
    source,
    contentType === undefined ? sse : new AnswerDecoder(sse, chatCompletionAsChunks, contentType),
  );
}

class ChatStreamDecoder extends SseStreamDecoder<ChatCompletionChunk> {
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
    let failure: string | undefined;
    for (const choice of choices) {
      const finish = choice.finish_reason;
      if (finish === null) continue;
      if (isErrorFinishReason(finish)) {
        // A translating proxy's mid-stream error: the chunk's delta is kept, the reply ends as failed.
        failure ??= finish;
        choice.finish_reason = null;
      } else this.finished = true;
    }
    this.out.push(chunk);
    if (failure !== undefined) this.error = finishReasonError(failure);
  }
}
