// One-call save and load of an index folder, for callers that keep no IndexStorage (tests, the
// bench). A save through here always writes a whole new generation; see indexStorage.ts.
import { IndexStorage, type SaveResult } from './indexStorage';
import type { SemanticIndex } from './semanticIndex';

export async function saveIndex(dir: string, index: SemanticIndex): Promise<SaveResult> {
  return new IndexStorage(dir).save(index, { full: true });
}

/** The saved index, or undefined when there is none or it cannot be read (the caller rebuilds it). */
export async function loadIndex(dir: string): Promise<SemanticIndex | undefined> {
  return (await new IndexStorage(dir).load()).index;
}
