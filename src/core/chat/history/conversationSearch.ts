// Search over the history without a search index on disk: the first search reads each
// conversation once and keeps its lowercase text in memory, keyed by the file's mtime and size;
// later searches (every keystroke) scan memory, and the store's reads and saves refresh entries
// directly.
import type { FileStamp } from '../../storage/durableFile';
import type { Conversation } from '../../../shared/chatModel';
import { sameStamp } from './conversationFiles';

export class ConversationSearch {
  private readonly texts = new Map<string, { readonly stamp: FileStamp; readonly text: string }>();
  /** Set by the first search: from then on every conversation read also feeds the cache. */
  private searching = false;

  start(): void {
    this.searching = true;
  }

  /** A conversation read or written with this stamp (ignored until the first search). */
  note(conversation: Conversation, stamp: FileStamp): void {
    if (this.searching) this.texts.set(conversation.id, { stamp, text: searchTextOf(conversation) });
    else this.texts.delete(conversation.id);
  }

  forget(id: string): void {
    this.texts.delete(id);
  }

  /**
   * Whether the conversation (title, then cached text, then the file through `read`) holds
   * `needle` (lowercase). `read` feeds the cache itself, through `note`.
   */
  async matches(
    entry: { readonly id: string; readonly title: string } & FileStamp,
    needle: string,
    read: () => Promise<Conversation | undefined>,
  ): Promise<boolean> {
    if (entry.title.toLowerCase().includes(needle)) return true;
    const cached = this.texts.get(entry.id);
    if (cached && sameStamp(cached.stamp, entry)) return cached.text.includes(needle);
    const conversation = await read();
    return conversation !== undefined && searchTextOf(conversation).includes(needle);
  }
}

/** What search looks in: the title and each turn's text; NUL between them so a match never spans two turns. */
export function searchTextOf(conversation: Conversation): string {
  const parts = [conversation.title];
  for (const turn of conversation.turns) parts.push(turn.role === 'user' ? turn.text : turn.content);
  return parts.join('\u0000').toLowerCase();
}
