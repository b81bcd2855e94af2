import * as vscode from 'vscode';
import { catalogEntry } from '../../core/parse/catalogEntry';
import type { Model } from '../../core/types/account';
import { onDidChangeSettingsUnder, readSettings } from '../config';
import { diagnosisContext, type GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { categoryOverrides } from '../../core/models/categoryOverrides';
import { describeError } from '../../core/failures/describeError';
import { errorMessage } from '../../shared/errorMessage';

const CACHE_KEY = 'unifiedInference.modelCatalog';

/**
 * The catalog as last read from a gateway, with when (kept in globalState: model ids are not
 * secrets). Each model holds only the fields the extension reads (catalogEntry), redacted: the
 * gateway's answer may carry anything, an echoed key included, and extension state is on disk.
 */
export interface CatalogSnapshot {
  readonly baseUrl: string;
  readonly fetchedAt: number;
  readonly models: readonly Model[];
}

/** `message`: the shared description of the failure (sentences that end with a full stop). */
export type CatalogStatus =
  { readonly kind: 'idle' } | { readonly kind: 'loading' } | { readonly kind: 'error'; readonly message: string };

/**
 * The gateway's model catalog, cached with a time stamp so pickers open at once; refreshed when the
 * gateway or key changes and on request.
 */
export class ModelCatalog extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private snapshotValue: CatalogSnapshot | undefined;
  private statusValue: CatalogStatus = { kind: 'idle' };
  private sequence = 0;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly state: vscode.Memento,
    private readonly log: Log,
  ) {
    super();
    this.snapshotValue = this.kept(state.get<unknown>(CACHE_KEY));
    this._register(connection.onDidChange(() => void this.refresh()));
    // The default models mark entries of the catalog: whoever shows it (the Models view, the chat's
    // model picker) re-reads; the connection is not built from these settings, so it stays.
    this._register(onDidChangeSettingsUnder('defaultModels', () => this.changed.fire()));
    // The user's category corrections move models between pickers (VS Code's chat among them).
    categoryOverrides.set(readSettings().categoryOverrides);
    this._register(
      onDidChangeSettingsUnder('models.categoryOverrides', () => {
        categoryOverrides.set(readSettings().categoryOverrides);
        this.changed.fire();
      }),
    );
  }

  /**
   * The cached catalog of the configured gateway (undefined if none was read yet, and while no
   * key is set: without a key the views show their "set key" welcome, not a catalog of old).
   */
  get snapshot(): CatalogSnapshot | undefined {
    const snapshot = this.snapshotValue;
    const { baseUrl, hasKey } = this.connection.setup;
    return snapshot && hasKey && snapshot.baseUrl === baseUrl ? snapshot : undefined;
  }

  /** The model of that id in the cached catalog (undefined when the catalog does not list it, or none is read). */
  model(id: string): Model | undefined {
    return this.snapshot?.models.find((model) => model.id === id);
  }

  get status(): CatalogStatus {
    return this.statusValue;
  }

  async refresh(): Promise<CatalogSnapshot | undefined> {
    const sequence = ++this.sequence;
    const { baseUrl, hasKey, client } = this.connection.setup;
    if (!client || !hasKey) {
      this.setStatus({ kind: 'idle' });
      return undefined;
    }
    this.setStatus({ kind: 'loading' });
    try {
      const models = await client.models.list({ timeoutMs: 30_000 });
      if (sequence !== this.sequence) return this.snapshot;
      this.snapshotValue = { baseUrl, fetchedAt: Date.now(), models: this.keptModels(models) };
      await this.state.update(CACHE_KEY, this.snapshotValue);
      this.setStatus({ kind: 'idle' });
      return this.snapshotValue;
    } catch (error) {
      if (sequence !== this.sequence) return this.snapshot;
      this.log.warn(`Could not read the model catalog: ${errorMessage(error)}`);
      this.connection.reportFailure(error);
      // What every feature says about this failure (cause, then next step), not the error's raw text.
      const { message } = describeError(error, { baseUrl, connection: diagnosisContext(this.connection.setup) });
      this.setStatus({ kind: 'error', message: this.connection.redact(message) });
      return this.snapshot;
    }
  }

  /** A snapshot as stored (untrusted: globalState may hold anything), checked and cut down like a fresh one. */
  private kept(stored: unknown): CatalogSnapshot | undefined {
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { baseUrl, fetchedAt, models } = stored as Record<string, unknown>;
    if (typeof baseUrl !== 'string' || typeof fetchedAt !== 'number' || !Array.isArray(models)) return undefined;
    return { baseUrl, fetchedAt, models: this.keptModels(models) };
  }

  private keptModels(models: readonly unknown[]): Model[] {
    return this.connection.redact(models.map(catalogEntry).filter((model): model is Model => model !== undefined));
  }

  private setStatus(status: CatalogStatus): void {
    this.statusValue = status;
    this.changed.fire();
  }
}
