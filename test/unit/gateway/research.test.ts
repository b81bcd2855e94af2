import * as assert from 'node:assert/strict';
import { RESEARCH_FAILURE_WORD } from '../../gateway/index';
import { get, json, post, useGateway, type Json } from './helpers';

function list(
  gw: Parameters<typeof get>[0],
  query: Record<string, string | number>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return get(gw, `/research?${params}`, headers);
}

describe('local gateway: research job lifecycle', () => {
  // The gateway's clock, moved by the tests: a job walks through its statuses without waiting.
  const clock = { ms: Date.parse('2026-03-01T09:00:00.000Z') };
  const gw = useGateway({ research: { queuedMs: 1500, runningMs: 2500, now: () => clock.ms } });
  const read = async (id: string): Promise<Json> => json(await get(gw(), `/research/${id}`));

  it('goes queued -> running -> succeeded, then carries a markdown report with sources', async () => {
    const created = await post(gw(), '/research', { topic: 'Heat pumps in cold climates' });
    assert.equal(created.status, 200);
    const job = await json(created);
    const id = job.id as string;
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(job.status, 'queued');
    const seen: string[] = [];
    for (const step of [0, 1499, 1, 2499, 1]) {
      clock.ms += step;
      seen.push((await read(id)).status as string);
    }
    assert.deepEqual(
      seen,
      ['queued', 'queued', 'running', 'running', 'succeeded'],
      'queued for queuedMs, then running for runningMs',
    );
    const done = await read(id);
    assert.match(done.report as string, /^# Heat pumps/);
    assert.match(done.report as string, /simulation/);
    const sources = done.sources as Json[];
    assert.ok(sources.length >= 2 && sources.every((s) => typeof s.url === 'string' && typeof s.title === 'string'));
    assert.match(done.createdAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(done.updatedAt as string) > Date.parse(done.createdAt as string));
    assert.equal(done.metadata.research.status, 'succeeded');
  });

  it(`fails a job whose topic contains '${RESEARCH_FAILURE_WORD}', with a reason`, async () => {
    const job = await json(await post(gw(), '/research', { topic: `Please ${RESEARCH_FAILURE_WORD} now` }));
    clock.ms += 1500;
    assert.equal((await read(job.id as string)).status, 'running');
    clock.ms += 2500;
    const doc = await read(job.id as string);
    assert.equal(doc.status, 'failed');
    assert.match(doc.error as string, /simulate-failure/);
    assert.equal(doc.report, undefined);
  });

  it('rejects a missing topic and answers 404 for an unknown id', async () => {
    const missing = await post(gw(), '/research', {});
    assert.equal(missing.status, 400);
    assert.equal((await json(missing)).error.param, 'topic');
    assert.equal((await get(gw(), '/research/00000000-0000-4000-8000-000000000000')).status, 404);
  });

  it('can make the job detail unavailable (404) while the list still gives the status', async () => {
    const job = await json(await post(gw(), '/research', { topic: 'Detail unavailable' }));
    gw().setResearchDetailAvailable(false);
    try {
      const detail = await get(gw(), `/research/${job.id as string}`);
      assert.equal(detail.status, 404);
      assert.equal((await json(detail)).error.code, 'research_detail_unavailable');
      const listed = await json(await list(gw(), { where: JSON.stringify({ id: { equals: job.id } }) }));
      assert.deepEqual(
        (listed.docs as Json[]).map((d) => [d.id, d.status]),
        [[job.id, 'queued']],
      );
    } finally {
      gw().setResearchDetailAvailable(true);
    }
    assert.equal((await get(gw(), `/research/${job.id as string}`)).status, 200);
  });
});

describe('local gateway: research listing', () => {
  // Zero timings: jobs finish at once, so statuses are succeeded or failed and filters have something to tell apart.
  const gw = useGateway({
    research: { queuedMs: 0, runningMs: 0 },
    keys: { lister: { credits: 100 }, other: { credits: 100 } },
  });
  const as = { authorization: 'Bearer lister' };
  const ids: string[] = [];

  before(async () => {
    for (let i = 1; i <= 25; i++) {
      const topic = `Topic ${String(i).padStart(2, '0')} ${i % 5 === 0 ? RESEARCH_FAILURE_WORD : 'ok'}`;
      ids.push((await json(await post(gw(), '/research', { topic }, as))).id as string);
    }
  });

  it('pages with limit (default 20), page, totalDocs, totalPages, hasNextPage, nextPage', async () => {
    const first = await json(await list(gw(), {}, as));
    assert.equal(first.docs.length, 20);
    assert.equal(first.totalDocs, 25);
    assert.equal(first.totalPages, 2);
    assert.equal(first.hasNextPage, true);
    assert.equal(first.nextPage, 2);
    assert.equal(first.page, 1);
    const second = await json(await list(gw(), { page: 2 }, as));
    assert.equal(second.docs.length, 5);
    assert.equal(second.hasNextPage, false);
    assert.equal(second.nextPage, null);
    const all = [...(first.docs as Json[]), ...(second.docs as Json[])].map((d) => d.id as string);
    assert.deepEqual(new Set(all), new Set(ids), 'the two pages cover every job exactly once');
    assert.equal((first.docs[0] as Json).report, undefined, 'summaries only');
  });

  it('sorts by -createdAt by default, and by title both ways', async () => {
    const byDefault = (await json(await list(gw(), { limit: 100 }, as))).docs as Json[];
    assert.equal(byDefault[0]?.id, ids[ids.length - 1], 'newest first');
    const asc = ((await json(await list(gw(), { limit: 3, sort: 'title' }, as))).docs as Json[]).map(
      (d) => d.title as string,
    );
    assert.deepEqual(
      asc.map((t) => t.slice(0, 8)),
      ['Topic 01', 'Topic 02', 'Topic 03'],
    );
    const desc = ((await json(await list(gw(), { limit: 1, sort: '-title' }, as))).docs as Json[]).map(
      (d) => d.title as string,
    );
    assert.match(desc[0] ?? '', /^Topic 25/);
  });

  it('filters with where: equals, nested path, or, and, in, contains, createdAt greater_than', async () => {
    const count = async (where: unknown): Promise<number> =>
      (await json(await list(gw(), { where: JSON.stringify(where), limit: 100 }, as))).totalDocs as number;
    assert.equal(await count({ status: { equals: 'failed' } }), 5);
    assert.equal(await count({ 'metadata.research.status': { equals: 'succeeded' } }), 20);
    assert.equal(await count({ or: [{ topic: { contains: 'Topic 01' } }, { topic: { contains: 'Topic 02' } }] }), 2);
    assert.equal(await count({ and: [{ status: { equals: 'failed' } }, { topic: { contains: 'Topic 1' } }] }), 2);
    assert.equal(await count({ status: { in: ['failed', 'running'] } }), 5);
    assert.equal(await count({ status: { not_in: ['failed'] } }), 20);
    const mid = ((await json(await list(gw(), { sort: 'createdAt', limit: 10 }, as))).docs as Json[])[9]
      ?.createdAt as string;
    assert.equal(await count({ createdAt: { greater_than: mid } }), 15);
    assert.equal(await count({ report: { exists: true } }), 20);
  });

  it('keeps jobs per key', async () => {
    const other = await json(await list(gw(), {}, { authorization: 'Bearer other' }));
    assert.equal(other.totalDocs, 0);
    assert.equal((await get(gw(), `/research/${ids[0] ?? ''}`, { authorization: 'Bearer other' })).status, 404);
  });

  it('rejects limit outside 1..100, a bad sort and bad where with 400 naming the parameter', async () => {
    for (const [query, param] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ page: 0 }, 'page'],
      [{ sort: 'size' }, 'sort'],
      [{ where: '{oops' }, 'where'],
      [{ where: '{"status":{"near":"x"}}' }, 'where'],
    ] as const) {
      const res = await list(gw(), query, as);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal((await json(res)).error.param, param);
    }
  });
});
