import * as vscode from 'vscode';
import type { Model } from '../../core/types/account';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import {
  categoryOf,
  groupCatalog,
  type CatalogCategory,
  type CategoryGroup,
  type ProviderGroup,
} from '../../core/models/catalogTree';
import { categoryOverrides } from '../../core/models/categoryOverrides';
import { modelTooltip } from '../../core/models/modelTooltip';
import { categoryLabel } from './categoryLabel';
import type { ModelCatalog } from './modelCatalog';

const MODELS_VIEW_ID = 'unifiedInference.models';

type Node =
  | { readonly kind: 'category'; readonly group: CategoryGroup }
  | { readonly kind: 'provider'; readonly category: CatalogCategory; readonly group: ProviderGroup }
  | { readonly kind: 'model'; readonly model: Model };

const CATEGORY_ICONS: Readonly<Record<CatalogCategory, string>> = {
  chat: 'comment-discussion',
  embedding: 'symbol-array',
  rerank: 'list-ordered',
  transcription: 'mic',
  speech: 'unmute',
  image: 'file-media',
};

function age(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return vscode.l10n.t('just now');
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  return vscode.l10n.t('{0} h ago', Math.round(minutes / 60));
}

/** The Models view: the catalog by category and provider, with filter, refresh and defaults. */
export class ModelsView extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this._register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Node>;
  private filter = '';

  constructor(private readonly catalog: ModelCatalog) {
    super();
    this.view = this._register(
      vscode.window.createTreeView(MODELS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }),
    );
    // Also fires when a default model setting changes (the stars move).
    this._register(catalog.onDidChange(() => this.update()));
    this.update();
  }

  get filterText(): string {
    return this.filter;
  }

  /** The line above the tree (loading, a failed refresh, the filter), as shown. */
  get message(): string | undefined {
    return this.view.message;
  }

  /** The groups shown now (for tests). */
  groups(): CategoryGroup[] {
    return groupCatalog(this.catalog.snapshot?.models ?? [], this.filter);
  }

  async promptFilter(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Filter Models'),
      prompt: vscode.l10n.t('Words that the model id, provider, category or status must contain (empty shows all).'),
      value: this.filter,
    });
    if (value !== undefined) this.setFilter(value);
  }

  setFilter(value: string): void {
    this.filter = value.trim();
    void vscode.commands.executeCommand('setContext', 'unifiedInference.models.filterActive', this.filter !== '');
    this.update();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'category': {
        const item = new vscode.TreeItem(categoryLabel(node.group.category), vscode.TreeItemCollapsibleState.Expanded);
        item.description = String(node.group.count);
        item.iconPath = new vscode.ThemeIcon(CATEGORY_ICONS[node.group.category]);
        item.id = `category:${node.group.category}`;
        return item;
      }
      case 'provider': {
        const item = new vscode.TreeItem(node.group.provider, vscode.TreeItemCollapsibleState.Expanded);
        item.description = String(node.group.models.length);
        item.iconPath = new vscode.ThemeIcon('organization');
        item.id = `provider:${node.category}:${node.group.provider}`;
        return item;
      }
      case 'model': {
        const { model } = node;
        const slash = model.id.indexOf('/');
        const item = new vscode.TreeItem(
          slash > 0 ? model.id.slice(slash + 1) : model.id,
          vscode.TreeItemCollapsibleState.None,
        );
        const category = categoryOf(model);
        const isDefault = readSettings().defaultModels[category] === model.id;
        const status = typeof model.provider_info?.status === 'string' ? model.provider_info.status : undefined;
        item.description = [isDefault ? vscode.l10n.t('default') : undefined, status].filter(Boolean).join(' · ');
        item.iconPath = new vscode.ThemeIcon(
          isDefault
            ? 'star-full'
            : status && !/^(ok|operational|active|available|online|healthy)$/i.test(status)
              ? 'warning'
              : 'circle-small-filled',
        );
        // Catalog text is escaped inside: the markdown stays untrusted and without HTML.
        item.tooltip = new vscode.MarkdownString(
          modelTooltip(
            model,
            {
              category: categoryLabel(category),
              categoryChosen: categoryOverrides.of(model.id) !== undefined,
              isDefault,
            },
            vscode.l10n,
          ),
        );
        item.contextValue = 'model';
        item.id = `model:${model.id}`;
        item.accessibilityInformation = {
          label: [model.id, isDefault ? vscode.l10n.t('default') : undefined, status].filter(Boolean).join(', '),
        };
        return item;
      }
    }
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups().map((group) => ({ kind: 'category', group }));
    if (node.kind === 'category')
      return node.group.providers.map((group) => ({ kind: 'provider', category: node.group.category, group }));
    if (node.kind === 'provider') return node.group.models.map((model) => ({ kind: 'model', model }));
    return [];
  }

  private update(): void {
    const snapshot = this.catalog.snapshot;
    const status = this.catalog.status;
    const total = snapshot?.models.length ?? 0;
    const shown = this.groups().reduce((sum, group) => sum + group.count, 0);
    const messages: string[] = [];
    if (status.kind === 'loading') messages.push(vscode.l10n.t('Loading the catalog...'));
    if (status.kind === 'error')
      messages.push(
        snapshot
          ? vscode.l10n.t('Could not refresh the catalog (showing the cached one): {0}', status.message)
          : vscode.l10n.t('Could not refresh the catalog: {0}', status.message),
      );
    if (this.filter) messages.push(vscode.l10n.t('Filter "{0}": {1} of {2} models.', this.filter, shown, total));
    this.view.message = messages.join(' ') || undefined;
    this.view.description = snapshot
      ? vscode.l10n.t('{0} models · {1}', total, age(Date.now() - snapshot.fetchedAt))
      : undefined;
    this.changed.fire(undefined);
  }
}
