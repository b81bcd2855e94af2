import * as assert from 'node:assert/strict';
import { JobList } from '../../src/core/research/jobList';
import type { ResearchJob } from '../../src/core/types/account';

const job = (id: string, status = 'completed', title = id): ResearchJob => ({ id, status, title });

describe('research job list', () => {
  it('pages replace, then grow without repeats; a started job comes first and is followed', () => {
    const list = new JobList();
    list.replacePages([job('a'), job('b'), job('c')], 2);
    assert.equal(list.pageCount, 2);
    list.addPage([job('c', 'completed', 'newer'), job('d')]);
    assert.deepEqual(
      list.jobs.map((j) => j.id),
      ['a', 'b', 'c', 'd'],
    );
    assert.equal(list.find('c')?.title, 'newer');
    list.addStarted(job('n', 'queued'));
    assert.deepEqual(list.jobs.map((j) => j.id).slice(0, 2), ['n', 'a']);
    assert.equal(list.total, 1);
    assert.deepEqual([...list.inProgress.keys()], ['n']);
  });

  it('track follows a job in progress, updates its row, and finds it even when not shown', () => {
    const list = new JobList();
    list.replacePages([job('a', 'queued')], 20);
    list.track(job('a', 'running'));
    list.track(job('hidden', 'running'));
    assert.equal(list.jobs[0]?.status, 'running');
    assert.equal(list.find('hidden')?.status, 'running');
    assert.equal(list.jobs.length, 1);
    list.track(job('a', 'completed'));
    assert.equal(list.jobs[0]?.status, 'completed');
    assert.ok(list.inProgress.has('a'), "finishing is ResearchJobs' decision (it announces)");
    list.clear();
    assert.deepEqual([list.jobs.length, list.total, list.more, list.inProgress.size], [0, 0, false, 0]);
  });
});
