// Waiting for the semantic index's file watcher (state, not time): the search suites and the chat's
// codebase tools both need an edit's watcher update to have happened before they go on.
import type { IndexRun } from '../../src/extension/search/searchIndexService';
import type { TestApi } from '../../src/extension/testApi';

/** The next watcher update that `accept`s, subscribed before the edit that causes it (state, not time). */
export function watcherRun(api: TestApi, accept: (run: IndexRun) => boolean, what: string): Promise<IndexRun> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (subscription.dispose(), reject(new Error(`No watcher update of the index: ${what}`))),
      20_000,
    );
    const subscription = api.searchIndex.onDidUpdate((run) => {
      if (run.trigger !== 'watcher' || !accept(run)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(run);
    });
  });
}
