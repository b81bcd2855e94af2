// Anthropic Messages streams: bytes in, typed events out. Pure, like parseChatStream.
import { AnswerDecoder } from '../answers/answerDecoder';
import { messageAsEvents } from '../answers/wholeAnswers';
import { DecodedStream } from './decodedStream';
import { StreamError } from '../errors';
import { isBlockIndex, MAX_MESSAGE_BLOCKS } from '../limits';
import { isRecord, str, tryParseJson } from '../parse/json';
import { parseMessageEvent } from '../parse/messages';
import { SseStreamDecoder, errorEvent } from './streamCommon';
import { finishReasonError, isErrorFinishReason } from './finishReasons';
import type { MessageStreamEvent } from '../types/messages';

/**
 * Yields the events of a Messages stream (pings and unknown types are skipped). Ends at
 * `message_stop` (events that are not JSON are skipped); throws StreamError for an `error` event, and with
 * `interrupted: true` when the stream ends or breaks before the message was complete.
 */
export function parseMessagesStream(
  source: AsyncIterable<Uint8Array>,
  contentType?: string,
): DecodedStream<MessageStreamEvent> {
  const sse = new MessagesStreamDecoder();
  // As parseChatStream: with the content type, a whole JSON message or a non-answer is read for what it is.
  return new DecodedStream(
    source,
    contentType === undefined ? sse : new AnswerDecoder(sse, messageAsEvents, contentType),
  );
}

class MessagesStreamDecoder extends SseStreamDecoder<MessageStreamEvent> {
  protected override onEvent(data: string, event: string | undefined): void {
    const json = tryParseJson(data);
    if (!isRecord(json)) {
      const text = data.trim();
      if (event === 'error') this.error = errorEvent(data);
      else if (text === '[DONE]') this.done = true;
      // A garbled or cut-off event is skipped; how the stream ends decides the rest.
      else this.skipped++;
      return;
    }
    // `event:` equals data.type; either may be missing on a lax server.
    const type = str(json.type) ?? event ?? '';
    // An OpenAI-style `{"error": ...}` without a type is still the server's
    // error (a proxy in front may answer like that): losing it would read as an interruption.
    const bareError = json.error !== undefined && json.error !== null && json.type === undefined;
    if (type === 'error' || event === 'error' || bareError) {
      this.error = errorEvent(json);
      return;
    }
    const parsed = parseMessageEvent(type, json);
    if (parsed === undefined) return; // ping, or a type this client does not know
    if ('index' in parsed && !isBlockIndex(parsed.index)) {
      this.error = blockIndexRefused(parsed.index);
      return;
    }
    if (parsed.type === 'message_stop') this.done = true;
    else if (parsed.type === 'message_delta' && parsed.delta.stop_reason !== null) {
      // A stop_reason that names an error (a translating proxy's upstream failure) ends the reply as failed.
      // Its usage is kept (the counts of what arrived): the event goes on with no stop_reason.
      if (isErrorFinishReason(parsed.delta.stop_reason)) {
        this.error = finishReasonError(parsed.delta.stop_reason);
        this.out.push({ ...parsed, delta: { ...parsed.delta, stop_reason: null } });
        return;
      }
      this.finished = true;
    }
    this.out.push(parsed);
  }
}

/** Code of the StreamError for a block index past MAX_MESSAGE_BLOCKS. */
export const TOO_MANY_BLOCKS = 'too_many_blocks';

function blockIndexRefused(index: number): StreamError {
  return new StreamError(
    `The gateway sent content block number ${String(index)}; the extension reads at most ${MAX_MESSAGE_BLOCKS} blocks of one answer, so the answer was cut there.`,
    { interrupted: true, code: TOO_MANY_BLOCKS },
  );
}
