// `index.v1.json`: a cache of the history's list rows, so `list('')` stays fast with 200
// conversations of 500 messages (~100 MB of JSON). It holds only the summaries plus each file's
// mtime and size (a few KB, cheap to rewrite on every save); the files always win (the store
// reconciles the index with the folder). Search text is NOT in it: at that size every save would
// rewrite ~100 MB (see conversationSearch.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably, type FileStamp } from '../../storage/durableFile';
import type { Conversation, ConversationCost, ConversationSummary } from '../../../shared/chatModel';
import { conversationCost } from '../spend/conversationCost';
import { isRecord } from '../../parse/json';
import { errorMessage } from '../../../shared/errorMessage';
import { codeOf, isValidId } from './conversationFiles';

/** Its stem has a dot, so it can never collide with a conversation id. */
export const INDEX_FILE = 'index.v1.json';
const INDEX_VERSION = 1;

export interface IndexEntry extends ConversationSummary, FileStamp {}

/** The index as last read, or empty (missing, unreadable or corrupt: the store rebuilds it from the files). */
export async function readIndex(
  directory: string,
  onProblem: (message: string) => void,
): Promise<Map<string, IndexEntry>> {
  const entries = new Map<string, IndexEntry>();
  let text: string;
  try {
    text = await readFile(join(directory, INDEX_FILE), 'utf8');
  } catch (error) {
    if (codeOf(error) !== 'ENOENT')
      onProblem(`Conversation index unreadable (${errorMessage(error)}); rebuilding it from the files.`);
    return entries;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isRecord(parsed) || parsed['version'] !== INDEX_VERSION || !Array.isArray(parsed['conversations']))
      throw new Error('unknown format');
    for (const item of parsed['conversations'] as unknown[]) {
      const entry = indexEntryOf(item);
      if (entry) entries.set(entry.id, entry);
    }
  } catch (error) {
    onProblem(`Conversation index is corrupt (${errorMessage(error)}); rebuilding it from the files.`);
    entries.clear();
  }
  return entries;
}

/** Writes the index durably; returns nothing, since no one compares the index's stamp. */
export async function writeIndex(directory: string, entries: ReadonlyMap<string, IndexEntry>): Promise<void> {
  await writeFileDurably(
    join(directory, INDEX_FILE),
    JSON.stringify({ version: INDEX_VERSION, conversations: [...entries.values()] }),
  );
}

export function entryOf(conversation: Conversation, stamp: FileStamp): IndexEntry {
  return { ...summaryFrom(conversation), ...stamp };
}

function summaryFrom(conversation: Conversation): ConversationSummary {
  const { id, title, model, updatedAt } = conversation;
  const cost = conversationCost(conversation.turns);
  return { id, title, model, updatedAt, turnCount: conversation.turns.length, ...(cost ? { cost } : {}) };
}

/** The list row of an entry (without the stamp the index keeps). */
export function summaryOf(entry: IndexEntry): ConversationSummary {
  const { id, title, model, updatedAt, turnCount, cost } = entry;
  return { id, title, model, updatedAt, turnCount, ...(cost ? { cost } : {}) };
}

/** A stored total, or undefined when absent (an index written before totals) or malformed (dropped, not fatal). */
function costOf(value: unknown): ConversationCost | undefined {
  if (!isRecord(value)) return undefined;
  const { credits, approximate, unknownReplies } = value;
  if (typeof credits !== 'number' || !Number.isFinite(credits) || credits < 0) return undefined;
  if (typeof approximate !== 'boolean') return undefined;
  if (typeof unknownReplies !== 'number' || !Number.isInteger(unknownReplies) || unknownReplies < 0) return undefined;
  return { credits, approximate, unknownReplies };
}

function indexEntryOf(value: unknown): IndexEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { id, title, model, updatedAt, turnCount, mtimeMs, size } = value;
  const cost = costOf(value['cost']);
  if (!isValidId(id) || typeof title !== 'string' || typeof model !== 'string') return undefined;
  if (![updatedAt, turnCount, mtimeMs, size].every((n) => typeof n === 'number' && Number.isFinite(n)))
    return undefined;
  return {
    id,
    title,
    model,
    updatedAt: updatedAt as number,
    turnCount: turnCount as number,
    mtimeMs: mtimeMs as number,
    size: size as number,
    ...(cost ? { cost } : {}),
  };
}
