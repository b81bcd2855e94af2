// What building the semantic index would cost, said before the user is asked to build it: the
// files it would take, their tokens (estimated from their size: embedding tokenizers average about
// four bytes a token on code and prose) and the price when the embedding model's catalog entry
// lists one. An estimate, and it says so (≈): the gateway charges what it counts.
import { formatCredits } from '../account/creditsFormat';
import { ENGLISH, type Translator } from '../../shared/translator';

const BYTES_PER_TOKEN = 4;

export interface IndexEstimate {
  readonly files: number;
  readonly bytes: number;
  readonly tokens: number;
  /** Absent when the catalog lists no price for the embedding model. */
  readonly usd?: number;
}

/** `sizes`: the bytes of each file the index would embed; `usdPerToken`: the embedding model's input price. */
export function estimateIndexBuild(sizes: readonly number[], usdPerToken?: number): IndexEstimate {
  const bytes = sizes.reduce((sum, size) => sum + (Number.isFinite(size) && size > 0 ? size : 0), 0);
  const tokens = Math.ceil(bytes / BYTES_PER_TOKEN);
  return {
    files: sizes.length,
    bytes,
    tokens,
    ...(usdPerToken !== undefined && Number.isFinite(usdPerToken) ? { usd: tokens * usdPerToken } : {}),
  };
}

const grouped = (value: number): string => value.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "Build the semantic index? 12 files, ≈ 3,400 tokens, ≈ $0.01": the question the approval asks. */
export function indexOfferText(estimate: IndexEstimate, l10n: Translator = ENGLISH): string {
  const files = estimate.files === 1 ? l10n.t('1 file') : l10n.t('{0} files', grouped(estimate.files));
  const cost =
    estimate.usd === undefined
      ? l10n.t('price not listed by the gateway')
      : l10n.t('≈ {0}', formatCredits(estimate.usd));
  return l10n.t('Build the semantic index? {0}, ≈ {1} tokens, {2}.', files, grouped(estimate.tokens), cost);
}
