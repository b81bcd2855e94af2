import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { createDispatcher, describeProxy, isValidProxyUrl } from '../../core/net/dispatcher';
import { GatewayClient } from '../../core/transport/client';
import { RateLimitError } from '../../core/errors';
import { selectProxy } from '../../core/net/proxy';
import { sendsKeyInClearText } from '../../core/transport/baseUrl';
import type { DiagnosisContext } from '../../core/net/diagnose';
import type { Dispatcher } from 'undici';
import type { ApiKeyStore } from '../apiKey/apiKeyStore';
import { onDidChangeConnectionSettings, readNetworkSettings, readSettings } from '../config';
import type { ConnectionTestOutcome } from '../../core/account/connectionTestPresentation';
import { setContextKey, WALKTHROUGH_KEYS } from '../contextKeys';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';

/** What a feature needs to talk to the gateway, rebuilt whenever a connection setting or the key changes. */
export interface GatewaySetup {
  readonly baseUrl: string;
  readonly hasKey: boolean;
  /** Counts key changes in this session: what was read with another key belongs to another account. */
  readonly keyVersion: number;
  /** Undefined when no gateway address is configured. */
  readonly client: GatewayClient | undefined;
  /** The proxy in use, without credentials, for messages. */
  readonly proxy: string | undefined;
  /** Why the network setup is not what the settings ask (e.g. an unreadable CA file), or not safe (the key in clear text). */
  readonly problem: string | undefined;
  /** The CA certificate file setting ('' when none is set), whether or not it could be read. */
  readonly caCertificateFile: string;
  /** The CA certificate file is set and could not be read. */
  readonly caCertificateUnreadable: boolean;
}

/** What diagnosing a connection failure needs of the setup: the address, and the proxy and CA file in use. */
export function diagnosisContext(setup: GatewaySetup): DiagnosisContext {
  const ca = setup.caCertificateFile
    ? { caCertificateFile: setup.caCertificateFile, caCertificateUnreadable: setup.caCertificateUnreadable }
    : {};
  return { baseUrl: setup.baseUrl, ...(setup.proxy ? { proxyUrl: setup.proxy } : {}), ...ca };
}

/** A failed request, as features report it to the connection. */
export interface RequestFailure {
  readonly error: unknown;
  /** The feature showed it to the user with its fix (a notification, the chat's error card, VS Code's chat). */
  readonly shown: boolean;
}

/**
 * The one GatewayClient of the extension. Settings (ours and VS Code's `http.*`), the proxy
 * environment and the CA file are read here; the key is asked for on every request, so a key set
 * in this or another window applies at once. Features report model use and failures here, and the
 * credits display listens.
 */
