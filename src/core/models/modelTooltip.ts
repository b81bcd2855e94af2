// The Models view's tooltip for one model: the fields a user picks a model by (provider, category,
// status, context length, prices per million tokens), one labelled line each, instead of every
// field the catalog sent. Catalog text is untrusted: each value is escaped so it shows as the text
// it is, never as a link, an image, HTML or emphasis.
import { escapeMarkdown } from '../../shared/markdownText';
import { ENGLISH, type Translator } from '../../shared/translator';
import { catalogContextLength, catalogMaxOutputTokens } from '../context/contextLength';
import { isRecord } from '../parse/json';
import type { Model } from '../types/account';
import { providerOf } from './catalogTree';
import { modelPricing } from './modelPricing';

export interface TooltipFacts {
  /** The model's category in the display language. */
  readonly category: string;
  /** The user moved it to that category (Change Category...). */
  readonly categoryChosen: boolean;
  /** It is the default model of its category. */
  readonly isDefault: boolean;
}

/** Text from the catalog as markdown that shows exactly that text: no emphasis, links or autolinks. */
export function plainMarkdown(text: string): string {
  return escapeMarkdown(text)
    .replace(/:\/\//g, '\\://')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/@/g, '\\@');
}

/** 128000 -> "128,000" (the same in every display language, as the balance is). */
function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** USD per million tokens: "$0.15", "$2.50", "$0.075" (cents at least, no float noise). */
function price(usdPerMillion: number): string {
  const digits = usdPerMillion.toFixed(6).replace(/0+$/, '');
  const [whole = '0', cents = ''] = digits.split('.');
  return `$${grouped(Number(whole))}.${cents.padEnd(2, '0')}`;
}

/** An input-only price (embeddings list one), per million tokens, as modelPricing reads `pricing.input`. */
function inputOnlyPrice(model: Model): number | undefined {
  const pricing = isRecord(model.pricing) ? model.pricing : undefined;
  if (!pricing || pricing.output !== undefined || pricing.completion !== undefined) return undefined;
  const perMillion = (value: unknown, perToken: boolean): number | undefined => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
    return Number.isFinite(n) && n >= 0 ? (perToken ? n * 1e6 : n) : undefined;
  };
  if (pricing.prompt !== undefined) return perMillion(pricing.prompt, true);
  return pricing.unit === undefined ? perMillion(pricing.input, false) : undefined;
}

function priceLine(model: Model, l10n: Translator): string | undefined {
  const pricing = modelPricing(model);
  if (pricing)
    return l10n.t('{0} in / {1} out per million tokens', price(pricing.input * 1e6), price(pricing.output * 1e6));
  const input = inputOnlyPrice(model);
  return input === undefined ? undefined : l10n.t('{0} per million input tokens', price(input));
}

/** The tooltip's markdown: the id, then one line per field the catalog lists. */
export function modelTooltip(model: Model, facts: TooltipFacts, l10n: Translator = ENGLISH): string {
  const line = (label: string, value: string): string => `**${label}:** ${value}`;
  const status = typeof model.provider_info?.status === 'string' ? model.provider_info.status.trim() : '';
  const context = catalogContextLength(model);
  const output = catalogMaxOutputTokens(model);
  const cost = priceLine(model, l10n);
  const category = [
    facts.category,
    ...(facts.categoryChosen ? [l10n.t('your choice')] : []),
    ...(facts.isDefault ? [l10n.t('the default')] : []),
  ];
  const lines = [
    line(l10n.t('Provider'), plainMarkdown(providerOf(model))),
    line(
      l10n.t('Category'),
      plainMarkdown(category.length > 1 ? `${category[0] ?? ''} (${category.slice(1).join(', ')})` : facts.category),
    ),
    ...(status ? [line(l10n.t('Status'), plainMarkdown(status))] : []),
    ...(context ? [line(l10n.t('Context'), l10n.t('{0} tokens', grouped(context)))] : []),
    ...(output ? [line(l10n.t('Longest answer'), l10n.t('{0} tokens', grouped(output)))] : []),
    ...(cost ? [line(l10n.t('Price'), cost)] : []),
  ];
  // Two spaces: a line break inside one paragraph (a blank line between each would space them out).
  return `**${plainMarkdown(model.id)}**\n\n${lines.join('  \n')}`;
}
