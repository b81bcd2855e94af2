import * as vscode from 'vscode';
import { AuthenticationError } from '../../core/errors';
import { classifyResearchStatus } from '../../core/research/researchHelpers';
import { ResearchPollLoop } from '../../core/research/pollLoop';
import type { GatewayClient } from '../../core/transport/client';
import type { ResearchJob } from '../../core/types/account';
import { SetupRequiredError } from '../errors/setupError';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { appendPage, chunkPages, uniqueJobs } from './jobPages';
import { failureReason, jobTitle } from './jobPresentation';
import { DEFAULT_QUERY, IN_PROGRESS_LIMIT, inProgressQuery, jobsByIdQuery, listQuery, type ResearchViewQuery } from './researchQuery';

const PAGE_SIZE = 20;
const REQUEST_TIMEOUT_MS = 30_000;

export type JobOutcome = { readonly job: ResearchJob; readonly phase: 'succeeded' | 'failed' };

interface PageRead {
  readonly docs: readonly ResearchJob[];
  readonly totalDocs: number;
  readonly more: boolean;
}

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

  private pages: ResearchJob[][] = [];
  private total = 0;
  private more = false;
  private queryValue: ResearchViewQuery = DEFAULT_QUERY;
  private lastGood: number | undefined;
  private problemValue: string | undefined;
  private stoppedBy: string | undefined;
  private viewVisible = true; // the loop's own default, until the view says
  private watchers = 0;
  /** List requests in flight (page loads of any kind). */
  private loadsInFlight = 0;
  private readonly inProgress = new Map<string, ResearchJob>();
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
    return uniqueJobs(this.pages.flat());
  }
  get totalDocs(): number {
    return this.total;
  }
  get hasMore(): boolean {
    return this.more;
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
    return this.jobs.find((job) => job.id === id) ?? this.inProgress.get(id);
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
    if (this.more) await this.load('more');
  }

  /** Starts a job: it shows at once as queued, and polling begins. */
  async start(topic: string): Promise<ResearchJob> {
    const client = this.requireClient();
    const created = await client.research.create(topic, { timeoutMs: REQUEST_TIMEOUT_MS });
    this.connection.reportModelUse();
    const now = new Date().toISOString();
    const job: ResearchJob = { id: created.id, status: created.status || 'queued', topic, title: topic, createdAt: now, updatedAt: now };
    this.inProgress.set(job.id, job);
    this.pages[0] = [job, ...(this.pages[0] ?? []).filter((other) => other.id !== job.id)];
    this.total += 1;
    this.changed.fire();
    this.loop.start([...this.inProgress.values()]);
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
    this.pages = [];
    this.total = 0;
    this.more = false;
    this.inProgress.clear();
    this.lastGood = undefined;
    this.problemValue = undefined;
    this.stoppedBy = undefined;
    // Another gateway or key: what the loop listed belongs to the old one. Restarted empty, it
    // counts as never listed, so a first poll that fails keeps retrying (with backoff) until the
    // gateway answers, as after a reload.
    this.loop.stop();
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
    const nextPage = this.pages.length + 1;
    const window = kind === 'reload' && this.pagesEpoch === epoch ? Math.max(1, this.pages.length) * PAGE_SIZE : PAGE_SIZE;
    this.loadsInFlight++;
    this.changed.fire();
    try {
      const read = kind === 'more' ? await this.readPage(client, nextPage) : await this.readWindow(client, window);
      const current = epoch === this.epoch && sequence === (kind === 'more' ? this.morePageSequence : this.firstPageSequence);
      if (!current) return;
      if (kind === 'more') {
        if (this.pagesEpoch !== epoch) return;
        this.pages = appendPage(this.pages, read.docs);
      } else {
        this.pages = chunkPages(read.docs, PAGE_SIZE);
        this.pagesEpoch = epoch;
      }
      this.total = read.totalDocs;
      this.more = read.more;
      for (const job of read.docs) this.track(job);
      this.markGood();
      if (this.inProgress.size > 0) this.loop.start([...this.inProgress.values()]);
    } catch (error) {
      if (epoch === this.epoch) this.setProblem(error);
    } finally {
      this.loadsInFlight--;
      this.changed.fire();
    }
  }

  private async readPage(client: GatewayClient, page: number): Promise<PageRead> {
    const list = await client.research.list(listQuery(this.queryValue, page, PAGE_SIZE), { timeoutMs: REQUEST_TIMEOUT_MS });
    return { docs: list.docs, totalDocs: list.totalDocs, more: list.hasNextPage ?? page * PAGE_SIZE < list.totalDocs };
  }

  /** The first `window` jobs of the list, in as few requests as the list's limit (100) allows. */
  private async readWindow(client: GatewayClient, window: number): Promise<PageRead> {
    const limit = Math.min(IN_PROGRESS_LIMIT, window);
    const docs: ResearchJob[] = [];
    let totalDocs = 0;
    let hasNext = false;
    for (let page = 1; docs.length < window; page++) {
      const list = await client.research.list(listQuery(this.queryValue, page, limit), { timeoutMs: REQUEST_TIMEOUT_MS });
      docs.push(...list.docs);
      totalDocs = list.totalDocs;
      hasNext = list.hasNextPage ?? page * limit < list.totalDocs;
      if (!hasNext || list.docs.length === 0) break;
    }
    const unique = uniqueJobs(docs);
    return { docs: unique.slice(0, window), totalDocs, more: hasNext || unique.length > window };
  }

  /** One tick: the in-progress set in one request; jobs that left it are read once and announced. */
  private async pollInProgress(signal: AbortSignal): Promise<readonly ResearchJob[]> {
    const client = this.requireClient();
    const generation = this.generation;
    // The loop's own backoff (with Retry-After) handles failures; client retries would hide them.
    const list = await client.research.list(inProgressQuery(IN_PROGRESS_LIMIT), { signal, timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0 });
    if (generation !== this.generation) return list.docs; // the connection changed meanwhile: a newer poll follows
    // Back after a failure (e.g. the gateway was down when the view first loaded): the page shown
    // may be stale or empty, and with nothing in progress no later tick would reload it.
    const recovering = this.problemValue !== undefined;
    const stillRunning = new Map(list.docs.map((job) => [job.id, job]));
    const left = [...this.inProgress.keys()].filter((id) => !stillRunning.has(id));
    let discovered = false;
    for (const job of list.docs) {
      if (!this.inProgress.has(job.id) && !this.find(job.id)) discovered = true;
      this.track(job);
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
   * The jobs that left the in-progress list: each is read once for its outcome (report, reason).
   * Where that read fails (a 404 means the detail is unavailable), the list read by id gives the
   * final status, so the finish is announced anyway. A job neither read can place stays followed
   * (the next tick tries again); one the list no longer has was deleted.
   */
  private async settle(ids: readonly string[], signal: AbortSignal): Promise<void> {
    const client = this.requireClient();
    const read = new Map<string, ResearchJob>();
    const unread: string[] = [];
    for (const id of ids) {
      try {
        read.set(id, await client.research.get(id, { signal, timeoutMs: REQUEST_TIMEOUT_MS }));
      } catch (error) {
        if (signal.aborted) throw error;
        this.log.warn(`Research job ${id} left the in-progress list but its detail could not be read (${error instanceof Error ? error.message : String(error)}); reading its status from the list.`);
        unread.push(id);
      }
    }
    let listFailure: { error: unknown } | undefined;
    const listed = new Set<string>();
    for (let start = 0; start < unread.length; start += IN_PROGRESS_LIMIT) {
      const batch = unread.slice(start, start + IN_PROGRESS_LIMIT);
      try {
        const list = await client.research.list(jobsByIdQuery(batch), { signal, timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0 });
        for (const job of list.docs) {
          if (!batch.includes(job.id)) continue;
          read.set(job.id, job);
        }
        for (const id of batch) listed.add(id);
      } catch (error) {
        if (signal.aborted) throw error;
        listFailure ??= { error };
      }
    }
    let deleted = false;
    for (const id of ids) {
      const outcome = read.get(id);
      if (!outcome) {
        // Not in the list read by id: deleted. Neither read answered: keep following it.
        if (listed.has(id)) {
          this.inProgress.delete(id);
          deleted = true;
        }
        continue;
      }
      this.finish(id, outcome);
    }
    if (deleted) void this.load('reload');
    if (listFailure) throw listFailure.error;
  }

  private finish(id: string, outcome: ResearchJob): void {
    const known = this.inProgress.get(id);
    const merged: ResearchJob = { ...known, ...outcome, id };
    this.inProgress.delete(id);
    const phase = classifyResearchStatus(merged.status);
    // Still in progress by its own read (e.g. beyond the in-progress list's 100): keep following it.
    this.track(merged);
    if (phase === 'in_progress') return;
    if (this.announced.has(id)) return;
    this.announced.add(id);
    const reason = phase === 'failed' ? failureReason(merged) : undefined;
    this.log.info(`Research ${phase}: ${jobTitle(merged)} (${id})${reason ? `: ${reason}` : ''}`);
    this.finished.fire({ job: merged, phase });
  }

  private track(job: ResearchJob): void {
    if (classifyResearchStatus(job.status) === 'in_progress') this.inProgress.set(job.id, job);
    this.replaceShown(job);
  }

  private replaceShown(job: ResearchJob): void {
    this.pages = this.pages.map((page) => page.map((shown) => (shown.id === job.id ? { ...shown, ...job } : shown)));
  }

  private markGood(): void {
    this.lastGood = Date.now();
    this.problemValue = undefined;
  }

  private setProblem(error: unknown): void {
    // The gateway's words go into the view's message: redacted like every failure shown.
    this.problemValue = this.connection.redact(error instanceof Error ? error.message : String(error));
    this.log.warn(`Research list: ${this.problemValue}`);
    this.connection.reportFailure(error);
    this.changed.fire();
  }
}