export class GatewayConnection extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<GatewaySetup>());
  /**
   * Fires after the client was rebuilt (a connection setting: address, auth header, extra headers,
   * CA file, http proxy settings) or the key changed. Other settings do not fire it: features that
   * read them listen to those settings themselves.
   */
  readonly onDidChange = this.changed.event;
  private readonly modelUsed = this._register(new vscode.EventEmitter<void>());
  /** Fires after any request that used a model (and so may have cost credits). */
  readonly onDidUseModel = this.modelUsed.event;
  private readonly failed = this._register(new vscode.EventEmitter<RequestFailure>());
  /** Fires when a feature's request failed (for the credits display and its out-of-credits notice). */
  readonly onDidFail = this.failed.event;
  private readonly tested = this._register(new vscode.EventEmitter<ConnectionTestOutcome>());
  /** Fires when Test Connection ended, from wherever it ran (the credits item shows the answer). */
  readonly onDidTest = this.tested.event;

  private current: GatewaySetup = {
    baseUrl: '',
    hasKey: false,
    keyVersion: 0,
    client: undefined,
    proxy: undefined,
    problem: undefined,
    caCertificateFile: '',
    caCertificateUnreadable: false,
  };
  /** The current setup's dispatcher, once its first request made it (undici loads then, not during activation). */
  private dispatcher: { made?: Dispatcher } | undefined;
  private generation = 0;

  constructor(
    private readonly apiKeys: ApiKeyStore,
    private readonly log: Log,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this._register(onDidChangeConnectionSettings(() => void this.rebuild()));
    this._register(apiKeys.onDidChange(() => void this.refreshKeyState()));
    this._register({ dispose: () => void this.dispatcher?.made?.close().catch(() => undefined) });
  }

  /** Test Connection's outcome, for the views that show the connection. */
  reportTest(outcome: ConnectionTestOutcome): void {
    this.tested.fire(outcome);
  }

  get setup(): GatewaySetup {
    return this.current;
  }

  /**
   * Builds the first client; call once after construction. `hasKey`: whether activate() found a
   * key (it has read it already: no second SecretStorage round trip).
   */
  async initialize(hasKey?: boolean): Promise<GatewaySetup> {
    return this.rebuild(hasKey);
  }

  reportModelUse(): void {
    this.modelUsed.fire();
  }

  /** See ApiKeyStore.redact: features that show or keep gateway answers pass them through here. */
  redact<T>(value: T): T {
    return this.apiKeys.redact(value);
  }

  redactError<E>(error: E): E {
    return this.apiKeys.redactError(error);
  }

  /** `shown`: the feature shows this failure itself, with its fix (so the credits notice need not). */
  reportFailure(error: unknown, shown = false): void {
    if (error instanceof RateLimitError && error.quotaExhausted) this.log.warn('A request failed: out of credits.');
    this.failed.fire({ error, shown });
  }

  async rebuild(knownHasKey?: boolean): Promise<GatewaySetup> {
    const generation = ++this.generation;
    const settings = readSettings();
    const network = readNetworkSettings();
    const hasKey = knownHasKey ?? !!(await this.apiKeys.get());
    let problem: string | undefined;
    let ca: string | undefined;
    let caCertificateUnreadable = false;
    if (settings.caCertificateFile) {
      try {
        ca = await readFile(settings.caCertificateFile, 'utf8');
      } catch (error) {
        caCertificateUnreadable = true;
        problem = `The CA certificate file ${settings.caCertificateFile} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); the default certificate authorities are used.`;
      }
    }
    if (settings.baseUrl && sendsKeyInClearText(settings.baseUrl)) {
      // Said wherever the connection's problems are (credits tooltip, Test Connection, log): it works, but not safely.
      const clear = vscode.l10n.t(
        'The gateway address {0} is http:// on another machine: the API key and everything sent travel in clear text. Use https://.',
        settings.baseUrl,
      );
      problem = problem ? `${problem} ${clear}` : clear;
    }
    if (generation !== this.generation || this.isDisposed) return this.current;

    const proxyUrl = settings.baseUrl ? this.proxyFor(settings.baseUrl, network) : undefined;
    if (proxyUrl && !isValidProxyUrl(proxyUrl)) {
      // Said now (tooltip, log), not only by the first request, which fails with the same words.
      const proxyProblem = `The proxy address ${describeProxy(proxyUrl)} (VS Code's http.proxy setting or the proxy environment) is not a valid URL (expected http://host:port): requests fail until it is corrected.`;
      problem = problem ? `${problem} ${proxyProblem}` : proxyProblem;
    }
    const previous = this.dispatcher;
    const slot: { made?: Dispatcher } = {};
    this.dispatcher = settings.baseUrl ? slot : undefined;
    void previous?.made?.close().catch(() => undefined);

    const client = settings.baseUrl
      ? new GatewayClient({
          baseUrl: settings.baseUrl,
          apiKey: async () => (await this.apiKeys.get())?.value,
          // Streamed answers are redacted of every key seen in this session, not only the current one.
          knownSecrets: () => this.apiKeys.knownSecrets(),
          authHeader: settings.authHeader,
          headers: { ...settings.extraHeaders },
          dispatcher: () => (slot.made ??= createDispatcher({ proxyUrl, strictSSL: network.strictSSL, ca })),
        })
      : undefined;
    const proxy = proxyUrl ? describeProxy(proxyUrl) : undefined;
    this.current = {
      baseUrl: settings.baseUrl,
      hasKey,
      keyVersion: this.current.keyVersion,
      client,
      proxy,
      problem,
      caCertificateFile: settings.caCertificateFile,
      caCertificateUnreadable,
    };
    if (problem) this.log.warn(problem);
    this.log.info(`Gateway: ${settings.baseUrl || '(not configured)'}${proxy ? ` through proxy ${proxy}` : ''}.`);
    this.publishContext();
    this.changed.fire(this.current);
    return this.current;
  }

  private proxyFor(baseUrl: string, network: ReturnType<typeof readNetworkSettings>): string | undefined {
    try {
      return selectProxy(baseUrl, {
        proxy: network.proxy || undefined,
        noProxy: [...network.noProxy],
        env: this.environment,
      });
    } catch {
      return undefined; // an unparsable address: the client reports it on the first request
    }
  }

  private async refreshKeyState(): Promise<void> {
    const hasKey = !!(await this.apiKeys.get());
    if (this.isDisposed) return;
    this.current = { ...this.current, hasKey, keyVersion: this.current.keyVersion + 1 };
    this.publishContext();
    this.changed.fire(this.current);
  }

  /** Welcome views, menus and the walkthrough read these context keys. */
  private publishContext(): void {
    setContextKey(WALKTHROUGH_KEYS.hasBaseUrl, !!this.current.baseUrl);
    setContextKey(WALKTHROUGH_KEYS.hasApiKey, this.current.hasKey);
  }
}
