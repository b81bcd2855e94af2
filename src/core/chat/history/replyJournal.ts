// The reply being streamed, kept on disk as it arrives at a cost of O(new text) per write: an
// append-only `<id>.journal` beside `<id>.json`. Rewriting the whole conversation every few
// seconds (what this replaces) costs O(conversation) per write and loses the seconds between.
//
// Line 1 is a header: `{"v":1,"pid":…,"turn":{…the assistant turn as it started…}}`; every
// further line is one batch `{"t":turnId,"f":"c"|"r","at":offset,"d":text}` (content or
// reasoning, `at` = the field's length before the batch). Offsets make replay idempotent: text
// already in the JSON (a full save landed after the batch) is skipped, never doubled. A crash
// mid-append leaves a torn last line, which replay ignores.
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { processIsAlive } from '../../storage/durableFile';
import { isRecord } from '../../parse/json';
import type { AssistantTurn, Conversation } from '../../../shared/chatModel';
import { errorMessage } from '../../../shared/errorMessage';
import { SerialQueue } from '../../../shared/serialQueue';

/** Appends (and fsyncs) at most this often: a crash loses at most this much plus one fsync. */
export const JOURNAL_FLUSH_MS = 300;
const JOURNAL_VERSION = 1;

/** What replay adds to a reply whose window died mid-stream. */
export const INTERRUPTED_NOTE =
  'VS Code closed while this reply was being written; the text that arrived before is kept.';

export function journalName(id: string): string {
  return `${id}.journal`;
}

type Field = 'c' | 'r';

/** Writes one reply's journal. `append` is cheap (memory); a timer writes batches. */
export class ReplyJournal {
  private handle: Promise<FileHandle> | undefined;
  private lines: string[] = [];
  private readonly offsets = { c: 0, r: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly writing = new SerialQueue();
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly turn: AssistantTurn,
    private readonly redact: (text: string) => string = (text) => text,
    private readonly onProblem: (message: string) => void = () => undefined,
    private readonly flushMs = JOURNAL_FLUSH_MS,
  ) {
    this.offsets.c = turn.content.length;
    this.offsets.r = turn.reasoning.length;
    const header = { v: JOURNAL_VERSION, pid: process.pid, turn: { ...turn, status: 'streaming' } };
    this.lines.push(JSON.stringify(header));
    this.schedule(0);
  }

  /** Text that arrived; `undefined` or '' adds nothing. */
  append(content: string | undefined, reasoning: string | undefined): void {
    if (this.closed) return;
    this.add('c', content);
    this.add('r', reasoning);
  }

  /** Writes what is buffered and fsyncs; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.lines;
    this.lines = [];
    if (batch.length === 0) return this.writing.idle();
    return this.writing
      .run(async () => {
        const handle = await (this.handle ??= open(this.path, 'a'));
        await handle.appendFile(`${batch.join('\n')}\n`);
        await handle.datasync();
      })
      .catch((error: unknown) => this.onProblem(`Could not append to the reply journal: ${errorMessage(error)}`));
  }

  /** Flushes, closes the file and (when `remove`: the full conversation is saved) deletes it. */
  async close(remove: boolean): Promise<void> {
    this.closed = true;
    await this.flush();
    const handle = this.handle;
    this.handle = undefined;
    if (handle) await (await handle.catch(() => undefined))?.close().catch(() => undefined);
    if (remove) await rm(this.path, { force: true }).catch(() => undefined);
  }

  private add(field: Field, text: string | undefined): void {
    if (!text) return;
    this.lines.push(JSON.stringify({ t: this.turn.id, f: field, at: this.offsets[field], d: this.redact(text) }));
    this.offsets[field] += text.length;
    this.schedule(this.flushMs);
  }

  private schedule(delay: number): void {
    this.timer ??= setTimeout(() => void this.flush(), delay);
  }
}

/** A journal as read back: the writer's pid, the turn it started, the batches that parse. */
export interface JournalContents {
  readonly pid: number | undefined;
  readonly turn: AssistantTurn | undefined;
  readonly batches: readonly {
    readonly turnId: string;
    readonly field: Field;
    readonly at: number;
    readonly text: string;
  }[];
}

/** Reads a journal; lines that do not parse (a torn last line, damage) are skipped. Undefined when missing. */
export async function readJournal(path: string): Promise<JournalContents | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  let pid: number | undefined;
  let turn: AssistantTurn | undefined;
  const batches: JournalContents['batches'][number][] = [];
  for (const line of text.split('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(value)) continue;
    if (value['v'] === JOURNAL_VERSION) {
      pid = typeof value['pid'] === 'number' ? value['pid'] : undefined;
      turn = assistantTurnOf(value['turn']);
      continue;
    }
    const { t, f, at, d } = value;
    if (
      typeof t !== 'string' ||
      (f !== 'c' && f !== 'r') ||
      typeof at !== 'number' ||
      !Number.isSafeInteger(at) ||
      at < 0 ||
      typeof d !== 'string'
    )
      continue;
    batches.push({ turnId: t, field: f, at, text: d });
  }
  return { pid, turn, batches };
}

/**
 * Puts a journal's text into the conversation (mutating it); true when something changed.
 * `interrupted`: the writer is gone, so the reply is marked stopped with a note.
 */
export function replayJournal(conversation: Conversation, journal: JournalContents, interrupted: boolean): boolean {
  let changed = false;
  const turnOf = (id: string): AssistantTurn | undefined => {
    const found = conversation.turns.find((turn) => turn.id === id);
    return found?.role === 'assistant' ? found : undefined;
  };
  if (journal.turn && !conversation.turns.some((turn) => turn.id === journal.turn?.id)) {
    // The reply started but no full save recorded it: it goes after the turns that came before it.
    const turn: AssistantTurn = { ...journal.turn, status: 'stopped' };
    const index = conversation.turns.findIndex((other) => other.createdAt > turn.createdAt);
    conversation.turns.splice(index < 0 ? conversation.turns.length : index, 0, turn);
    changed = true;
  }
  for (const batch of journal.batches) {
    const turn = turnOf(batch.turnId);
    if (!turn) continue;
    const key = batch.field === 'c' ? 'content' : 'reasoning';
    const have = turn[key].length;
    // Already there (a full save came after this batch), or a gap (a lost line): never doubled, never misplaced.
    if (batch.at + batch.text.length <= have || batch.at > have) continue;
    turn[key] += batch.text.slice(have - batch.at);
    changed = true;
  }
  if (interrupted) {
    const turn = journal.turn ? turnOf(journal.turn.id) : undefined;
    if (turn && turn.status !== 'done' && turn.status !== 'error' && !turn.error) {
      turn.status = 'stopped';
      turn.error ??= { kind: 'interrupted', message: INTERRUPTED_NOTE, actions: ['retry'] };
      changed = true;
    }
  }
  return changed;
}

/** The header's turn, checked loosely (it came from our own writer, but the file is on disk). */
function assistantTurnOf(value: unknown): AssistantTurn | undefined {
  if (
    !isRecord(value) ||
    value['role'] !== 'assistant' ||
    typeof value['id'] !== 'string' ||
    typeof value['model'] !== 'string' ||
    typeof value['createdAt'] !== 'number'
  )
    return undefined;
  return {
    role: 'assistant',
    id: value['id'],
    model: value['model'],
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: value['createdAt'],
  };
}

/** Whether the process that wrote a journal still runs (then its journal is live, not a crash's). */
export function writerIsAlive(pid: number | undefined): boolean {
  return pid !== undefined && processIsAlive(pid);
}
