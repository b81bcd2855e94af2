import * as assert from 'node:assert/strict';
import type { ResearchJob, ResearchList, ResearchListQuery } from '../../src/core/types/account';
import { readJobPage, readJobWindow, readOutcomes, type ResearchReader } from '../../src/core/research/jobReads';
import { DEFAULT_QUERY } from '../../src/core/research/researchQuery';

const job = (id: string, status = 'completed'): ResearchJob => ({ id, status, topic: id });

/** A list of `jobs` served in pages of the query's limit; `get` answers from `details` or throws. */
function reader(
  jobs: ResearchJob[],
  details: Map<string, ResearchJob> = new Map(),
  listFails = false,
): ResearchReader & { readonly queries: ResearchListQuery[] } {
  const queries: ResearchListQuery[] = [];
  return {
    queries,
    list: async (query?: ResearchListQuery): Promise<ResearchList> => {
      queries.push(query ?? {});
      if (listFails) throw new Error('list down');
      const where = JSON.stringify(query?.where ?? '');
      const matching = where.includes('"in"') ? jobs.filter((j) => where.includes(`"${j.id}"`)) : jobs;
      const limit = query?.limit ?? 20;
      const page = query?.page ?? 1;
      return { docs: matching.slice((page - 1) * limit, page * limit), totalDocs: matching.length };
    },
    get: async (id: string): Promise<ResearchJob> => {
      const found = details.get(id);
      if (!found) throw new Error('404');
      return found;
    },
  };
}

describe('research job reads', () => {
  const jobs = Array.from({ length: 250 }, (_, i) => job(`j${i}`));

  it('a page says whether more follow', async () => {
    const read = await readJobPage(reader(jobs), DEFAULT_QUERY, 13, 20);
    assert.deepEqual([read.docs.length, read.totalDocs, read.more], [10, 250, false]);
    assert.equal((await readJobPage(reader(jobs), DEFAULT_QUERY, 1, 20)).more, true);
  });

  it('a window of 140 jobs takes two requests of the list limit (100)', async () => {
    const fake = reader(jobs);
    const read = await readJobWindow(fake, DEFAULT_QUERY, 140);
    assert.equal(read.docs.length, 140);
    assert.equal(read.more, true);
    assert.deepEqual(
      fake.queries.map((q) => [q.page, q.limit]),
      [
        [1, 100],
        [2, 100],
      ],
    );
  });

  it('outcomes: the detail where it answers, else the list by id; a job the list lacks counts as listed (deleted)', async () => {
    const unreadable: string[] = [];
    const fake = reader([job('b', 'failed')], new Map([['a', job('a')]]));
    const outcome = await readOutcomes(fake, ['a', 'b', 'gone'], new AbortController().signal, (id) =>
      unreadable.push(id),
    );
    assert.deepEqual(unreadable, ['b', 'gone']);
    assert.deepEqual([...outcome.read.keys()].sort(), ['a', 'b']);
    assert.deepEqual([...outcome.listed].sort(), ['b', 'gone']);
    assert.equal(outcome.listFailure, undefined);
  });

  it('outcomes: a failing list read by id is returned, and nothing counts as listed', async () => {
    const outcome = await readOutcomes(
      reader([], new Map(), true),
      ['x'],
      new AbortController().signal,
      () => undefined,
    );
    assert.match(String(outcome.listFailure), /list down/);
    assert.equal(outcome.listed.size, 0);
  });

  it('outcomes: an abort is thrown at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      readOutcomes(reader([]), ['x'], controller.signal, () => assert.fail('not reported')),
      /404/,
    );
  });
});
