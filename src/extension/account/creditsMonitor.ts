import * as vscode from 'vscode';
import { RateLimitError } from '../../core/errors';
import { SpendTracker } from '../../core/account/spendTracker';
import {
  creditsStateForError,
  outOfCredits,
  type CreditsReading,
  type CreditsState,
} from '../../core/account/creditsState';
import { LimitHold } from '../../core/account/limitHold';
import { connectionFailureText, diagnoseConnectionError } from '../../core/net/diagnose';
import { errorMessage } from '../../shared/errorMessage';
import { onDidChangeSettingsUnder, readSettings } from '../config';
import { diagnosisContext, type GatewayConnection, type RequestFailure } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { SpendFigures } from '../../core/account/creditsPresentation';
import { CreditsNotices } from './creditsNotices';

const MODEL_USE_DEBOUNCE_MS = 2_000;
const QUOTA_TIMEOUT_MS = 15_000;
/** The out-of-credits notice waits at most this long for a reading that says when credits return. */
const RESET_LOOKUP_TIMEOUT_MS = 5_000;
const HOUR_MS = 60 * 60_000;

/**
 * Keeps the credit balance current: on start, whenever the connection changes, shortly after any
 * request that used a model (debounced), and on an interval (skipped while the window has been in
 * the background longer than the interval; caught up at once on focus). Notifies once when the
 * balance crosses the low threshold and once when a request fails for lack of credits (unless the
 * feature that made it showed the failure with its fix: that was the once).
 */
