// Chat history on disk: one `<id>.json` per conversation plus `index.v1.json`, a cache of the
// list rows. No `vscode` import, so it runs (and is tested) in plain Node.
//
// Why this index: `list('')` must stay fast with 200 conversations of 500 messages (~100 MB of
// JSON), so the index holds only the summaries plus each file's mtime and size (a few KB, cheap
// to rewrite on every save). `list()` reads the index once, then checks it against the folder
// with one readdir + one stat per file; only files that are new or changed are parsed (the files
// always win). Search text is NOT in the index: at that size it would make every save rewrite
// ~100 MB. Instead the first search reads each conversation once and keeps its lowercase text in
// memory, keyed by the file's mtime and size; later searches (every keystroke) scan memory, and
// saves made here refresh their entry directly.
import { open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { removeStrayTempFiles, renameWithRetry, writeFileDurably, type FileStamp } from '../../../core/storage/durableFile';
import type { AssistantTurn, Conversation, ConversationSummary } from '../../../shared/chatModel';
import { newId } from '../../../shared/ids';
import { isRecord, parseConversation } from './conversationShape';
import { baseOf, mergeConversations, type MergeBase } from './conversationMerge';
import { journalName, readJournal, replayJournal, ReplyJournal, writerIsAlive } from './replyJournal';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Its stem has a dot, so it can never collide with a conversation id. */
const INDEX_FILE = 'index.v1.json';
const INDEX_VERSION = 1;
/** Files read at the same time while scanning: keeps clear of EMFILE. */
const PARALLEL_READS = 16;
/** Not a valid id, so the index's write queue never collides with a conversation's. */
const INDEX_LOCK = ' index';

type Stamp = FileStamp;

interface IndexEntry extends ConversationSummary, Stamp {}

type FileRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'ok'; readonly conversation: Conversation; readonly stamp: Stamp }
  | { readonly kind: 'corrupt'; readonly reason: string; readonly stamp: Stamp };

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
  readonly stamp: Stamp;
  /** This store's write count of the id then: exact within one window, whatever the clock's resolution. */
  readonly writes: number;
  readonly base: MergeBase;
}

