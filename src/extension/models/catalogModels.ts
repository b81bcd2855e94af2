import type { Model } from '../../core/types/account';
import type { ModelCategoryName } from '../../shared/settings';
import { readSettings } from '../config';
import type { ModelCatalog } from './modelCatalog';
import { chooseModel, type ChosenModel } from '../../core/models/defaultModel';
import { escapeMarkdown } from '../../shared/markdownText';

const SETTLE_TIMEOUT_MS = 30_000;

/**
 * The catalog of the configured gateway, read now if it was never read. A refresh that a newer
 * one superseded (the catalog also refreshes itself when the connection changes, e.g. just after
 * start) answers before the catalog is there: wait for the read in flight.
 */
export async function catalogModels(catalog: ModelCatalog): Promise<readonly Model[] | undefined> {
  const snapshot = catalog.snapshot ?? (await catalog.refresh());
  if (snapshot || catalog.status.kind !== 'loading') return snapshot?.models;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, SETTLE_TIMEOUT_MS);
    const listener = catalog.onDidChange(() => catalog.status.kind !== 'loading' && done());
  });
  return catalog.snapshot?.models;
}

/** The model a command uses for `category`: the user's default, else the catalog's first of that kind. */
export async function modelFor(catalog: ModelCatalog, category: ModelCategoryName): Promise<ChosenModel | undefined> {
  const configured = readSettings().defaultModels[category];
  // A configured default needs no catalog read; the catalog only adds the provider when cached.
  return chooseModel(category, configured, configured ? catalog.snapshot?.models : await catalogModels(catalog));
}

/** Why no model of a category could be chosen, for the chat. */
export function noModelText(catalog: ModelCatalog, kind: string): string {
  if (!catalog.snapshot) {
    const status = catalog.status;
    const why = status.kind === 'error' ? ` ${escapeMarkdown(status.message)}` : '';
    return `The model catalog could not be read, and no default ${kind} model is set.${why}`;
  }
  return `The gateway lists no ${kind} model, and no default ${kind} model is set.`;
}