export class CreditsMonitor extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<CreditsState>());
  readonly onDidChange = this.changed.event;
  private readonly noticeShown = this._register(new vscode.EventEmitter<void>());
  /** Fires when the out-of-credits notice is about to show (tests count notifications with it). */
  readonly onDidShowOutOfCreditsNotice = this.noticeShown.event;
  private tracker: SpendTracker;
  private current: CreditsState = { kind: 'loading' };
  private last: CreditsReading | undefined;
  /** The gateway and key the readings came from: another account's balance would be a misleading number. */
  private readingsFrom = '';
  private sequence = 0;
  private inFlight: AbortController | undefined;
  private interval: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private unfocusedSince: number | undefined;
  private readonly notices: CreditsNotices;
  private readonly limitHold = new LimitHold();
  private resetLookup: Promise<CreditsReading | undefined> | undefined;
  private completionSpend: (() => number | undefined) | undefined;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.tracker = new SpendTracker(now);
    this.notices = new CreditsNotices(now);
    this._register(
      connection.onDidChange(() => {
        this.restartInterval();
        void this.refresh();
      }),
    );
    // Thresholds and the interval are read where they are used: the item re-renders, the timer restarts.
    this._register(
      onDidChangeSettingsUnder('credits', () => {
        this.restartInterval();
        this.set(this.current);
      }),
    );
    this._register(connection.onDidUseModel(() => this.refreshSoon()));
    this._register(connection.onDidFail((failure) => this.onRequestFailed(failure)));
    this._register(vscode.window.onDidChangeWindowState((state) => this.onFocusChanged(state.focused)));
    this._register({ dispose: () => this.stopTimers() });
    if (!vscode.window.state.focused) this.unfocusedSince = now();
    this.restartInterval();
  }

  get state(): CreditsState {
    return this.current;
  }

  /** Why the connection is not set up as the settings ask (e.g. an unreadable CA file), for the tooltip. */
  get setupProblem(): string | undefined {
    return this.connection.setup.problem;
  }

  spend(): SpendFigures {
    const completions = this.completionSpend?.();
    return {
      session: this.tracker.spentThisSession(),
      lastHour: this.tracker.spentInLast(HOUR_MS),
      burnRatePerHour: this.tracker.burnRatePerHour(),
      ...(completions !== undefined ? { completions } : {}),
    };
  }

  /**
   * A feature above this layer that counts its own spend (inline completions, from token counts:
   * many small requests the balance cannot tell apart) hands it down here for the tooltip.
   */
  setCompletionSpend(read: () => number | undefined): vscode.Disposable {
    this.completionSpend = read;
    return new vscode.Disposable(() => {
      if (this.completionSpend === read) this.completionSpend = undefined;
    });
  }

  /** The completion spend changed: the item re-renders (no quota read). */
  noteCompletionSpend(): void {
    this.changed.fire(this.current);
  }

  /** Reads the balance now (a newer call supersedes an older one still in flight). */
  async refresh(): Promise<CreditsState> {
    const sequence = ++this.sequence;
    this.inFlight?.abort();
    const { baseUrl, hasKey, client, keyVersion } = this.connection.setup;
    const account = `${baseUrl}#${keyVersion}`;
    if (account !== this.readingsFrom) this.forgetReadings(account);
    if (!baseUrl || !client) return this.set({ kind: 'noBaseUrl' });
    if (!hasKey) return this.set({ kind: 'noKey' });
    const controller = new AbortController();
    this.inFlight = controller;
    this.set(this.last ? { kind: 'loading', last: this.last } : { kind: 'loading' });
    try {
      const quota = await client.quota.get({ signal: controller.signal, timeoutMs: QUOTA_TIMEOUT_MS });
      if (sequence !== this.sequence) return this.current;
      const reading: CreditsReading = { credits: quota.credits, reset: quota.reset, at: this.now() };
      this.last = reading;
      this.tracker.record(reading.credits, reading.at);
      if (this.limitHold.holds(reading, this.now())) return this.set({ kind: 'outOfCredits', last: reading });
      this.notices.onBalance(reading);
      return this.set({ kind: 'ok', reading });
    } catch (error) {
      if (sequence !== this.sequence) return this.current;
      return this.set(this.stateForError(error));
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  private forgetReadings(account: string): void {
    this.readingsFrom = account;
    this.last = undefined;
    this.tracker = new SpendTracker(this.now);
    this.notices.rearm();
    this.limitHold.clear();
  }

  private stateForError(error: unknown): CreditsState {
    this.log.warn(`Could not read the credit balance: ${errorMessage(error)}`);
    // The tooltip says what Test Connection would: the cause and its one next step.
    return creditsStateForError(error, this.last, (failure) =>
      connectionFailureText(diagnoseConnectionError(failure, diagnosisContext(this.connection.setup))),
    );
  }

  private set(state: CreditsState): CreditsState {
    this.current = state;
    this.changed.fire(state);
    return state;
  }

  private refreshSoon(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.refresh(), MODEL_USE_DEBOUNCE_MS);
  }

  private intervalMs(): number {
    return readSettings().credits.refreshIntervalMinutes * 60_000;
  }

  private restartInterval(): void {
    clearInterval(this.interval);
    this.interval = setInterval(() => this.onTick(), this.intervalMs());
  }

  private onTick(): void {
    // Long in the background: nobody is looking, so no request; focus brings a fresh reading.
    if (this.unfocusedSince !== undefined && this.now() - this.unfocusedSince >= this.intervalMs()) return;
    void this.refresh();
  }

  private onFocusChanged(focused: boolean): void {
    if (!focused) {
      this.unfocusedSince ??= this.now();
      return;
    }
    this.unfocusedSince = undefined;
    const age = this.last ? this.now() - this.last.at : Infinity;
    if (age >= this.intervalMs() || this.current.kind === 'offline' || this.current.kind === 'error')
      void this.refresh();
  }

  private onRequestFailed({ error, shown }: RequestFailure): void {
    if (!(error instanceof RateLimitError && error.quotaExhausted)) return;
    this.limitHold.hold(this.last?.credits, this.now());
    this.set(outOfCredits(this.last));
    if (!this.notices.takeOutOfCredits(shown)) return;
    this.noticeShown.fire();
    void this.showOutOfCreditsNotice();
  }

  private async showOutOfCreditsNotice(): Promise<void> {
    // No reading yet (e.g. the first request of the session was refused): one bounded read, so the
    // notice can say when credits return. /quota stays available when the credits are used up.
    const reading =
      this.last ?? (await (this.resetLookup ??= this.readForNotice().finally(() => (this.resetLookup = undefined))));
    await this.notices.showOutOfCredits(reading, () => void this.refresh());
  }

  /**
   * When the quota window resets (ISO 8601), for an out-of-credits error: the last reading's, else
   * one bounded quota read (shared with the notice's when both ask at once); undefined if unknown.
   */
  async resetTime(): Promise<string | undefined> {
    if (this.last) return this.last.reset;
    this.resetLookup ??= this.readForNotice().finally(() => (this.resetLookup = undefined));
    return (await this.resetLookup)?.reset;
  }

  /** One quota read for the out-of-credits notice (at most RESET_LOOKUP_TIMEOUT_MS); undefined if it fails. */
  private async readForNotice(): Promise<CreditsReading | undefined> {
    const { baseUrl, hasKey, client, keyVersion } = this.connection.setup;
    if (!client || !hasKey) return undefined;
    const account = `${baseUrl}#${keyVersion}`;
    try {
      const quota = await client.quota.get({ timeoutMs: RESET_LOOKUP_TIMEOUT_MS, maxRetries: 0 });
      const reading: CreditsReading = { credits: quota.credits, reset: quota.reset, at: this.now() };
      // Kept only if it still belongs to the account in use (the key may have changed meanwhile).
      if (
        account === this.readingsFrom &&
        `${this.connection.setup.baseUrl}#${this.connection.setup.keyVersion}` === account &&
        !this.last
      ) {
        this.last = reading;
        this.tracker.record(reading.credits, reading.at);
        this.limitHold.noteCredits(reading.credits);
        if (this.current.kind === 'outOfCredits') this.set({ kind: 'outOfCredits', last: reading });
      }
      return reading;
    } catch (error) {
      this.log.warn(`Could not read when the credits reset: ${errorMessage(error)}`);
      return undefined;
    }
  }

  private stopTimers(): void {
    clearInterval(this.interval);
    clearTimeout(this.debounce);
    this.inFlight?.abort();
  }
}
