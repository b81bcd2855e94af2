import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { GatewayClient } from '../../src/core/transport/client';
import type { ResearchJob } from '../../src/core/types/account';
import type { TestApi } from '../../src/extension/testApi';
import { RESEARCH_FAILURE_WORD, startGateway, type LocalGateway } from '../gateway/index';
import { reportUri } from '../../src/extension/research/reportDocuments';
import {
  activateExtension,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';

/** Runs "Start Deep Research" with the input box answering `topic`. */
async function startThroughCommand(topic: string): Promise<ResearchJob> {
  const restore = replace(vscode.window, 'showInputBox', async () => topic);
  try {
    const job = await vscode.commands.executeCommand<ResearchJob | undefined>('unifiedInference.research.start');
    assert.ok(job, 'a job was started');
    return job;
  } finally {
    restore();
  }
}

/** The first job's phases: it moves through them as the test moves the gateway's clock. */
const FIRST_JOB = { queuedMs: 3_500, runningMs: 6_000 };

/** Jobs done (2 s) before the extension's second poll, 3 s after the one their start sends. */
const FAST_JOBS = { queuedMs: 500, runningMs: 1500 };

describe('research jobs against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  /** Started alongside the first job (to save a job's duration), checked by the failure test. */
  let failing: ResearchJob;
  /** Every notification of the suite (jobs finish while other tests run). */
  let notes: ReturnType<typeof recordNotifications>;
  const statusOf = (id: string): string | undefined => api.research.find(id)?.status;
  /** How far the gateway's research clock is ahead of the real one. */
  let clockAhead = 0;

  before(async () => {
    api = await activateExtension();
    // Each phase long enough that a poll every few seconds sees it (the first test moves the clock through them).
    gateway = await startGateway({ research: { ...FIRST_JOB, now: () => Date.now() + clockAhead } });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.baseUrl === gateway.url && setup.hasKey,
      'the connection',
    );
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
    // The Research view shows it, selected.
    await waitFor(
      () => api.researchView.view.selection.map((node) => (node.kind === 'job' ? node.job.id : '')),
      (ids) => ids.includes(job.id),
      'the new job selected in the view',
    );
    assert.equal(api.researchView.view.visible, true);
    failing = await startThroughCommand(`A topic that should ${RESEARCH_FAILURE_WORD}`);
    const seen = new Set<string>();
    const listener = api.research.onDidChange(() => seen.add(statusOf(job.id) ?? ''));
    try {
      // The gateway's clock moves instead of the test waiting the job out: to its start once the
      // view showed it queued, to its end once a poll showed it running.
      clockAhead += FIRST_JOB.queuedMs;
      await waitFor(
        () => statusOf(job.id),
        (status) => status === 'running',
        'the job to run',
        60_000,
      );
      clockAhead += FIRST_JOB.runningMs;
      await waitFor(
        () => statusOf(job.id),
        (status) => status === 'succeeded',
        'the job to succeed',
        60_000,
      );
    } finally {
      listener.dispose();
    }
    assert.ok(seen.has('running'), `the tree showed it running (saw ${[...seen].join(', ')})`);
    await waitFor(
      () => notes.shown,
      (shown) =>
        shown.some(
          (n) =>
            n.kind === 'info' && n.message === 'Research finished: How do vector databases compare for code search?',
        ),
      'the notification',
    );
    // The polling was one list request per tick, plus one read of the job when it finished.
    const perJob = gateway.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/research/${job.id}`);
    assert.equal(perJob.length, 1, 'the finished job was read once');
  });

  it('marks the finished job "New report" in the Research view, counted in its badge, until a click on it opens the report', async () => {
    const job = api.research.jobs.find((j) => j.status === 'succeeded');
    assert.ok(job);
    const node = api.researchView.getChildren().find((n) => n.kind === 'job' && n.job.id === job.id);
    assert.ok(node);
    const item = api.researchView.getTreeItem(node);
    assert.equal(item.label, `New report · ${job.topic}`, 'the status first: a narrow side bar cuts the end');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass-filled');
    assert.match(item.accessibilityInformation?.label ?? '', /^New report: How do vector databases compare/);
    assert.deepEqual(api.researchView.view.badge, { value: 1, tooltip: '1 research report ready to read' });
    // One click: the row's own command opens the report.
    assert.ok(item.command);
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    await waitFor(
      () => vscode.workspace.textDocuments.some((d) => d.uri.toString() === reportUri(job).toString()),
      (open) => open,
      'the report document',
    );
    assert.equal(api.researchView.view.badge, undefined, 'read: no badge');
    const read = api.researchView.getTreeItem(node);
    assert.equal(read.label, `Report ready · ${job.topic}`);
    assert.equal((read.iconPath as vscode.ThemeIcon).id, 'pass');
  });

  it('opens the report with its text and numbered sources', async () => {
    const job = api.research.jobs.find((j) => j.status === 'succeeded');
    assert.ok(job);
    await vscode.commands.executeCommand('unifiedInference.research.openReport', { kind: 'job', job });
    await waitFor(
      () => vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'unified-inference-research'),
      (open) => open,
      'the report document',
    );
    const text = await api.reports.text(job);
    assert.match(text, /^# /);
    assert.match(text, /\| Status \| succeeded \|/);
    assert.match(text, /## Report\n\n\S/);
    assert.match(text, /## Sources\n\n1\. \[/);
    // The title once: the job's topic is its title, so no topic row, and the report's own title heading goes.
    assert.ok(job.topic);
    assert.deepEqual(
      text.split('\n').filter((line) => /^(#|\|)/.test(line) && line.includes(job.topic ?? '')),
      [`# ${job.topic}`],
      text,
    );
  });

  it('previews a report without loading its images or HTML (a tracker never learns it was read); Copy keeps the text as written', async () => {
    // Only the first test must see a job running between two polls (3 s apart): jobs from here on
    // finish before the poll after the one that follows their start, so each waits ~3 s, not ~12 s.
    gateway.setResearchTimings(FAST_JOBS);
    const topic = 'Trackers ![pixel](https://tracker.example/p.png) and <img src="https://tracker.example/i.png">';
    const job = await startThroughCommand(topic);
    await waitFor(
      () => statusOf(job.id),
      (status) => status === 'succeeded',
      'the job to succeed',
      60_000,
    );
    await vscode.commands.executeCommand('unifiedInference.research.openReport', {
      kind: 'job',
      job: api.research.find(job.id),
    });
    const shown = (await vscode.workspace.openTextDocument(reportUri(job))).getText();
    assert.ok(shown.includes('tracker.example/p.png'), 'the report with the topic is shown');
    assert.doesNotMatch(shown, /!\[|<img/, 'no image or HTML syntax is left in what the preview renders');
    assert.equal(shown.replace(/\u200B/g, ''), await api.reports.text(job), 'the same text otherwise');
    assert.match(
      await api.reports.text(job),
      /!\[pixel\]\(https:\/\/tracker\.example\/p\.png\)/,
      'Copy and Save As keep the report as written',
    );
  });

  it('announces a failed job with the reason the gateway gives', async () => {
    await waitFor(
      () => statusOf(failing.id),
      (status) => status === 'failed',
      'the job to fail',
      60_000,
    );
    const shown = await waitFor(
      () => notes.shown,
      (all) => all.some((n) => n.kind === 'error' && n.message.startsWith('Research failed:')),
      'the failure notice',
    );
    assert.match(
      shown.find((n) => n.kind === 'error' && n.message.startsWith('Research failed:'))!.message,
      /failed this job on purpose/,
    );
  });

  it('announces jobs whose detail is unavailable (404), with the status and reason the list gives', async () => {
    gateway.setResearchDetailAvailable(false);
    try {
      const finished = new Map<string, string>();
      const listener = api.research.onDidFinish(({ job, phase }) => finished.set(job.id, phase));
      try {
        const ok = await startThroughCommand('Detail unavailable: does the list tell?');
        const bad = await startThroughCommand(`Detail unavailable and ${RESEARCH_FAILURE_WORD}`);
        await waitFor(
          () => finished.size,
          (n) => n === 2,
          'both jobs to be announced as finished',
          60_000,
        );
        assert.equal(finished.get(ok.id), 'succeeded');
        assert.equal(finished.get(bad.id), 'failed');
        assert.equal(statusOf(ok.id), 'succeeded', 'the view shows the final status');
        assert.equal(statusOf(bad.id), 'failed');
        assert.ok(
          notes.shown.some(
            (n) => n.kind === 'info' && n.message === 'Research finished: Detail unavailable: does the list tell?',
          ),
        );
        const failure = notes.shown.find(
          (n) =>
            n.kind === 'error' &&
            n.message.startsWith(`Research failed: Detail unavailable and ${RESEARCH_FAILURE_WORD}`),
        );
        assert.match(failure?.message ?? '', /failed this job on purpose/, 'the reason from the list');
        // The detail was asked for and refused; the list, read by id, gave the outcome.
        assert.ok(gateway.requests.some((r) => r.path === `/api/v1/research/${ok.id}` && r.status === 404));
        assert.ok(
          gateway.requests.some(
            (r) =>
              r.path === '/api/v1/research' &&
              String(r.query.where ?? '').includes('"id"') &&
              String(r.query.where).includes(ok.id),
          ),
        );
      } finally {
        listener.dispose();
      }
    } finally {
      gateway.setResearchDetailAvailable(true);
    }
  });

  it('re-reads an open report when its job finishes, and on "Refresh Report"', async () => {
    // In progress for 5 s: the report must be opened (and read) before the job ends, on a busy machine too.
    gateway.setResearchTimings({ queuedMs: 500, runningMs: 4_500 });
    const job = await api.research
      .start('A report that is open while the job runs')
      .finally(() => gateway.setResearchTimings(FAST_JOBS));
    await api.reports.open(job);
    const uri = reportUri(job).toString();
    const report = (): string | undefined =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText();
    assert.match(
      (await waitFor(report, (text) => text !== undefined, 'the report document')) ?? '',
      /still in progress\. .*use Refresh Report/,
    );
    // The markdown preview of the report is what is active: its title bar offers Refresh Report.
    await waitFor(
      () => api.reports.activeReportUri?.toString(),
      (active) => active === uri,
      'the report preview to be the active report',
    );
    await waitFor(
      report,
      (text) => /\| Status \| succeeded \|/.test(text ?? '') && /## Report\n\n\S/.test(text ?? ''),
      'the report re-read when the job finished',
      60_000,
    );
    assert.match(report() ?? '', /## Sources\n\n1\. \[/);
    // Refresh Report reads it again (here the detail has gone away meanwhile: the document says so).
    gateway.setResearchDetailAvailable(false);
    try {
      await vscode.commands.executeCommand('unifiedInference.research.refreshReport', vscode.Uri.parse(uri));
      await waitFor(report, (text) => /could not be read/.test(text ?? ''), 'the refreshed report');
    } finally {
      gateway.setResearchDetailAvailable(true);
    }
    // From the palette (no argument): the active report.
    await vscode.commands.executeCommand('unifiedInference.research.refreshReport');
    await waitFor(
      report,
      (text) => /## Report\n\n\S/.test(text ?? '') && !/could not be read/.test(text ?? ''),
      'the report read again',
    );
  });

  it("filters by status and topic text, and sorts, through the spec's where/sort", async () => {
    await api.research.setQuery({ status: 'failed', text: '', sort: 'newest' });
    assert.ok(api.research.jobs.length >= 1 && api.research.jobs.every((j) => j.status === 'failed'));
    await api.research.setQuery({ status: 'all', text: 'vector databases', sort: 'newest' });
    assert.ok(api.research.jobs.length >= 1 && api.research.jobs.every((j) => /vector databases/i.test(j.topic ?? '')));
    await api.research.setQuery({ status: 'all', text: '', sort: 'title' });
    const titles = api.research.jobs.map((j) => j.title ?? '');
    assert.deepEqual(
      titles,
      [...titles].sort((a, b) => a.localeCompare(b)),
      'sorted by title',
    );
    const lastList = gateway.requests.filter((r) => r.path === '/api/v1/research' && r.method === 'GET').at(-1);
    assert.equal(lastList?.query.sort, 'title');
    await api.research.setQuery({ status: 'all', text: '', sort: 'newest' });
  });

  it('pages past 20 jobs with "Load more"', async () => {
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    for (let i = 0; i < 22; i++) await client.research.create(`Paging topic ${String(i).padStart(2, '0')}`);
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(
      () => api.research.jobs.length,
      (n) => n === 20,
      'the first page',
    );
    assert.equal(api.research.hasMore, true);
    assert.ok(api.research.totalDocs >= 24);
    await vscode.commands.executeCommand('unifiedInference.research.loadMore');
    assert.equal(api.research.jobs.length, api.research.totalDocs, 'the rest is loaded');
    assert.equal(new Set(api.research.jobs.map((j) => j.id)).size, api.research.jobs.length, 'no job twice');
  });

  it('never shows a job twice when the pages shift between "Load more"s', async () => {
    // Nothing in progress (the paging jobs are done), so no poll reloads the list meanwhile.
    await waitFor(
      () => api.research.jobs.every((j) => !['queued', 'running'].includes(j.status)),
      (done) => done,
      'the paging jobs to finish',
      30_000,
    );
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(
      () => api.research.pollState,
      (state) => state === 'stopped',
      'polling to stop',
    );
    assert.equal(api.research.jobs.length, 20);
    const lastOfFirstPage = api.research.jobs[19]!.id;
    // A job created elsewhere pushes the last job of page 1 onto page 2.
    const elsewhere = await new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }).research.create(
      'Created between two pages',
    );
    await api.research.loadMore();
    const ids = api.research.jobs.map((j) => j.id);
    assert.equal(new Set(ids).size, ids.length, 'no job twice');
    assert.equal(ids.filter((id) => id === lastOfFirstPage).length, 1);
    assert.ok(ids.length > 20, 'the second page was added');
    // Starting a job reads page 1 again (and the poll finds the job created elsewhere): the
    // pages loaded with "Load more" stay, still without repeats.
    const started = await api.research.start('Started after Load more');
    await waitFor(
      () => [api.research.find(elsewhere.id), api.research.loading] as const,
      ([found, loading]) => found !== undefined && !loading,
      'page 1 read again',
    );
    const after = api.research.jobs.map((j) => j.id);
    assert.ok(after.includes(started.id) && after.includes(elsewhere.id));
    assert.ok(after.length >= ids.length + 2, `the loaded pages stay (${after.length} shown, ${ids.length} before)`);
    assert.equal(new Set(after).size, after.length, 'no job twice after the reload');
  });

  it('does not reset the list or polling for settings that are not about the connection', async () => {
    const shown = api.research.jobs.map((j) => j.id);
    let changes = 0;
    const listener = api.connection.onDidChange(() => changes++);
    const pageLoads = (): number =>
      gateway.requests.filter((r) => r.path === '/api/v1/research' && r.method === 'GET' && r.query.page !== undefined)
        .length;
    const loadsBefore = pageLoads();
    try {
      await setSetting('credits.warningThreshold', 7);
      await setSetting('defaultModels.chat', 'sim-openai/gpt-sim');
      await setSetting('chat.api', 'chat');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(changes, 0, 'no connection change');
      assert.deepEqual(
        api.research.jobs.map((j) => j.id),
        shown,
        'the loaded pages stay',
      );
      assert.equal(pageLoads(), loadsBefore, 'no page was reloaded');
    } finally {
      listener.dispose();
      await setSetting('credits.warningThreshold', undefined);
      await setSetting('defaultModels.chat', undefined);
      await setSetting('chat.api', undefined);
    }
  });

  it('says out of credits in the status bar when Start Deep Research is refused for lack of credits, in one notification', async () => {
    const saved = gateway.credits(gateway.apiKey);
    await api.credits.refresh(); // a positive reading arms the one-time notice
    gateway.setCredits(gateway.apiKey, 0);
    const restore = replace(vscode.window, 'showInputBox', async () => 'A topic without credits');
    let notices = 0;
    const noticing = api.credits.onDidShowOutOfCreditsNotice(() => notices++);
    try {
      const job = await vscode.commands.executeCommand<ResearchJob | undefined>('unifiedInference.research.start');
      assert.equal(job, undefined);
      const refusal = notes.shown.filter(
        (n) => n.kind === 'error' && /^The research job was not started: Out of credits/.test(n.message),
      );
      assert.equal(refusal.length, 1);
      assert.match(refusal[0]!.message, /resets at/, 'the failure says when credits return');
      await waitFor(
        () => api.credits.state.kind,
        (kind) => kind === 'outOfCredits',
        'the credits state',
      );
      assert.equal(api.creditsItem.presentation?.text, '$(error) Out of credits');
      // The credits monitor decides on its own notice when the failure is reported, before it is shown: shown with its fix, none.
      assert.ok(
        !notes.shown.some((n) => /^Unified Inference: out of credits/.test(n.message)),
        'no second out-of-credits notification',
      );
      assert.equal(
        notices,
        0,
        'the credits monitor decided against its notice (it decides when the failure is reported)',
      );
    } finally {
      noticing.dispose();
      restore();
      gateway.setCredits(gateway.apiKey, saved);
      await api.credits.refresh();
    }
  });

  it('keeps the list, marked stale, while the gateway is unreachable, and recovers', async () => {
    const shownBefore = api.research.jobs.length;
    const port = new URL(gateway.url).port;
    await gateway.stop();
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(
      () => api.research.problem,
      (problem) => problem !== undefined,
      'the stale state',
    );
    assert.equal(api.research.jobs.length, shownBefore, 'nothing lost');
    assert.ok(api.research.lastGoodRefresh !== undefined);
    gateway = await startGateway({ port: Number(port), research: FAST_JOBS });
    await vscode.commands.executeCommand('unifiedInference.research.refresh');
    await waitFor(
      () => api.research.problem,
      (problem) => problem === undefined,
      'the recovery',
    );
  });

  it('reloads the list by itself when the gateway comes back after an outage, with nothing in progress', async () => {
    const port = Number(new URL(gateway.url).port);
    const url = gateway.url;
    let lastChange = Date.now();
    let changes = 0;
    const listener = api.connection.onDidChange(() => {
      lastChange = Date.now();
      changes++;
    });
    try {
      await gateway.stop();
      // As when VS Code starts while the gateway is down: the same gateway under another spelling
      // of its address resets the view, and nothing can be loaded. (VS Code may report the
      // settings change twice: wait until it is quiet, with no page load in flight.)
      await setSetting('baseUrl', `${url}/`);
      await waitFor(
        () => ({
          quiet: Date.now() - lastChange > 3000,
          problem: api.research.problem,
          count: api.research.jobs.length,
          loading: api.research.loading,
        }),
        (view) => view.quiet && view.problem !== undefined && view.count === 0 && !view.loading,
        'an empty, stale view',
        30_000,
      );
      const changesBefore = changes;
      // Back, with a job that is already finished: no in-progress job would make the view reload.
      gateway = await startGateway({ port, research: { queuedMs: 0, runningMs: 0 } });
      const done = await new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }).research.create(
        'Finished while the view was away',
      );
      assert.equal(done.status, 'succeeded');
      await waitFor(
        () => api.research.find(done.id)?.status,
        (status) => status === 'succeeded',
        'the list, without a manual refresh',
        45_000,
      );
      assert.equal(api.research.problem, undefined);
      assert.equal(changes, changesBefore, 'recovered by polling, not by a reset of the connection');
    } finally {
      listener.dispose();
      await setSetting('baseUrl', url);
    }
  });
});
