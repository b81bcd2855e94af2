// One-call save and load of an index folder, for tests that keep no IndexStorage. A save through
// here always writes a whole new generation; see src/core/search/indexStorage.ts.
import { IndexStorage, type SaveResult } from '../../../src/core/search/indexStorage';
import type { SemanticIndex } from '../../../src/core/search/semanticIndex';

export async function saveIndex(dir: string, index: SemanticIndex): Promise<SaveResult> {
  return new IndexStorage(dir).save(index, { full: true });
}

/** The saved index, or undefined when there is none or it cannot be read (the caller rebuilds it). */
export async function loadIndex(dir: string): Promise<SemanticIndex | undefined> {
  return (await new IndexStorage(dir).load()).index;
}
