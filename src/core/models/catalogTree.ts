// Groups the catalog for the Models view: category, then provider, then model.
import { classifyModel } from './modelCategory';
import type { Model } from '../types/account';
import { MODEL_CATEGORIES, type ModelCategoryName } from '../../shared/settings';
import { categoryOverrides } from './categoryOverrides';

export type CatalogCategory = ModelCategoryName;

const CATEGORY_ORDER: readonly CatalogCategory[] = MODEL_CATEGORIES;

export const CATEGORY_LABELS: Readonly<Record<CatalogCategory, string>> = {
  chat: 'Chat',
  embedding: 'Embedding',
  rerank: 'Rerank',
  transcription: 'Transcription',
  speech: 'Speech',
  image: 'Image',
};

export interface ProviderGroup {
  readonly provider: string;
  readonly models: readonly Model[];
}

export interface CategoryGroup {
  readonly category: CatalogCategory;
  readonly providers: readonly ProviderGroup[];
  readonly count: number;
}

/** The user's override for this id, else the catalog's fields, else a clearly non-chat id, else chat. */
export function categoryOf(model: Model): CatalogCategory {
  return categoryOverrides.of(model.id) ?? classifyModel(model);
}

/** The provider label: the `provider` field, else the id's `provider/` segment, else owned_by. */
export function providerOf(model: Model): string {
  if (typeof model.provider === 'string' && model.provider.trim()) return model.provider.trim();
  const slash = model.id.indexOf('/');
  if (slash > 0) return model.id.slice(0, slash);
  if (typeof model.owned_by === 'string' && model.owned_by.trim()) return model.owned_by.trim();
  return 'unknown provider';
}

function matchesFilter(model: Model, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack =
    `${model.id} ${providerOf(model)} ${categoryOf(model)} ${String(model.provider_info?.status ?? '')}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function groupCatalog(models: readonly Model[], filter = ''): CategoryGroup[] {
  const byCategory = new Map<CatalogCategory, Map<string, Model[]>>();
  for (const model of models) {
    if (!matchesFilter(model, filter)) continue;
    const category = categoryOf(model);
    const providers = byCategory.get(category) ?? new Map<string, Model[]>();
    byCategory.set(category, providers);
    const provider = providerOf(model);
    providers.set(provider, [...(providers.get(provider) ?? []), model]);
  }
  return CATEGORY_ORDER.flatMap((category) => {
    const providers = byCategory.get(category);
    if (!providers) return [];
    const groups = [...providers.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, list]) => ({ provider, models: [...list].sort((a, b) => a.id.localeCompare(b.id)) }));
    return [{ category, providers: groups, count: groups.reduce((sum, group) => sum + group.models.length, 0) }];
  });
}
