// Which model a participant command uses.
import type { Model } from '../types/account';
import type { ModelCategoryName } from '../../shared/settings';
import { categoryOf, providerOf } from './catalogTree';

export interface ChosenModel {
  readonly id: string;
  /** The provider label when the catalog knows the model (lets `chat.api: auto` pick the endpoint). */
  readonly provider?: string;
}

/** The user's default for the category, else the catalog's first model of it (the gateway's own order). */
export function chooseModel(
  category: ModelCategoryName,
  configured: string,
  models: readonly Model[] | undefined,
): ChosenModel | undefined {
  const list = models ?? [];
  if (configured) {
    const known = list.find((model) => model.id === configured);
    return known ? { id: configured, provider: providerOf(known) } : { id: configured };
  }
  const first = list.find((model) => categoryOf(model) === category);
  return first ? { id: first.id, provider: providerOf(first) } : undefined;
}
