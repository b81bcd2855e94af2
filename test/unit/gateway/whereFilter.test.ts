import * as assert from 'node:assert/strict';
import { matchesWhere, parseWhere } from '../../gateway/whereFilter';

const docs = [
  {
    id: 'a',
    status: 'queued',
    topic: 'Solar panels in Norway',
    createdAt: '2026-01-01T10:00:00.000Z',
    metadata: { research: { status: 'queued' } },
    tags: ['energy'],
  },
  {
    id: 'b',
    status: 'running',
    topic: 'Wind farms',
    createdAt: '2026-01-02T10:00:00.000Z',
    metadata: { research: { status: 'running' } },
  },
  {
    id: 'c',
    status: 'succeeded',
    topic: 'Solar storage costs',
    createdAt: '2026-01-03T10:00:00.000Z',
    metadata: { research: { status: 'succeeded' } },
    report: '# Done',
  },
];

function ids(where: unknown): string[] {
  return docs.filter((d) => matchesWhere(d, where)).map((d) => d.id);
}

describe('where filter (Payload-style)', () => {
  it('supports every operator', () => {
    assert.deepEqual(ids({ status: { equals: 'running' } }), ['b']);
    assert.deepEqual(ids({ status: { not_equals: 'running' } }), ['a', 'c']);
    assert.deepEqual(ids({ topic: { contains: 'SOLAR' } }), ['a', 'c'], 'contains is case-insensitive');
    assert.deepEqual(ids({ tags: { contains: 'energy' } }), ['a'], 'contains on arrays');
    assert.deepEqual(ids({ report: { exists: true } }), ['c']);
    assert.deepEqual(ids({ report: { exists: false } }), ['a', 'b']);
    assert.deepEqual(
      ids({ createdAt: { greater_than: '2026-01-01T12:00:00Z' } }),
      ['b', 'c'],
      'ISO dates compare as instants',
    );
    assert.deepEqual(ids({ createdAt: { less_than: '2026-01-02T10:00:00.000Z' } }), ['a']);
    assert.deepEqual(ids({ createdAt: { greater_than_equal: '2026-01-02T10:00:00.000Z' } }), ['b', 'c']);
    assert.deepEqual(ids({ status: { in: ['queued', 'running'] } }), ['a', 'b']);
    assert.deepEqual(ids({ status: { in: 'queued,succeeded' } }), ['a', 'c'], 'comma-separated in');
    assert.deepEqual(ids({ status: { not_in: ['queued', 'running'] } }), ['c']);
    assert.deepEqual(ids({ topic: { like: 'storage solar' } }), ['c']);
  });

  it('combines with and / or, several fields at once, and nested paths', () => {
    assert.deepEqual(ids({ or: [{ status: { equals: 'queued' } }, { status: { equals: 'succeeded' } }] }), ['a', 'c']);
    assert.deepEqual(ids({ and: [{ topic: { contains: 'solar' } }, { status: { not_equals: 'queued' } }] }), ['c']);
    assert.deepEqual(
      ids({ topic: { contains: 'solar' }, status: { equals: 'queued' } }),
      ['a'],
      'fields in one object are ANDed',
    );
    assert.deepEqual(ids({ 'metadata.research.status': { equals: 'running' } }), ['b']);
    assert.deepEqual(
      ids({ or: [{ and: [{ topic: { contains: 'wind' } }] }, { 'metadata.research.status': { in: ['queued'] } }] }),
      ['a', 'b'],
    );
  });

  it('rejects unknown operators and malformed clauses with a 400 naming where', () => {
    for (const text of [
      '{"status":{"like_maybe":"x"}}',
      '{"or":{"status":{"equals":"x"}}}',
      '{"status":"running"}',
      'not json',
      '[1]',
    ]) {
      assert.throws(
        () => parseWhere(text),
        (error: { status?: number; param?: string }) => error.status === 400 && error.param === 'where',
        text,
      );
    }
    assert.equal(parseWhere(null), undefined);
  });
});
