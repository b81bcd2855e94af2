// Inline completions' state and work: on or off, snoozed, paused after a failure, the model, the
// scheduler that decides when a request is made, and what they spent. The provider, the status
// item and the commands are thin views of it.
import * as vscode from 'vscode';
import { catalogContextLength } from '../../core/context/contextLength';
import { clampDelay } from '../../core/transport/delay';
import { modelPricing, pricedCost } from '../../core/models/modelPricing';
import type { Model } from '../../core/types/account';
import { buildCompletionPrompt } from '../../core/completions/completionPrompt';
import { completionBudget } from '../../core/completions/completionBudget';
import type { Pause } from '../../core/completions/completionBackoff';
import type { CompletionInput, CompletionPrompt } from '../../core/completions/completionInput';
import { runCompletion, type CompletionOutcome } from '../../core/completions/completionRun';
import {
  CompletionScheduler,
  realClock,
  type CompletionAsk,
  type CompletionCounters,
} from '../../core/completions/completionScheduler';
import { completionsEnabledFor } from '../../core/completions/languageEnablement';
import type { CreditsMonitor } from '../account/creditsMonitor';
import { onDidChangeSettingsUnder, readSettings } from '../config';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { CompletionContext, CompletionPlace } from './completionContext';
import { completionSend } from '../../core/completions/completionRequest';
import { errorMessage } from '../../shared/errorMessage';

/** Completions report model use (a credits refresh) at most this often: one /quota read per typing burst, not per keystroke. */
const MODEL_USE_REPORT_MS = 30_000;

export type CompletionsState =
  | { readonly kind: 'off' }
  | { readonly kind: 'noModel' }
  | { readonly kind: 'snoozed'; readonly until: number }
  | { readonly kind: 'paused'; readonly pause: Pause }
  | { readonly kind: 'on'; readonly model: string };

interface Prepared {
  readonly prompt: CompletionPrompt;
  readonly model: string;
}

export interface CompletionsSessionFigures extends CompletionCounters {
  /** USD from token counts x the catalog's prices (0 for models without a listed price). */
  spentUsd: number;
}

