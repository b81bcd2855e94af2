// A suggestion stays good while the user types what it says: the rest of it is shown again with
// no new request (what every good completer does; a request per typed character would pay for
// the same text over and over).

/** A suggestion as it was shown: where, and the text around that place. */
export interface ShownCompletion {
  readonly document: string;
  /** The cursor's offset in the document when it was shown. */
  readonly offset: number;
  readonly insertion: string;
  /** The last characters before the cursor then (a check that the text before it is unchanged). */
  readonly before: string;
  /** The first characters after the cursor then. */
  readonly after: string;
}

/** How much text around the cursor must be unchanged for a shown suggestion to still fit. */
const TYPED_THROUGH_CONTEXT_CHARS = 200;

export function shownCompletion(
  document: string,
  offset: number,
  prefix: string,
  suffix: string,
  insertion: string,
): ShownCompletion {
  return {
    document,
    offset,
    insertion,
    before: prefix.slice(-TYPED_THROUGH_CONTEXT_CHARS),
    after: suffix.slice(0, TYPED_THROUGH_CONTEXT_CHARS),
  };
}

/**
 * What is left of `shown` when the cursor is at `offset` with `prefix` before it and `suffix` after
 * it; undefined when the user typed something else, moved elsewhere, or typed all of it. Work is
 * bounded by the suggestion and the context checked, not by the document.
 */
export function typedThrough(
  shown: ShownCompletion | undefined,
  document: string,
  offset: number,
  prefix: string,
  suffix: string,
): string | undefined {
  if (!shown || shown.document !== document) return undefined;
  const typed = offset - shown.offset;
  if (typed < 0 || typed >= shown.insertion.length || prefix.length < typed) return undefined;
  if (typed > 0 && prefix.slice(prefix.length - typed) !== shown.insertion.slice(0, typed)) return undefined;
  const before = prefix.slice(Math.max(0, prefix.length - typed - shown.before.length), prefix.length - typed);
  if (before !== shown.before) return undefined;
  if (suffix.slice(0, shown.after.length) !== shown.after) return undefined;
  return shown.insertion.slice(typed);
}
