import * as vscode from 'vscode';
import { AuthenticationError, classifyResearchStatus, ResearchPollLoop, type ResearchJob } from '../../core/index';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { failureReason, jobTitle } from './jobPresentation';
import { DEFAULT_QUERY, inProgressWhere, listQuery, type ResearchViewQuery } from './researchQuery';

export const PAGE_SIZE = 20;
/** The in-progress set is read in one request; a user rarely has more running at once. */
const IN_PROGRESS_LIMIT = 100;
const REQUEST_TIMEOUT_MS = 30_000;

export type JobOutcome = { readonly job: ResearchJob; readonly phase: 'succeeded' | 'failed' };

/**
 * Every research job of the account as the Research view shows it: pages of `GET /research` with
 * the view's filter and sort, plus the jobs in progress, followed by one list request per tick for
 * all of them (ResearchPollLoop decides when). A job that leaves the in-progress set is read once
 * (`GET /research/{id}`) for its outcome and announced.
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
  private loadingValue = false;
  private readonly inProgress = new Map<string, ResearchJob>();
  private readonly announced = new Set<string>();
  private readonly loop: ResearchPollLoop;
  private sequence = 0;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly log: Log,
  ) {
    super();
    this.loop = new ResearchPollLoop({
      poll: (signal) => this.pollInProgress(signal),
      onError: (error) => {
        this.setProblem(error);
        // A refused key will not heal by itself: polling resumes when the key changes.
        if (error instanceof AuthenticationError) this.loop.stop();
      },
      focused: vscode.window.state.focused,
    });
    this._register({ dispose: () => this.loop.dispose() });
    this._register(connection.onDidChange(() => void this.reset()));
    this._register(vscode.window.onDidChangeWindowState((state) => this.loop.setFocus(state.focused)));
  }

  get jobs(): readonly ResearchJob[] {
    return this.pages.flat();
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
    return this.loadingValue;
  }
  get pollState(): string {
    return this.loop.state;
  }

  setViewVisible(visible: boolean): void {
    this.loop.setViewVisible(visible);
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
    await this.load(1, true);
    // One in-progress read too: it finds running jobs beyond the first page or the filter.
    void this.loop.pollNow();
  }

  async loadMore(): Promise<void> {
    if (this.more) await this.load(this.pages.length + 1, false);
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
    void this.load(1, true);
    return job;
  }

  private requireClient(): NonNullable<GatewayConnection['setup']['client']> {
    const { client, hasKey } = this.connection.setup;
    if (!client) throw new Error('The gateway address is not set (Unified Inference: Set Gateway Address).');
    if (!hasKey) throw new Error('No API key is set (Unified Inference: Set API Key).');
    return client;
  }

  private async reset(): Promise<void> {
    this.pages = [];
    this.total = 0;
    this.more = false;
    this.inProgress.clear();
    this.lastGood = undefined;
    this.problemValue = undefined;
    this.loop.stop();
    this.changed.fire();
    const { client, hasKey } = this.connection.setup;
    if (client && hasKey) await this.refresh();
  }

  private async load(page: number, replace: boolean): Promise<void> {
    const { client, hasKey } = this.connection.setup;
    if (!client || !hasKey) return;
    const sequence = ++this.sequence;
    this.loadingValue = true;
    this.changed.fire();
    try {
      const list = await client.research.list(listQuery(this.queryValue, page, PAGE_SIZE), { timeoutMs: REQUEST_TIMEOUT_MS });
      if (sequence !== this.sequence) return;
      this.pages = replace ? [list.docs] : [...this.pages, list.docs];
      this.total = list.totalDocs;
      this.more = list.hasNextPage ?? this.jobs.length < list.totalDocs;
      for (const job of list.docs) this.track(job);
      this.markGood();
      if (this.inProgress.size > 0) this.loop.start([...this.inProgress.values()]);
    } catch (error) {
      if (sequence === this.sequence) this.setProblem(error);
    } finally {
      if (sequence === this.sequence) {
        this.loadingValue = false;
        this.changed.fire();
      }
    }
  }

  /** One tick: the in-progress set in one request; jobs that left it are read once and announced. */
  private async pollInProgress(signal: AbortSignal): Promise<readonly ResearchJob[]> {
    const client = this.requireClient();
    const list = await client.research.list({ where: inProgressWhere(), limit: IN_PROGRESS_LIMIT, sort: '-createdAt' },
      // The loop's own backoff (with Retry-After) handles failures; client retries would hide them.
      { signal, timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0 },
    );
    const stillRunning = new Map(list.docs.map((job) => [job.id, job]));
    const left = [...this.inProgress.keys()].filter((id) => !stillRunning.has(id));
    let discovered = false;
    for (const job of list.docs) {
      if (!this.inProgress.has(job.id) && !this.find(job.id)) discovered = true;
      this.track(job);
    }
    for (const id of left) await this.settle(id, signal);
    this.markGood();
    this.changed.fire();
    // A job started elsewhere (another window, another tool) appears in the view too.
    if (discovered) void this.load(1, true);
    return list.docs;
  }

  private async settle(id: string, signal: AbortSignal): Promise<void> {
    const known = this.inProgress.get(id);
    this.inProgress.delete(id);
    let job: ResearchJob | undefined;
    try {
      job = await this.requireClient().research.get(id, { signal, timeoutMs: REQUEST_TIMEOUT_MS });
    } catch (error) {
      if (signal.aborted) throw error;
      this.log.warn(`Research job ${id} left the in-progress list but could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    const merged: ResearchJob = { ...known, ...job, id } as ResearchJob;
    this.replaceShown(merged);
    const phase = classifyResearchStatus(merged.status);
    if (phase === 'in_progress') {
      // Deleted, or listed under a status filter we cannot see: refresh the page instead of guessing.
      void this.load(1, true);
      return;
    }
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
    this.problemValue = error instanceof Error ? error.message : String(error);
    this.log.warn(`Research list: ${this.problemValue}`);
    this.connection.reportFailure(error);
    this.changed.fire();
  }
}
