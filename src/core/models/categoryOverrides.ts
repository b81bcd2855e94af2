// The user's corrections of model categories (`unifiedInference.models.categoryOverrides`), held
// here so every picker that asks `categoryOf` sees them without each caller reading settings.
// ModelCatalog sets it from the settings, tests set it directly.
import type { ModelCategoryName } from '../../shared/settings';

let overrides: Readonly<Record<string, ModelCategoryName>> = {};

export const categoryOverrides = {
  set(value: Readonly<Record<string, ModelCategoryName>>): void {
    overrides = value;
  },
  /** The user's category for this id, if they chose one (own-property only: ids like `__proto__` are just ids). */
  of(id: string): ModelCategoryName | undefined {
    return Object.prototype.hasOwnProperty.call(overrides, id) ? overrides[id] : undefined;
  },
  get all(): Readonly<Record<string, ModelCategoryName>> {
    return overrides;
  },
};
