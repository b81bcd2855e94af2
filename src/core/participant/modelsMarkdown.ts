// /models: the catalog as markdown, grouped by category then provider, the defaults marked. Pure.
import type { Model } from '../types/account';
import { MODEL_CATEGORIES, type ModelCategoryName } from '../../shared/settings';
import { CATEGORY_LABELS, groupCatalog } from '../models/catalogTree';
import { escapeMarkdown, inlineCode } from '../../shared/markdownText';

export function modelsMarkdown(
  models: readonly Model[],
  defaults: Readonly<Record<ModelCategoryName, string>>,
  fetchedAt: number | undefined,
): string {
  if (models.length === 0) return 'The gateway lists no models.';
  const defaultIds = new Set(MODEL_CATEGORIES.map((category) => defaults[category]).filter(Boolean));
  const lines: string[] = [
    `**${models.length} models** on the gateway${fetchedAt ? ` (read ${new Date(fetchedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC)` : ''}. ★ marks your defaults.`,
    '',
  ];
  for (const group of groupCatalog(models)) {
    lines.push(`### ${CATEGORY_LABELS[group.category]} (${group.count})`, '');
    for (const provider of group.providers) {
      for (const model of provider.models) {
        const status =
          typeof model.provider_info?.status === 'string' && model.provider_info.status !== 'operational'
            ? ` · ${escapeMarkdown(model.provider_info.status)}`
            : '';
        const star = defaultIds.has(model.id) ? ' ★ default' : '';
        lines.push(`- ${inlineCode(model.id)} · ${escapeMarkdown(provider.provider)}${status}${star}`);
      }
    }
    lines.push('');
  }
  const unset = MODEL_CATEGORIES.filter((category) => !defaults[category]);
  if (unset.length)
    lines.push(
      `No default set for: ${unset.map((category) => CATEGORY_LABELS[category]).join(', ')} (the first model of the category is used).`,
    );
  const missing = [...defaultIds].filter((id) => !models.some((model) => model.id === id));
  if (missing.length) lines.push('', `Defaults the gateway does not list: ${missing.map(inlineCode).join(', ')}.`);
  return lines.join('\n').trim();
}
