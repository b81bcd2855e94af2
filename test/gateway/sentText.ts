// What a streamed chat reply had told the client by a given instant: the content text of the
// events written until then (chat completions or messages format), from the request's `writes`.
import type { RequestRecord } from './recorder';

export function sentContentBefore(record: RequestRecord, at: number): string {
  const stream = record.writes
    .filter((write) => write.at <= at)
    .map((write) => write.text ?? '')
    .join('');
  let content = '';
  // An event split over two writes is only counted once complete (its line ends).
  for (const line of stream.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    let event: unknown;
    try {
      event = JSON.parse(line.slice(6));
    } catch {
      continue; // [DONE], or the unfinished last line
    }
    content += contentOf(event);
  }
  return content;
}

function contentOf(event: unknown): string {
  if (typeof event !== 'object' || event === null) return '';
  const e = event as {
    choices?: { delta?: { content?: unknown } }[];
    type?: unknown;
    delta?: { type?: unknown; text?: unknown };
  };
  const chat = e.choices?.[0]?.delta?.content;
  if (typeof chat === 'string') return chat;
  if (e.type === 'content_block_delta' && e.delta?.type === 'text_delta' && typeof e.delta.text === 'string')
    return e.delta.text;
  return '';
}
