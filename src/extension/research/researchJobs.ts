import * as vscode from 'vscode';
import { AuthenticationError } from '../../core/errors';
import { classifyResearchStatus } from '../../core/research/researchHelpers';
import { ResearchPollLoop } from '../../core/research/pollLoop';
import type { ResearchJob } from '../../core/types/account';
import { SetupRequiredError } from '../../core/failures/setupError';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { failureReason, jobTitle } from '../../core/research/jobPresentation';
import {
  DEFAULT_QUERY,
  IN_PROGRESS_LIMIT,
  inProgressQuery,
  type ResearchViewQuery,
} from '../../core/research/researchQuery';
import { JobList } from '../../core/research/jobList';
import { readJobPage, readJobWindow, readOutcomes, REQUEST_TIMEOUT_MS } from '../../core/research/jobReads';
import { errorMessage } from '../../shared/errorMessage';

const PAGE_SIZE = 20;

export type JobOutcome = { readonly job: ResearchJob; readonly phase: 'succeeded' | 'failed' };

/**
 * Every research job of the account as the Research view shows it: pages of `GET /research` with
 * the view's filter and sort, plus the jobs in progress, followed by one list request per tick for
 * all of them (ResearchPollLoop decides when). A job that leaves the in-progress set is read once
 * (`GET /research/{id}`) for its outcome and announced; when that detail is unavailable, the list
 * read by id gives the final status, so every finish is announced.
 */
