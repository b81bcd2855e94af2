// The one way a feature fails in the palette and the views: the failure is reported to the
// connection once (the credits display hears of it), described by describeError (with the reset
// time for out-of-credits, the gateway address, the key redacted) and shown as an error
// notification whose buttons do the actions. The key check that runs before any picker lives here
// too, so a user without a key is told at once, and the command goes on once the key is set.
import * as vscode from 'vscode';
import { openSetting, openSettings } from '../config';
import { diagnosisContext, type GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { describeError, sentence, type ErrorAction, type ErrorDescription } from '../../core/failures/describeError';
import { ACTION_COMMANDS } from '../../core/failures/errorWords';
import { missingSetup, SetupRequiredError, type MissingSetup } from '../../core/failures/setupError';
import { errorMessage } from '../../shared/errorMessage';

/** How long a command waits for the connection to see a key or an address the user just set. */
const SETUP_SETTLE_MS = 10_000;

/** What a presenter showed (tests read it; the notification itself cannot be read back). */
export interface ShownFailure {
  readonly description: ErrorDescription;
  /** The notification's whole text. */
  readonly message: string;
  readonly buttons: readonly string[];
}

export interface ShowOptions {
  /** What failed, before the description ("Transcription failed"). */
  readonly title: string;
  /** Re-runs the operation (Retry; also after a new key was set for a refused one). Without it, no Retry. */
  readonly retry?: () => unknown;
  /** Buttons of the feature's own after the actions' (e.g. Open Report). */
  readonly more?: readonly { readonly label: string; readonly run: () => unknown }[];
}

/** An action's button title, translated (every feature's buttons for a failure use these). */
export function actionLabel(action: ErrorAction): string {
  switch (action) {
    case 'retry':
      return vscode.l10n.t('Retry');
    case 'setApiKey':
      return vscode.l10n.t('Set API Key');
    case 'setBaseUrl':
      return vscode.l10n.t('Set Gateway Address');
    case 'openSettings':
      return vscode.l10n.t('Open Settings');
    case 'showLog':
      return vscode.l10n.t('Show Log');
    case 'refreshCredits':
      return vscode.l10n.t('Refresh Credits');
  }
}

function isQuotaExhausted(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { quotaExhausted?: unknown }).quotaExhausted === true;
}

export class Failures extends Disposable {
  private readonly reported = new WeakSet<object>();
  private readonly shownEmitter = this._register(new vscode.EventEmitter<ShownFailure>());
  /** Fires for every failure a presenter shows (palette notifications and the key check). */
  readonly onDidShow = this.shownEmitter.event;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly log: Log,
    /** When the quota window resets (ISO 8601): the last credits reading's, else one bounded read. */
    private readonly resetTime: () => Promise<string | undefined>,
  ) {
    super();
  }

  /**
   * Tells the connection about a failure, once however many layers see it (the request helper and
   * the command around it both may): the credits display and its out-of-credits notice follow.
   */
  report(error: unknown, shown = false): void {
    if (typeof error === 'object' && error !== null) {
      if (this.reported.has(error)) return;
      this.reported.add(error);
    }
    this.connection.reportFailure(error, shown);
  }

  /** The shared description, redacted, with the reset time when the failure is out of credits. */
  async describe(error: unknown): Promise<ErrorDescription> {
    this.connection.redactError(error);
    const reset = isQuotaExhausted(error) ? await this.resetTime().catch(() => undefined) : undefined;
    const setup = this.connection.setup;
    return this.connection.redact(
      describeError(error, {
        baseUrl: setup.baseUrl,
        connection: diagnosisContext(setup),
        ...(reset ? { reset } : {}),
      }),
    );
  }

  /** Palette and views: reports, logs and shows the failure; resolves once it is shown (not when a button is pressed). */
  async show(error: unknown, options: ShowOptions): Promise<ErrorDescription> {
    this.report(error, true);
    const description = await this.describe(error);
    this.log.warn(`${options.title}: ${description.detail}`);
    this.present(description, options);
    return description;
  }

  /**
   * The check before any picker: true when the address and a key are set. Otherwise says what is
   * missing at once, with the button that sets it; once set, `rerun` runs the command again.
   */
  requireSetup(title: string, rerun: () => unknown): boolean {
    const missing = missingSetup(this.connection.setup);
    if (!missing) return true;
    this.present(
      describeError(new SetupRequiredError(missing), { baseUrl: this.connection.setup.baseUrl }),
      { title, retry: rerun },
      false,
    );
    return false;
  }

  /** An error notification with one button per action; a pressed button runs its action. */
  present(description: ErrorDescription, options: ShowOptions, offerRetry = true): ShownFailure {
    const actions = description.actions.filter((action) => action !== 'retry' || (offerRetry && options.retry));
    const more = options.more ?? [];
    const buttons = [...actions.map(actionLabel), ...more.map((button) => button.label)];
    const message = `${options.title}: ${description.message}`;
    const shown: ShownFailure = { description, message, buttons };
    this.shownEmitter.fire(shown);
    // Nobody awaits the button: what it runs must not fail unseen.
    void vscode.window.showErrorMessage(message, ...buttons).then(async (choice) => {
      const index = buttons.indexOf(choice ?? '');
      const action = actions[index];
      const own = index >= actions.length ? more[index - actions.length] : undefined;
      if (!action && !own) return;
      try {
        if (action) await this.run(action, description, options.retry);
        else await own?.run();
      } catch (error) {
        const text = errorMessage(error);
        const what = choice ?? '';
        this.log.warn(`${what} after "${options.title}" failed: ${this.connection.redact(text)}`);
        void vscode.window.showErrorMessage(
          vscode.l10n.t('{0} failed: {1}', what, sentence(this.connection.redact(text))),
        );
      }
    });
    return shown;
  }

  private async run(
    action: ErrorAction,
    description: ErrorDescription,
    retry: (() => unknown) | undefined,
  ): Promise<void> {
    switch (action) {
      case 'retry':
        await retry?.();
        return;
      case 'setApiKey':
      case 'setBaseUrl':
        // Set, then go on: the operation runs again once the connection sees the new key or address.
        if (
          (await vscode.commands.executeCommand<boolean>(ACTION_COMMANDS[action].command)) &&
          retry &&
          (await this.settled(action === 'setApiKey' ? 'apiKey' : 'baseUrl'))
        )
          await retry();
        return;
      case 'openSettings':
        // The setting the message names (a proxy, the CA file), else the address for a gateway not reached.
        if (description.setting !== undefined) await openSetting(description.setting);
        else
          await openSettings(
            description.kind === 'unreachable' || description.kind === 'timeout' ? 'baseUrl' : undefined,
          );
        return;
      case 'showLog':
        this.log.show();
        return;
      case 'refreshCredits':
        await vscode.commands.executeCommand(ACTION_COMMANDS.refreshCredits.command);
        return;
    }
  }

  /** Whether the connection got past `missing` (it rebuilds after a settings or key change), within a bound. */
  private settled(missing: MissingSetup): Promise<boolean> {
    const past = (): boolean => missingSetup(this.connection.setup) !== missing;
    if (past()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve(value);
      };
      const listener = this.connection.onDidChange(() => past() && done(true));
      const timer = setTimeout(() => done(past()), SETUP_SETTLE_MS);
    });
  }
}
