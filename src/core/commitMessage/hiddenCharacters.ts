// The characters that act or hide without being seen: controls, format characters (bidi marks
// and overrides, zero-width joiners, tag characters U+E0000-E007F that spell hidden text, the soft
// hyphen, U+061C), line and paragraph separators, private use, unassigned and lone surrogates,
// look-alike spaces, fillers that draw as nothing, variation selectors. The same set as
// src/shared/visibleControls.ts's HIDDEN, which shows them as badges; core cannot import shared,
// so a unit test (test/unit/core/commitMessage.test.ts) holds the two equal over every code point.

/** One hidden character (not global: safe for `test`). */
// eslint-disable-next-line no-misleading-character-class -- each combining mark and variation selector is one match on its own, on purpose
export const HIDDEN_CHARACTER =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

// eslint-disable-next-line no-misleading-character-class -- the same class as HIDDEN_CHARACTER, global
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu');
/** The hidden characters that stand for a space: a space they become, so words stay apart. */
const SPACE_LIKE = /^[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u2028\u2029]$/u;

/** The text with every hidden character replaced: look-alike spaces by a space, the rest by `other`; line feeds kept when asked. */
export function hiddenCharactersOut(text: string, other: string, keepLineFeeds: boolean): string {
  return text.replace(HIDDEN_CHARACTERS, (char) =>
    char === '\n' && keepLineFeeds ? char : SPACE_LIKE.test(char) ? ' ' : other,
  );
}