export class ResearchJobs extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly finished = this._register(new vscode.EventEmitter<JobOutcome>());
  /** A job seen in progress has finished (succeeded or failed). */
  readonly onDidFinish = this.finished.event;
  private readonly resetEmitter = this._register(new vscode.EventEmitter<void>());
  /** The list started over for another gateway or key: the jobs shown so far belonged to the old one. */
  readonly onDidReset = this.resetEmitter.event;

  private readonly list = new JobList();
  private queryValue: ResearchViewQuery = DEFAULT_QUERY;
  private lastGood: number | undefined;
  private problemValue: string | undefined;
  private stoppedBy: string | undefined;
  private viewVisible = true; // the loop's own default, until the view says
  private watchers = 0;
  /** List requests in flight (page loads of any kind). */
  private loadsInFlight = 0;
  private readonly announced = new Set<string>();
  private readonly loop: ResearchPollLoop;
  /** Bumped when the list starts over (refresh, filter, sort, another connection): older answers are dropped. */
  private epoch = 0;
  /** The epoch the pages shown were loaded in. */
  private pagesEpoch = 0;
  /** The newest (re)load from page 1 and the newest "Load more": each kind only supersedes its own kind. */
  private firstPageSequence = 0;
  private morePageSequence = 0;
  /** Bumped when the connection changes: a poll of the old connection that lands later is ignored. */
  private generation = 0;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly log: Log,
  ) {
    super();
    this.loop = new ResearchPollLoop({
      poll: (signal) => this.pollInProgress(signal),
      onError: (error) => {
        // A refused key will not heal by itself: polling resumes when the key changes.
        if (error instanceof AuthenticationError) {
          this.stoppedBy = error.message;
          this.loop.stop();
        }
        this.setProblem(error);
      },
      focused: vscode.window.state.focused,
    });
    this._register({ dispose: () => this.loop.dispose() });
    this._register(connection.onDidChange(() => void this.reset()));
    this._register(vscode.window.onDidChangeWindowState((state) => this.loop.setFocus(state.focused)));
  }

  get jobs(): readonly ResearchJob[] {
    return this.list.jobs;
  }
  get totalDocs(): number {
    return this.list.total;
  }
  get hasMore(): boolean {
    return this.list.more;
  }
  get query(): ResearchViewQuery {
    return this.queryValue;
  }
  /** When the list last came back from the gateway (ms since epoch). */
  get lastGoodRefresh(): number | undefined {
    return this.lastGood;
  }
  /** Why the list may be stale (the last request failed), else undefined. */
  get problem(): string | undefined {
    return this.problemValue;
  }
  get loading(): boolean {
    return this.loadsInFlight > 0;
  }
  get pollState(): string {
    return this.loop.state;
  }

  /** Why polling stopped until the key changes (the gateway refused it), else undefined. */
  get pollingStopped(): string | undefined {
    return this.stoppedBy;
  }

  setViewVisible(visible: boolean): void {
    this.viewVisible = visible;
    this.loop.setViewVisible(visible || this.watchers > 0);
  }

  /**
   * Keeps polling at the pace of a visible view until disposed: someone (an agent's tool) waits for
   * a job, and a window in the background with the view hidden would otherwise pause the polls.
   */
  watch(): vscode.Disposable {
    this.watchers++;
    this.loop.setViewVisible(true);
    let disposed = false;
    return new vscode.Disposable(() => {
      if (disposed) return;
      disposed = true;
      this.watchers--;
      this.loop.setViewVisible(this.viewVisible || this.watchers > 0);
    });
  }

  find(id: string): ResearchJob | undefined {
    return this.list.find(id);
  }

  async setQuery(query: ResearchViewQuery): Promise<void> {
    this.queryValue = query;
    await this.refresh();
  }

  /** Reloads from the first page (the pages loaded so far are replaced when it answers). */
  async refresh(): Promise<void> {
    await this.load('restart');
    // One in-progress read too: it finds running jobs beyond the first page or the filter.
    void this.loop.pollNow();
  }

  async loadMore(): Promise<void> {
    if (this.list.more) await this.load('more');
  }

  /** Starts a job: it shows at once as queued, and polling begins. */
  async start(topic: string): Promise<ResearchJob> {
    const client = this.requireClient();
    const created = await client.research.create(topic, { timeoutMs: REQUEST_TIMEOUT_MS });
    this.connection.reportModelUse();
    const now = new Date().toISOString();
    const job: ResearchJob = {
      id: created.id,
      status: created.status || 'queued',
      topic,
      title: topic,
      createdAt: now,
      updatedAt: now,
    };
    this.list.addStarted(job);
    this.changed.fire();
    this.loop.start([...this.list.inProgress.values()]);
    void this.loop.pollNow();
    void this.load('reload');
    return job;
  }

  private requireClient(): NonNullable<GatewayConnection['setup']['client']> {
    const { client, hasKey } = this.connection.setup;
    if (!client) throw new SetupRequiredError('baseUrl');
    if (!hasKey) throw new SetupRequiredError('apiKey');
    return client;
  }

  private async reset(): Promise<void> {
    this.generation++;
    this.epoch++; // page loads of the old connection still in flight are dropped
    this.list.clear();
    this.lastGood = undefined;
    this.problemValue = undefined;
    this.stoppedBy = undefined;
    // Another gateway or key: what the loop listed belongs to the old one. Restarted empty, it
    // counts as never listed, so a first poll that fails keeps retrying (with backoff) until the
    // gateway answers, as after a reload.
    this.loop.stop();
    this.resetEmitter.fire();
    this.changed.fire();
    const { client, hasKey } = this.connection.setup;
    if (!client || !hasKey) return;
    this.loop.start([]);
    await this.refresh();
  }

  /**
   * `restart`: page 1 replaces everything (refresh, another filter or sort, another connection).
   * `reload`: the pages shown are read again, as many jobs as they hold (a job appeared, finished
   * elsewhere, was deleted, or the gateway is back): a "Load more" the user asked for is kept.
   * `more`: the next page, added without repeating a job already shown.
   */
  private async load(kind: 'restart' | 'reload' | 'more'): Promise<void> {
    const { client, hasKey } = this.connection.setup;
    if (!client || !hasKey) return;
    // "Load more" while the list starts over would add a page of the new list to the old one.
    if (kind === 'more' && this.pagesEpoch !== this.epoch) return;
    const epoch = kind === 'restart' ? ++this.epoch : this.epoch;
    const sequence = kind === 'more' ? ++this.morePageSequence : ++this.firstPageSequence;
    const nextPage = this.list.pageCount + 1;
    const window =
      kind === 'reload' && this.pagesEpoch === epoch ? Math.max(1, this.list.pageCount) * PAGE_SIZE : PAGE_SIZE;
    this.loadsInFlight++;
    this.changed.fire();
    try {
      const read =
        kind === 'more'
          ? await readJobPage(client.research, this.queryValue, nextPage, PAGE_SIZE)
          : await readJobWindow(client.research, this.queryValue, window);
      const current =
        epoch === this.epoch && sequence === (kind === 'more' ? this.morePageSequence : this.firstPageSequence);
      if (!current) return;
      if (kind === 'more') {
        if (this.pagesEpoch !== epoch) return;
        this.list.addPage(read.docs);
      } else {
        this.list.replacePages(read.docs, PAGE_SIZE);
        this.pagesEpoch = epoch;
      }
      this.list.total = read.totalDocs;
      this.list.more = read.more;
      for (const job of read.docs) this.list.track(job);
      this.markGood();
      if (this.list.inProgress.size > 0) this.loop.start([...this.list.inProgress.values()]);
    } catch (error) {
      if (epoch === this.epoch) this.setProblem(error);
    } finally {
      this.loadsInFlight--;
      this.changed.fire();
    }
  }

  /** One tick: the in-progress set in one request; jobs that left it are read once and announced. */
  private async pollInProgress(signal: AbortSignal): Promise<readonly ResearchJob[]> {
    const client = this.requireClient();
    const generation = this.generation;
    // The loop's own backoff (with Retry-After) handles failures; client retries would hide them.
    const list = await client.research.list(inProgressQuery(IN_PROGRESS_LIMIT), {
      signal,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxRetries: 0,
    });
    if (generation !== this.generation) return list.docs; // the connection changed meanwhile: a newer poll follows
    // Back after a failure (e.g. the gateway was down when the view first loaded): the page shown
    // may be stale or empty, and with nothing in progress no later tick would reload it.
    const recovering = this.problemValue !== undefined;
    const stillRunning = new Map(list.docs.map((job) => [job.id, job]));
    const left = [...this.list.inProgress.keys()].filter((id) => !stillRunning.has(id));
    let discovered = false;
    for (const job of list.docs) {
      if (!this.list.inProgress.has(job.id) && !this.find(job.id)) discovered = true;
      this.list.track(job);
    }
    try {
      if (left.length > 0) await this.settle(left, signal);
    } finally {
      this.changed.fire();
    }
    this.markGood();
    this.changed.fire();
    // A job started elsewhere (another window, another tool) appears in the view too.
    if (discovered || recovering) void this.load('reload');
    return list.docs;
  }

  /**
   * The jobs that left the in-progress list, read for their outcome (see readOutcomes). A job
   * neither read can place stays followed (the next tick tries again); one the list no longer has
   * was deleted.
   */
  private async settle(ids: readonly string[], signal: AbortSignal): Promise<void> {
    const { read, listed, listFailure } = await readOutcomes(this.requireClient().research, ids, signal, (id, error) =>
      this.log.warn(
        `Research job ${id} left the in-progress list but its detail could not be read (${errorMessage(error)}); reading its status from the list.`,
      ),
    );
    let deleted = false;
    for (const id of ids) {
      const outcome = read.get(id);
      if (!outcome) {
        // Not in the list read by id: deleted. Neither read answered: keep following it.
        if (listed.has(id)) {
          this.list.inProgress.delete(id);
          deleted = true;
        }
        continue;
      }
      this.finish(id, outcome);
    }
    if (deleted) void this.load('reload');
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the list read's own failure, passed on as it came
    if (listFailure !== undefined) throw listFailure;
  }

  private finish(id: string, outcome: ResearchJob): void {
    const known = this.list.inProgress.get(id);
    const merged: ResearchJob = { ...known, ...outcome, id };
    this.list.inProgress.delete(id);
    const phase = classifyResearchStatus(merged.status);
    // Still in progress by its own read (e.g. beyond the in-progress list's 100): keep following it.
    this.list.track(merged);
    if (phase === 'in_progress') return;
    if (this.announced.has(id)) return;
    this.announced.add(id);
    const reason = phase === 'failed' ? failureReason(merged) : undefined;
    this.log.info(`Research ${phase}: ${jobTitle(merged)} (${id})${reason ? `: ${reason}` : ''}`);
    this.finished.fire({ job: merged, phase });
  }

  private markGood(): void {
    this.lastGood = Date.now();
    this.problemValue = undefined;
  }

  private setProblem(error: unknown): void {
    // The gateway's words go into the view's message: redacted like every failure shown.
    this.problemValue = this.connection.redact(errorMessage(error));
    this.log.warn(`Research list: ${this.problemValue}`);
    this.connection.reportFailure(error);
    this.changed.fire();
  }
}