export class ConversationStore {
  private entries: Promise<Map<string, IndexEntry>> | undefined;
  private readonly searchTexts = new Map<string, { readonly stamp: Stamp; readonly text: string }>();
  /** Set by the first search: from then on every conversation read also feeds the search cache. */
  private searching = false;
  private readonly locks = new Map<string, Promise<void>>();
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
      this.searching = true;
      const hits = await mapLimited(rows, async (entry) => ((await this.matches(entry, needle)) ? entry : undefined));
      rows = hits.filter((entry): entry is IndexEntry => entry !== undefined);
    }
    return rows.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id)).map(summaryOf);
  }

  async load(id: string): Promise<Conversation | undefined> {
    assertId(id);
    const entries = await this.ready();
    await this.locks.get(id); // a save in flight finishes first, so load sees it
    const live = await this.exclusive(id, () => this.foldJournal(id));
    const read = await this.read(id);
    if (read.kind === 'ok') {
      this.seen.set(read.conversation, { stamp: read.stamp, writes: this.writeCounts.get(id) ?? 0, base: baseOf(read.conversation) });
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
      if (read.kind === 'ok') await rm(this.fileOf(id), { force: true });
      await rm(join(this.directory, journalName(id)), { force: true });
      // Inside the lock: an Undo save queued right behind this must find the entry gone, not remove its own.
      this.searchTexts.delete(id);
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
      return await this.readIndex();
    })().catch((error: unknown) => {
      this.entries = undefined; // try again next time (e.g. a permission problem fixed meanwhile)
      throw error;
    });
    return this.entries;
  }

  private async readIndex(): Promise<Map<string, IndexEntry>> {
    const entries = new Map<string, IndexEntry>();
    let text: string;
    try {
      text = await readFile(join(this.directory, INDEX_FILE), 'utf8');
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') this.onProblem(`Conversation index unreadable (${messageOf(error)}); rebuilding it from the files.`);
      return entries;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!isRecord(parsed) || parsed['version'] !== INDEX_VERSION || !Array.isArray(parsed['conversations'])) throw new Error('unknown format');
      for (const item of parsed['conversations'] as unknown[]) {
        const entry = indexEntryOf(item);
        if (entry) entries.set(entry.id, entry);
      }
    } catch (error) {
      this.onProblem(`Conversation index is corrupt (${messageOf(error)}); rebuilding it from the files.`);
      entries.clear();
    }
    return entries;
  }

  /** Brings the index in line with the folder: the files win (new, changed, missing, corrupt). */
  private async reconcile(entries: Map<string, IndexEntry>): Promise<void> {
    const ids = (await this.fileNames()).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5)).filter(isValidId);
    const before = new Map(entries);
    let changed = false;
    const present = new Set(ids);
    for (const [id, entry] of before) {
      if (!present.has(id) && entries.get(id) === entry) changed = entries.delete(id) || changed;
    }
    await mapLimited(ids, async (id) => {
      const known = before.get(id);
      const now = await stat(this.fileOf(id)).catch(() => undefined);
      if (!now || (known && sameStamp(known, now))) return;
      const read = await this.readReporting(id);
      if (!read) return;
      // A save or delete that finished while we read knows better than this scan.
      if (entries.get(id) !== known) return;
      if (read.kind === 'corrupt') await this.exclusive(id, () => this.moveAside(id, read));
      if (read.kind === 'ok') entries.set(id, { ...summaryFrom(read.conversation), ...read.stamp });
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
      const body = JSON.stringify({ version: INDEX_VERSION, conversations: [...entries.values()] });
      try {
        await this.writeAtomically(INDEX_FILE, body);
      } catch (error) {
        // The conversation files are safe; a stale index is repaired by the next list().
        this.onProblem(`Could not write the conversation index: ${messageOf(error)}`);
      }
    });
    return this.queuedIndexWrite;
  }

  // --- conversation files ------------------------------------------------------------------

  /** Writes a conversation (already redacted) and updates the index and search cache; returns the new stamp. */
  private async write(conversation: Conversation): Promise<Stamp> {
    const entries = await this.ready();
    const stamp = await this.writeAtomically(`${conversation.id}.json`, JSON.stringify(conversation));
    this.writeCounts.set(conversation.id, (this.writeCounts.get(conversation.id) ?? 0) + 1);
    entries.set(conversation.id, { ...summaryFrom(conversation), ...stamp });
    if (this.searching) this.searchTexts.set(conversation.id, { stamp, text: searchTextOf(conversation) });
    else this.searchTexts.delete(conversation.id);
    await this.writeIndexSoon();
    return stamp;
  }

  /** Under the id's lock: checks the file against what `target` last saw, merges if it changed, writes. */
  private async checkedWrite(target: Conversation, ours: Conversation): Promise<SaveOutcome> {
    const seen = this.seen.get(target);
    const now = await stat(this.fileOf(ours.id)).catch(() => undefined);
    if (!now) {
      // It was on disk when this object last saw it, and now it is gone: deleted elsewhere.
      if (seen) return { kind: 'deleted' };
      return this.writeSeen(target, ours, { kind: 'saved' });
    }
    if (seen && sameStamp(seen.stamp, now) && seen.writes === (this.writeCounts.get(ours.id) ?? 0)) return this.writeSeen(target, ours, { kind: 'saved' });
    const read = await this.read(ours.id);
    if (read.kind === 'corrupt') await this.moveAside(ours.id, read);
    if (read.kind !== 'ok') return this.writeSeen(target, ours, { kind: 'saved' });
    const merge = mergeConversations(ours, read.conversation, seen?.base);
    if (merge.kind === 'conflict') {
      const copy: Conversation = { ...ours, id: newId('c'), title: `${ours.title} (copy)` };
      Object.assign(target, { id: copy.id, title: copy.title }); // the caller goes on in its copy
      return this.writeSeen(target, copy, { kind: 'copied', id: copy.id, title: copy.title });
    }
    const merged = merge.conversation;
    // Where the merge kept our version of a turn, the caller's live object stays (a reply may still
    // be streaming into it). Where it took theirs (a reply another view finished while ours held a
    // partial copy), the caller takes theirs too: keeping the stale object would write it back
    // over the finished reply at the next save.
    const live = new Map(target.turns.map((turn) => [turn.id, turn]));
    const mergedIds = new Set(merged.turns.map((turn) => turn.id));
    const snapshotIds = new Set(ours.turns.map((turn) => turn.id));
    const oursKept = new Set<unknown>(ours.turns);
    const takenOver = merged.turns.filter((turn) => snapshotIds.has(turn.id) && !oursKept.has(turn)).length;
    target.turns = [
      ...merged.turns.map((turn) => (oursKept.has(turn) && live.get(turn.id)) || turn),
      ...target.turns.filter((turn) => !mergedIds.has(turn.id) && !snapshotIds.has(turn.id)), // added after this save was asked for
    ];
    Object.assign(target, { title: merged.title, model: merged.model, parameters: merged.parameters });
    const changed = merge.fromTheirs > 0 || takenOver > 0 || merged.turns.length !== ours.turns.length;
    return this.writeSeen(target, merged, changed ? { kind: 'merged', fromOthers: merge.fromTheirs + takenOver } : { kind: 'saved' });
  }

  private async writeSeen(target: Conversation, conversation: Conversation, outcome: SaveOutcome): Promise<SaveOutcome> {
    const stamp = await this.write(conversation);
    this.seen.set(target, { stamp, writes: this.writeCounts.get(conversation.id) ?? 0, base: baseOf(conversation) });
    return outcome;
  }

  // --- reply journals ----------------------------------------------------------------------

  /** Once per store (the first list): journals whose writer died (a crash) go into their conversations. */
  private async foldOrphanJournals(): Promise<void> {
    const ids = (await this.fileNames()).filter((name) => name.endsWith('.journal')).map((name) => name.slice(0, -'.journal'.length)).filter(isValidId);
    for (const id of ids) await this.exclusive(id, () => this.foldJournal(id)).catch((error: unknown) => this.onProblem(`Could not recover the reply journal of ${id}: ${messageOf(error)}`));
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

  /** Reads and validates one file; the stamp comes from the same open file, so it matches the content. */
  private async read(id: string): Promise<FileRead> {
    let handle;
    try {
      handle = await open(this.fileOf(id), 'r');
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
    let stamp: Stamp;
    let text: string;
    try {
      const info = await handle.stat();
      stamp = { mtimeMs: info.mtimeMs, size: info.size };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { kind: 'corrupt', reason: `bad JSON: ${messageOf(error)}`, stamp };
    }
    const parsed = parseConversation(value, id);
    if (typeof parsed === 'string') return { kind: 'corrupt', reason: parsed, stamp };
    if (this.searching) this.searchTexts.set(id, { stamp, text: searchTextOf(parsed) });
    return { kind: 'ok', conversation: parsed, stamp };
  }

  /** For scans: a file that cannot be read at all (permissions, a folder named like one) is reported and skipped, so one bad file never breaks the list. */
  private async readReporting(id: string): Promise<FileRead | undefined> {
    try {
      return await this.read(id);
    } catch (error) {
      this.onProblem(`Skipped the conversation file ${id}.json: ${messageOf(error)}`);
      return undefined;
    }
  }

  /** Renames a corrupt file to `<id>.corrupt-<time>.json` (never deletes it: the user may want it back). Call under the id's lock. */
  private async moveAside(id: string, read: { readonly reason: string; readonly stamp: Stamp }): Promise<void> {
    const now = await stat(this.fileOf(id)).catch(() => undefined);
    if (!now || !sameStamp(read.stamp, now)) return; // replaced meanwhile (a save landed): nothing to move
    const aside = `${id}.corrupt-${Date.now()}.json`;
    try {
      await renameWithRetry(this.fileOf(id), join(this.directory, aside));
      this.onProblem(`Conversation file ${id}.json is corrupt (${read.reason}); skipped it and moved it aside to ${aside}.`);
    } catch (error) {
      this.onProblem(`Conversation file ${id}.json is corrupt (${read.reason}); skipped it, and could not move it aside: ${messageOf(error)}`);
    }
    this.searchTexts.delete(id);
  }

  private async matches(entry: IndexEntry, needle: string): Promise<boolean> {
    if (entry.title.toLowerCase().includes(needle)) return true;
    const cached = this.searchTexts.get(entry.id);
    if (cached && sameStamp(cached.stamp, entry)) return cached.text.includes(needle);
    const read = await this.readReporting(entry.id); // fills the cache (searching is on)
    return read?.kind === 'ok' && searchTextOf(read.conversation).includes(needle);
  }

  private writeAtomically(name: string, data: string): Promise<Stamp> {
    return writeFileDurably(join(this.directory, name), data);
  }

  /** Temp files of writers that no longer run (a crash), or very old ones; never a live window's write in progress. */
  private async removeStrayTempFiles(): Promise<void> {
    for (const problem of await removeStrayTempFiles(this.directory)) this.onProblem(`Could not remove the stray temp file ${problem}`);
  }

  private async fileNames(): Promise<string[]> {
    try {
      return await readdir(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return [];
      throw error;
    }
  }

  private fileOf(id: string): string {
    return join(this.directory, `${id}.json`);
  }

  /** Runs tasks of one key one after another (a failed task does not block the next). */
  private exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const run = (this.locks.get(key) ?? Promise.resolve()).then(task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(key, settled);
    void settled.then(() => {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    });
    return run;
  }
}

function assertId(id: unknown): asserts id is string {
  if (!isValidId(id)) throw new Error(`Invalid conversation id ${JSON.stringify(id)}: expected 1 to 64 letters, digits, '_' or '-'.`);
}

function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

function summaryFrom(conversation: Conversation): ConversationSummary {
  const { id, title, model, updatedAt } = conversation;
  return { id, title, model, updatedAt, turnCount: conversation.turns.length };
}

function summaryOf(entry: IndexEntry): ConversationSummary {
  const { id, title, model, updatedAt, turnCount } = entry;
  return { id, title, model, updatedAt, turnCount };
}

/** What search looks in: the title and each turn's text; NUL between them so a match never spans two turns. */
function searchTextOf(conversation: Conversation): string {
  const parts = [conversation.title];
  for (const turn of conversation.turns) parts.push(turn.role === 'user' ? turn.text : turn.content);
  return parts.join('\u0000').toLowerCase();
}

function indexEntryOf(value: unknown): IndexEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { id, title, model, updatedAt, turnCount, mtimeMs, size } = value;
  if (!isValidId(id) || typeof title !== 'string' || typeof model !== 'string') return undefined;
  if (![updatedAt, turnCount, mtimeMs, size].every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  return { id, title, model, updatedAt: updatedAt as number, turnCount: turnCount as number, mtimeMs: mtimeMs as number, size: size as number };
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}


async function mapLimited<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, items.length) }, worker));
  return results;
}

function codeOf(error: unknown): string | undefined {
  return isRecord(error) && typeof error['code'] === 'string' ? error['code'] : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
