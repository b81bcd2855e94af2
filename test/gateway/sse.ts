import { echoIntoError, echoJson } from './keyEcho';
import type { Reply } from './reply';
import { writeEndlessLine } from './floods';

/** One Server-Sent Event: an optional `event:` name and a `data:` payload (one line of JSON, or `[DONE]`). */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/** The events fault injection puts into a stream, in the endpoint's own shape. */
export interface StreamFaultEvents {
  /** An event whose data is not valid JSON. */
  readonly malformed: SseEvent;
  /** An error event; the stream ends right after it, without its normal terminator. */
  readonly error: SseEvent;
}

function formatEvent(event: SseEvent): string {
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

/** Enough bytes per write to be fast for benchmarks, small enough that events still arrive split across reads. */
const BATCH_BYTES = 16 * 1024;

/**
 * Writes a whole event stream. Without `delay-chunks`, events are batched into ~16 KB writes (a
 * long benchmark stream must not cost one syscall per token); with it, each event is its own
 * write after the delay. `malformed-chunk` and `error-event` strike at the middle event.
 */
export async function writeSse(
  reply: Reply,
  events: readonly SseEvent[],
  faults: StreamFaultEvents,
  options: { readonly pieceDelayMs?: number } = {},
): Promise<void> {
  reply.head(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  reply.flushHeaders();
  const fault = reply.fault;
  // `pieceDelayMs`: a model that streams slowly by nature (the completion model), unless delay-chunks says otherwise.
  const delay = fault?.delayChunksMs ?? options.pieceDelayMs ?? 0;
  const middle = Math.max(1, Math.floor(events.length / 2));
  let pending = '';
  const flush = async (): Promise<boolean> => {
    if (pending === '') return !reply.gone;
    const text = pending;
    pending = '';
    return reply.write(text);
  };
  // `hang-before-end`: the content has gone out, the end has not (a test reads what the client wrote meanwhile).
  const hangAt = fault?.hang ? Math.max(1, events.length - 2) : -1;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event === undefined) continue;
    if (i === hangAt) {
      if (await flush()) await reply.untilGone();
      return;
    }
    if (i === middle && fault?.malformedChunk) pending += formatEvent(faults.malformed);
    if (i === middle && fault?.endlessLine) {
      if (await flush()) await writeEndlessLine(reply);
      return;
    }
    if (i === middle && fault?.errorEvent) {
      const echo = reply.echo;
      pending += formatEvent(
        echo
          ? {
              ...faults.error,
              data: echoJson(echo, JSON.stringify(echoIntoError(echo, JSON.parse(faults.error.data)))),
            }
          : faults.error,
      );
      if (await flush()) reply.end();
      return;
    }
    if (delay > 0 && i > 0) {
      if (!(await flush())) return;
      await reply.sleep(delay);
      if (reply.gone) return;
    }
    pending += formatEvent(event);
    if ((delay > 0 || pending.length >= BATCH_BYTES) && !(await flush())) return;
  }
  if (await flush()) reply.end();
}
