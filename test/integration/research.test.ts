import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { GatewayClient, type ResearchJob } from '../../src/core/index';
import type { TestApi } from '../../src/extension/testApi';
import { RESEARCH_FAILURE_WORD, startGateway, type LocalGateway } from '../gateway/index';
import { activateExtension, clearKeyThroughCommand, recordNotifications, replace, setKeyThroughCommand, setSetting, waitFor } from './extensionHost';

/** Runs "Start Deep Research" with the input box answering `topic`. */
async function startThroughCommand(topic: string): Promise<ResearchJob> {
  const restore = replace(vscode.window, 'showInputBox', (async () => topic) as typeof vscode.window.showInputBox);
  try {
    const job = await vscode.commands.executeCommand<ResearchJob | undefined>('unifiedInference.research.start');
    assert.ok(job, 'a job was started');
    return job;
  } finally {
    restore();
  }
}

describe('research jobs against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  /** Started alongside the first job (to save a job's duration), checked by the failure test. */
  let failing: ResearchJob;
  /** Every notification of the suite (jobs finish while other tests run). */
  let notes: ReturnType<typeof recordNotifications>;
  const statusOf = (id: string): string | undefined => api.research.find(id)?.status;

  before(async () => {
    api = await activateExtension();
    // Long enough that a poll every few seconds sees each status; short enough for a test.
    gateway = await startGateway({ research: { queuedMs: 3_500, runningMs: 6_000 } });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(() => api.connection.setup, (setup) => setup.baseUrl === gateway.url && setup.hasKey, 'the connection');
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('starts a job that shows at once as queued, then follows it to succeeded and announces it', async () => {
    const job = await startThroughCommand('How do vector databases compare for code search?');
    assert.equal(api.research.jobs[0]?.id, job.id, 'the new job is first');
    assert.equal(statusOf(job.id), 'queued');
    failing = await startThroughCommand(`A topic that should ${RESEARCH_FAILURE_WORD}`);
    const seen = new Set<string>();
    const listener = api.research.onDidChange(() => seen.add(statusOf(job.id) ?? ''));
    try {
      await waitFor(() => statusOf(job.id), (status) => status === 'succeeded', 'the job to succeed', 60_000);
    } finally {
      listener.dispose();
    }
    assert.ok(seen.has('running'), `the tree showed it running (saw ${[...seen].join(', ')})`);
    await waitFor(() => notes.shown, (shown) => shown.some((n) => n.kind === 'info' && n.message === 'Research finished: How do vector databases compare for code search?'), 'the notification');
    // The polling was one list request per tick, plus one read of the job when it finished.
    const perJob = gateway.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/research/${job.id}`);
    assert.equal(perJob.length, 1, 'the finished job was read once');
  });

  it('opens the report with its text and numbered sources', async () => {
    const job = api.research.jobs.find((j) => j.status === 'succeeded');
    assert.ok(job);
    await vscode.commands.executeCommand('unifiedInference.research.openReport', { kind: 'job', job });
    await waitFor(() => vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'unified-inference-research'), (open) => open, 'the report document');
    const text = await api.reports.text(job);
    assert.match(text, /^# /);
    assert.match(text, /\| Status \| succeeded \|/);
    assert.match(text, /## Report\n\n\S/);
    assert.match(text, /## Sources\n\n1\. \[/);
  });

  it('announces a failed job with the reason the gateway gives', async () => {
    await waitFor(() => statusOf(failing.id), (status) => status === 'failed', 'the job to fail', 60_000);
    const shown = await waitFor(() => notes.shown, (all) => all.some((n) => n.kind === 'error' && n.message.startsWith('Research failed:')), 'the failure notice');
    assert.match(shown.find((n) => n.kind === 'error' && n.message.startsWith('Research failed:'))!.message, /failed this job on purpose/);
  });

  it('filters by status and topic text, and sorts, through the spec\'s where/sort', async () => {
    await api.research.setQuery({ status: 'failed', text: '', sort: 'newest' });
    assert.ok(api.research.jobs.length >= 1 && api.research.jobs.every((j) => j.status === 'failed'));
    await api.research.setQuery({ status: 'all', text: 'vector databases', sort: 'newest' });
    assert.ok(api.research.jobs.length >= 1 && api.research.jobs.every((j) => /vector databases/i.test(j.topic ?? '')));
    await api.research.setQuery({ status: 'all', text: '', sort: 'title' });
    const titles = api.research.jobs.map((j) => j.title ?? '');
    assert.deepEqual(titles, [...titles].sort((a, b) => a.localeCompare(b)), 'sorted by title');
    const lastList = gateway.requests.filter((r) => r.path === '/api/v1/research' && r.method === 'GET').at(-1);
    assert.equal(lastList?.query.sort, 'title');
    await api.research.setQuery({ status: 'all', text: '', sort: 'newest' });
  });

  it('pages past 20 jobs with "Load more"', async () => {
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    for (let i = 0; i < 22; i++) await client.research.create(`Paging topic ${String(i).padStart(2, '0')}`);
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(() => api.research.jobs.length, (n) => n === 20, 'the first page');
    assert.equal(api.research.hasMore, true);
    assert.ok(api.research.totalDocs >= 24);
    await vscode.commands.executeCommand('unifiedInference.research.loadMore');
    assert.equal(api.research.jobs.length, api.research.totalDocs, 'the rest is loaded');
    assert.equal(new Set(api.research.jobs.map((j) => j.id)).size, api.research.jobs.length, 'no job twice');
  });

  it('keeps the list, marked stale, while the gateway is unreachable, and recovers', async () => {
    const shownBefore = api.research.jobs.length;
    const port = new URL(gateway.url).port;
    await gateway.stop();
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(() => api.research.problem, (problem) => problem !== undefined, 'the stale state');
    assert.equal(api.research.jobs.length, shownBefore, 'nothing lost');
    assert.ok(api.research.lastGoodRefresh !== undefined);
    gateway = await startGateway({ port: Number(port), research: { queuedMs: 3_500, runningMs: 6_000 } });
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(() => api.research.problem, (problem) => problem === undefined, 'the recovery');
  });
});