export class CompletionsController extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly paused = this._register(new vscode.EventEmitter<Pause>());
  /** A pause began (the notice and the tests listen). */
  readonly onDidPause = this.paused.event;
  readonly scheduler: CompletionScheduler<Prepared>;
  private snoozedUntil = 0;
  private spentUsd = 0;
  private wakeTimer: NodeJS.Timeout | undefined;
  private reportTimer: NodeJS.Timeout | undefined;
  private places = new Map<string, CompletionPlace>();
  /** The catalog (prices, context lengths) was asked for once since the connection changed. */
  private catalogAsked = false;
  /** Usage of requests made before the catalog was read, by model: priced when it arrives. */
  private unpriced = new Map<string, { promptTokens: number; completionTokens: number }>();

  constructor(
    private readonly connection: GatewayConnection,
    private readonly catalog: ModelCatalog,
    private readonly credits: CreditsMonitor,
    private readonly context: CompletionContext,
    private readonly log: Log,
  ) {
    super();
    this.scheduler = new CompletionScheduler<Prepared>(
      realClock,
      { prepare: (ask, signal) => this.prepare(ask, signal), send: (prepared, signal) => this.send(prepared, signal) },
      () => readSettings().completions.debounceMs,
      undefined,
      {
        onSpent: (outcome) => this.noteSpent(outcome),
        onPause: (pause, error) => this.onPause(pause, error),
        onError: (error) => this.log.warn(`An inline completion failed: ${errorMessage(error)}`),
      },
    );
    this._register(
      onDidChangeSettingsUnder('completions', () => {
        this.scheduler.cache.clear();
        if (!readSettings().completions.enabled) this.scheduler.stop();
        this.changed.fire();
      }),
    );
    // A new key (or gateway) resumes at once: the pause was about the old one.
    this._register(
      connection.onDidChange(() => {
        this.catalogAsked = false;
        this.scheduler.cache.clear();
        this.scheduler.resume();
      }),
    );
    this._register(catalog.onDidChange(() => this.priceUnpriced()));
    this._register(
      credits.setCompletionSpend(() => (this.scheduler.counters.requests > 0 ? this.spentUsd : undefined)),
    );
    this._register({ dispose: () => this.stopTimers() });
  }

  get state(): CompletionsState {
    const settings = readSettings().completions;
    if (!settings.enabled) return { kind: 'off' };
    if (!settings.model) return { kind: 'noModel' };
    if (this.snoozedUntil > Date.now()) return { kind: 'snoozed', until: this.snoozedUntil };
    const pause = this.scheduler.backoff.pause;
    if (pause) return { kind: 'paused', pause };
    return { kind: 'on', model: settings.model };
  }

  /** The completion model's id ('' when none is picked). */
  get modelId(): string {
    return readSettings().completions.model;
  }

  /** This session's counters and spend (the test API and the benchmark read them). */
  figures(): CompletionsSessionFigures {
    return { ...this.scheduler.counters, spentUsd: this.spentUsd };
  }

  /** Whether a keystroke in a document of `languageId` may ask at all (cheap: one remembered settings read). */
  wants(languageId: string): boolean {
    const settings = readSettings().completions;
    if (!settings.enabled || !settings.model || this.snoozedUntil > Date.now()) return false;
    return completionsEnabledFor(settings.languages, languageId);
  }

  /** The suggestion at `ask` (the place's document and windows come with it). */
  complete(ask: CompletionAsk, place: CompletionPlace, cancel: AbortSignal): Promise<string | undefined> {
    // The place rides along by key: the scheduler is pure and knows only the ask.
    this.places.clear();
    this.places.set(ask.key, place);
    return this.scheduler.complete(ask, cancel);
  }

  snooze(minutes: number): void {
    this.snoozedUntil = Date.now() + minutes * 60_000;
    this.scheduler.stop();
    this.wakeAt(this.snoozedUntil);
    this.changed.fire();
  }

  unsnooze(): void {
    this.snoozedUntil = 0;
    this.changed.fire();
  }

  noteAccepted(chars: number): void {
    this.scheduler.noteAccepted(chars);
  }

  /** The catalog entry of the completion model, when the catalog is read. */
  model(id: string): Model | undefined {
    return this.catalog.model(id);
  }

  /**
   * Completions need the catalog (the price, the context length) but must not read it before they
   * are used: the first request asks for it once, without waiting (that request uses the default
   * budget and its usage is priced when the catalog arrives).
   */
  private askForCatalog(): void {
    if (this.catalogAsked || this.catalog.snapshot || this.catalog.status.kind === 'loading') return;
    this.catalogAsked = true;
    void this.catalog.refresh();
  }

  private async prepare(ask: CompletionAsk, signal: AbortSignal): Promise<Prepared | undefined> {
    const place = this.places.get(ask.key);
    const { model } = readSettings().completions;
    const setup = this.connection.setup;
    if (!place || !model || !setup.client || !setup.hasKey) return undefined;
    this.askForCatalog();
    const input: CompletionInput | undefined = await this.context.input(place, signal);
    if (!input) return undefined;
    const entry = this.model(model);
    const budget = completionBudget(catalogContextLength(entry), modelPricing(entry)?.input);
    return { prompt: buildCompletionPrompt(input, budget), model };
  }

  private send(prepared: Prepared, signal: AbortSignal): Promise<CompletionOutcome> {
    const client = this.connection.setup.client;
    if (!client) return Promise.reject(new Error('The gateway is not configured.'));
    const entry = this.model(prepared.model);
    const provider = typeof entry?.provider === 'string' ? entry.provider : undefined;
    return runCompletion(
      prepared.prompt,
      completionSend(client, prepared.model, readSettings().chatApi, provider),
      signal,
    ).then((outcome) => ({ ...outcome, model: prepared.model }));
  }

  private noteSpent(outcome: CompletionOutcome): void {
    const model = outcome.model ?? readSettings().completions.model;
    if (this.catalog.snapshot) {
      const pricing = modelPricing(this.model(model));
      if (pricing) this.spentUsd += pricedCost(pricing, outcome.usage);
    } else {
      const held = this.unpriced.get(model) ?? { promptTokens: 0, completionTokens: 0 };
      held.promptTokens += outcome.usage.promptTokens;
      held.completionTokens += outcome.usage.completionTokens;
      this.unpriced.set(model, held);
    }
    this.credits.noteCompletionSpend();
    // The balance is read again after a burst of completions, not after each one.
    this.reportTimer ??= setTimeout(() => {
      this.reportTimer = undefined;
      this.connection.reportModelUse();
    }, MODEL_USE_REPORT_MS);
  }

  /** The catalog arrived: the usage held for it gets its price. */
  private priceUnpriced(): void {
    if (!this.catalog.snapshot || this.unpriced.size === 0) return;
    for (const [model, usage] of this.unpriced) {
      const pricing = modelPricing(this.model(model));
      if (pricing) this.spentUsd += pricedCost(pricing, usage);
    }
    this.unpriced.clear();
    this.credits.noteCompletionSpend();
    this.changed.fire();
  }

  private onPause(pause: Pause | undefined, error?: unknown): void {
    if (pause) {
      // Out of credits: the credits display holds "out of credits" and says so once (Refresh Credits).
      if (error !== undefined) this.connection.reportFailure(error);
      this.log.warn(`Inline completions paused (${pause.reason}) until ${new Date(pause.until).toISOString()}.`);
      this.wakeAt(pause.until);
      this.paused.fire(pause);
    } else this.log.info('Inline completions resumed.');
    this.changed.fire();
  }

  /** Re-renders when a snooze or a pause runs out (the next keystroke then asks again). */
  private wakeAt(time: number): void {
    clearTimeout(this.wakeTimer);
    this.wakeTimer = setTimeout(() => this.changed.fire(), clampDelay(time - Date.now()));
  }

  private stopTimers(): void {
    clearTimeout(this.wakeTimer);
    clearTimeout(this.reportTimer);
    this.scheduler.stop();
  }
}
