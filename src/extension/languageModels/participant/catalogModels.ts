import type { Model } from '../../../core/index';
import type { ModelCategoryName } from '../../../shared/settings';
import { readSettings } from '../../config';
import type { ModelCatalog } from '../../models/modelCatalog';
import { chooseModel, type ChosenModel } from './defaultModel';

/** The catalog of the configured gateway, read now if it was never read. */
export async function catalogModels(catalog: ModelCatalog): Promise<readonly Model[] | undefined> {
  return (catalog.snapshot ?? (await catalog.refresh()))?.models;
}

/** The model a command uses for `category`: the user's default, else the catalog's first of that kind. */
export async function modelFor(catalog: ModelCatalog, category: ModelCategoryName): Promise<ChosenModel | undefined> {
  const configured = readSettings().defaultModels[category];
  // A configured default needs no catalog read; the catalog only adds the provider when cached.
  return chooseModel(category, configured, configured ? catalog.snapshot?.models : await catalogModels(catalog));
}
