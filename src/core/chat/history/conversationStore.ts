// Chat history on disk: one `<id>.json` per conversation plus `index.v1.json`, a cache of the
// list rows (conversationIndex.ts). `list()` reads the index once, then checks it against the
// folder with one readdir + one stat per file; only files that are new or changed are parsed (the
// files always win). Search keeps its text in memory (conversationSearch.ts). Saves are checked
// against what each writer last saw and merged (conversationMerge.ts); a reply in flight is
// journaled (replyJournal.ts).
import { rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { removeStrayTempFiles, writeFileDurably, type FileStamp } from '../../storage/durableFile';
import type { AssistantTurn, Conversation, ConversationSummary } from '../../../shared/chatModel';
import { newId } from '../../../shared/ids';
import {
  assertId,
  conversationFile,
  idsWith,
  mapLimited,
  moveAside,
  readConversationFile,
  sameStamp,
  type FileRead,
} from './conversationFiles';
import { entryOf, readIndex, summaryOf, writeIndex, type IndexEntry } from './conversationIndex';
import { adoptMerge, baseOf, mergeConversations, type MergeBase } from './conversationMerge';
import { ConversationSearch } from './conversationSearch';
import type { ChatImageStore } from './chatImageStore';
import { journalName, readJournal, replayJournal, ReplyJournal, writerIsAlive } from './replyJournal';
import { errorMessage } from '../../../shared/errorMessage';
import { SerialQueue } from '../../../shared/serialQueue';

/** Not a valid id, so the index's write queue never collides with a conversation's. */
const INDEX_LOCK = ' index';

/** A save waiting for its turn; later saves of the same object replace its content (last call wins). */
interface PendingSave {
  readonly target: Conversation;
  json: string;
  readonly done: Promise<SaveOutcome>;
}

/**
 * How a save went. `merged`: the file had changed under this writer (another chat or window saved
 * the conversation); both sides' turns are kept and the caller's object now holds the merge.
 * `copied`: both sides had rewritten history, so the caller's version went to a new conversation
 * (its object now has the copy's id and title). `deleted`: it was deleted elsewhere; nothing was
 * written (save a copy under a new id to keep it).
 */
export type SaveOutcome =
  | { readonly kind: 'saved' }
  | { readonly kind: 'merged'; readonly fromOthers: number }
  | { readonly kind: 'copied'; readonly id: string; readonly title: string }
  | { readonly kind: 'deleted' };

/** What one writer (one caller's conversation object) last saw of its file. */
interface Seen {
  readonly stamp: FileStamp;
  /** This store's write count of the id then: exact within one window, whatever the clock's resolution. */
  readonly writes: number;
  readonly base: MergeBase;
}

export class ConversationStore {
  private entries: Promise<Map<string, IndexEntry>> | undefined;
  private readonly search = new ConversationSearch();
  private readonly locks = new SerialQueue();
  private readonly pendingSaves = new Map<string, PendingSave>();
  private queuedIndexWrite: Promise<void> | undefined;
  /**
   * Keyed by the caller's object, not the id: the sidebar and a panel each hold their own object of
   * one conversation and share this store, so each must be checked against what it last saw.
   */
  private readonly seen = new WeakMap<Conversation, Seen>();
  private journalsFolded: Promise<void> | undefined;
  private readonly writeCounts = new Map<string, number>();

  /**
   * `directory`: an absolute folder (the extension's global storage + '/conversations'); created on
   * first write. `onProblem` hears about skipped/corrupt files (for the log). `redact` takes secrets
   * out of a conversation before it is written (replies and errors are the gateway's untrusted text).
   */
  constructor(
    private readonly directory: string,
    private readonly onProblem: (message: string) => void = () => undefined,
    private readonly redact: <T>(value: T) => T = (value) => value,
    /** Where the conversations' images are (deleting a conversation deletes its images). */
    readonly images?: ChatImageStore,
  ) {
    if (!isAbsolute(directory)) throw new Error(`The conversation folder must be an absolute path: ${directory}`);
  }

  /** Newest first (updatedAt). `query` (optional) matches title and every turn's text/content, case-insensitive; '' lists all. */
  async list(query = ''): Promise<ConversationSummary[]> {
    const entries = await this.ready();
    await (this.journalsFolded ??= this.foldOrphanJournals());
    await this.reconcile(entries);
    const needle = query.trim().toLowerCase();
    let rows = [...entries.values()];
    if (needle !== '') {
      this.search.start();
      const hits = await mapLimited(rows, async (entry) => ((await this.matches(entry, needle)) ? entry : undefined));
      rows = hits.filter((entry): entry is IndexEntry => entry !== undefined);
    }
    return rows.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id)).map(summaryOf);
  }

  async load(id: string): Promise<Conversation | undefined> {
    assertId(id);
    const entries = await this.ready();
    await this.locks.idle(id); // a save in flight finishes first, so load sees it
    const live = await this.exclusive(id, () => this.foldJournal(id));
    const read = await this.read(id);
    if (read.kind === 'ok') {
      this.seen.set(read.conversation, {
        stamp: read.stamp,
        writes: this.writeCounts.get(id) ?? 0,
        base: baseOf(read.conversation),
      });
      // A reply still streaming in another window: shown as far as it got (that window saves the rest).
      if (live) replayJournal(read.conversation, live, false);
      return read.conversation;
    }
    if (read.kind === 'corrupt') await this.exclusive(id, () => this.moveAside(id, read));
    if (entries.delete(id)) await this.writeIndexSoon();
    return undefined;
  }

  /**
   * Atomic (temp file, fsync, rename). Saves of one id are serialised; saves of one object coalesce
   * (the last call's content wins). Before writing, the file is checked against what this object
   * last saw: a change made elsewhere is merged (or the save becomes a copy, or is refused when the
   * conversation was deleted), never overwritten. See SaveOutcome.
   */
  async save(unsafe: Conversation): Promise<SaveOutcome> {
    const id = unsafe.id;
    assertId(id);
    // Serialise now: the caller may keep mutating the object after this call.
    const json = JSON.stringify(this.redact(unsafe));
    // A save of this object still waiting for its turn just takes the newer content: a burst of
    // saves costs at most two writes, and every caller resolves once its content, or newer, is on disk.
    const waiting = this.pendingSaves.get(id);
    if (waiting?.target === unsafe) {
      waiting.json = json;
      return waiting.done;
    }
    const pending: PendingSave = {
      target: unsafe,
      json,
      done: this.exclusive(id, async () => {
        if (this.pendingSaves.get(id) === pending) this.pendingSaves.delete(id); // newer saves queue behind this write
        return this.checkedWrite(pending.target, JSON.parse(pending.json) as Conversation);
      }),
    };
    this.pendingSaves.set(id, pending);
    return pending.done;
  }

  /** A journal for the reply being streamed into conversation `id` (see replyJournal.ts). */
  startJournal(id: string, turn: AssistantTurn): ReplyJournal {
    assertId(id);
    return new ReplyJournal(join(this.directory, journalName(id)), turn, (text) => this.redact(text), this.onProblem);
  }

  async rename(id: string, title: string): Promise<void> {
    assertId(id);
    const clean = title.replace(/\s+/g, ' ').trim();
    if (clean === '') throw new Error('A conversation title cannot be empty.');
    await this.ready();
    // Read-modify-write under the id's lock, so a save queued before the rename is not undone by it.
    await this.exclusive(id, async () => {
      const read = await this.read(id);
      if (read.kind !== 'ok') throw new Error(`There is no conversation ${id} to rename.`);
      const renamed: Conversation = this.redact({ ...read.conversation, title: clean });
      await this.write(renamed);
    });
  }

  /** Removes it and returns what was removed, so the caller can offer Undo by saving it back. */
  async delete(id: string): Promise<Conversation | undefined> {
    assertId(id);
    const entries = await this.ready();
    let indexChanged = false;
    const removed = await this.exclusive(id, async () => {
      const read = await this.read(id);
      if (read.kind === 'corrupt') await this.moveAside(id, read);
      if (read.kind === 'ok') await rm(conversationFile(this.directory, id), { force: true });
      await rm(join(this.directory, journalName(id)), { force: true });
      await this.images?.removeConversation(id);
      // Inside the lock: an Undo save queued right behind this must find the entry gone, not remove its own.
      this.search.forget(id);
      indexChanged = entries.delete(id);
      return read.kind === 'ok' ? read.conversation : undefined;
    });
    if (indexChanged) await this.writeIndexSoon();
    return removed;
  }

  // --- the index ---------------------------------------------------------------------------

  /** Loads the index once (and removes temp files that crashed writers left behind). */
  private ready(): Promise<Map<string, IndexEntry>> {
    this.entries ??= (async () => {
      await this.removeStrayTempFiles();
      return await readIndex(this.directory, this.onProblem);
    })().catch((error: unknown) => {
      this.entries = undefined; // try again next time (e.g. a permission problem fixed meanwhile)
      throw error;
    });
    return this.entries;
  }

  /** Brings the index in line with the folder: the files win (new, changed, missing, corrupt). */
  private async reconcile(entries: Map<string, IndexEntry>): Promise<void> {
    const ids = await idsWith(this.directory, '.json');
    const before = new Map(entries);
    let changed = false;
    const present = new Set(ids);
    for (const [id, entry] of before) {
      if (!present.has(id) && entries.get(id) === entry) changed = entries.delete(id) || changed;
    }
    await mapLimited(ids, async (id) => {
      const known = before.get(id);
      const now = await stat(conversationFile(this.directory, id)).catch(() => undefined);
      if (!now || (known && sameStamp(known, now))) return;
      const read = await this.readReporting(id);
      if (!read) return;
      // A save or delete that finished while we read knows better than this scan.
      if (entries.get(id) !== known) return;
      if (read.kind === 'corrupt') await this.exclusive(id, () => this.moveAside(id, read));
      if (read.kind === 'ok') entries.set(id, entryOf(read.conversation, read.stamp));
      else entries.delete(id);
      changed = true;
    });
    if (changed) await this.writeIndexSoon();
  }

  /** Coalesced: callers that arrive while a write waits share it; it snapshots the map when it starts. */
  private writeIndexSoon(): Promise<void> {
    this.queuedIndexWrite ??= this.exclusive(INDEX_LOCK, async () => {
      this.queuedIndexWrite = undefined;
      const entries = await this.ready();
      try {
        await writeIndex(this.directory, entries);
      } catch (error) {
        // The conversation files are safe; a stale index is repaired by the next list().
        this.onProblem(`Could not write the conversation index: ${errorMessage(error)}`);
      }
    });
    return this.queuedIndexWrite;
  }

  // --- conversation files ------------------------------------------------------------------

  /** Writes a conversation (already redacted) and updates the index and search cache; returns the new stamp. */
  private async write(conversation: Conversation): Promise<FileStamp> {
    const entries = await this.ready();
    const stamp = await writeFileDurably(
      conversationFile(this.directory, conversation.id),
      JSON.stringify(conversation),
    );
    this.writeCounts.set(conversation.id, (this.writeCounts.get(conversation.id) ?? 0) + 1);
    entries.set(conversation.id, entryOf(conversation, stamp));
    this.search.note(conversation, stamp);
    await this.writeIndexSoon();
    return stamp;
  }

  /** Under the id's lock: checks the file against what `target` last saw, merges if it changed, writes. */
  private async checkedWrite(target: Conversation, ours: Conversation): Promise<SaveOutcome> {
    const seen = this.seen.get(target);
    const now = await stat(conversationFile(this.directory, ours.id)).catch(() => undefined);
    if (!now) {
      // It was on disk when this object last saw it, and now it is gone: deleted elsewhere.
      if (seen) return { kind: 'deleted' };
      return this.writeSeen(target, ours, { kind: 'saved' });
    }
    if (seen && sameStamp(seen.stamp, now) && seen.writes === (this.writeCounts.get(ours.id) ?? 0))
      return this.writeSeen(target, ours, { kind: 'saved' });
    const read = await this.read(ours.id);
    if (read.kind === 'corrupt') await this.moveAside(ours.id, read);
    if (read.kind !== 'ok') return this.writeSeen(target, ours, { kind: 'saved' });
    const merge = mergeConversations(ours, read.conversation, seen?.base);
    if (merge.kind === 'conflict') {
      const copy: Conversation = { ...ours, id: newId('c'), title: `${ours.title} (copy)` };
      Object.assign(target, { id: copy.id, title: copy.title }); // the caller goes on in its copy
      await this.images?.copyConversation(ours.id, copy.id);
      return this.writeSeen(target, copy, { kind: 'copied', id: copy.id, title: copy.title });
    }
    const merged = merge.conversation;
    const adopted = adoptMerge(target, ours, merged, merge.fromTheirs);
    return this.writeSeen(
      target,
      merged,
      adopted.changed ? { kind: 'merged', fromOthers: adopted.fromOthers } : { kind: 'saved' },
    );
  }

  private async writeSeen(
    target: Conversation,
    conversation: Conversation,
    outcome: SaveOutcome,
  ): Promise<SaveOutcome> {
    const stamp = await this.write(conversation);
    this.seen.set(target, { stamp, writes: this.writeCounts.get(conversation.id) ?? 0, base: baseOf(conversation) });
    return outcome;
  }

  // --- reply journals ----------------------------------------------------------------------

  /** Once per store (the first list): journals whose writer died (a crash) go into their conversations. */
  private async foldOrphanJournals(): Promise<void> {
    const ids = await idsWith(this.directory, '.journal');
    for (const id of ids)
      await this.exclusive(id, () => this.foldJournal(id)).catch((error: unknown) =>
        this.onProblem(`Could not recover the reply journal of ${id}: ${errorMessage(error)}`),
      );
  }

  /**
   * Under the id's lock. A journal whose writer is gone is replayed into its conversation (the
   * partial reply, marked interrupted), written durably, then removed. A live writer's journal is
   * left alone and returned, so the caller can show the reply as far as it got.
   */
  private async foldJournal(id: string): Promise<Awaited<ReturnType<typeof readJournal>>> {
    const path = join(this.directory, journalName(id));
    const journal = await readJournal(path);
    if (!journal) return undefined;
    if (writerIsAlive(journal.pid)) return journal;
    const read = await this.read(id);
    if (read.kind === 'corrupt') return undefined; // left for load() to move aside; the journal waits
    if (read.kind === 'ok') {
      if (replayJournal(read.conversation, journal, true)) await this.write(this.redact(read.conversation));
      this.onProblem(`Recovered the reply that was being written in conversation ${id} when VS Code closed.`);
    }
    // Missing: the conversation was deleted; its journal goes too.
    await rm(path, { force: true });
    return undefined;
  }

  /** Reads and validates one file (see readConversationFile); once searching, its text feeds the search cache. */
  private async read(id: string): Promise<FileRead> {
    const read = await readConversationFile(this.directory, id);
    if (read.kind === 'ok') this.search.note(read.conversation, read.stamp);
    return read;
  }

  /** For scans: a file that cannot be read at all (permissions, a folder named like one) is reported and skipped, so one bad file never breaks the list. */
  private async readReporting(id: string): Promise<FileRead | undefined> {
    try {
      return await this.read(id);
    } catch (error) {
      this.onProblem(`Skipped the conversation file ${id}.json: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** Call under the id's lock (see conversationFiles.ts's moveAside). */
  private async moveAside(id: string, read: { readonly reason: string; readonly stamp: FileStamp }): Promise<void> {
    await moveAside(this.directory, id, read, this.onProblem);
    this.search.forget(id);
  }

  private matches(entry: IndexEntry, needle: string): Promise<boolean> {
    return this.search.matches(entry, needle, async () => {
      const read = await this.readReporting(entry.id); // fills the cache (searching is on)
      return read?.kind === 'ok' ? read.conversation : undefined;
    });
  }

  /** Temp files of writers that no longer run (a crash), or very old ones; never a live window's write in progress. */
  private async removeStrayTempFiles(): Promise<void> {
    for (const problem of await removeStrayTempFiles(this.directory))
      this.onProblem(`Could not remove the stray temp file ${problem}`);
  }

  /** Runs tasks of one key one after another (a failed task does not block the next). */
  private exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.locks.runFor(key, task);
  }
}
