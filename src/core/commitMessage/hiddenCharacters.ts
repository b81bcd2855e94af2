// The characters that act or hide without being seen: controls, format characters (bidi marks
// and overrides, zero-width joiners, tag characters U+E0000-E007F that spell hidden text, the soft
// hyphen, U+061C), line and paragraph separators, private use, unassigned and lone surrogates,
// look-alike spaces, fillers that draw as nothing, variation selectors: src/shared/visibleControls.ts's
// HIDDEN, which the chat shows as badges.
import { HIDDEN } from '../../shared/visibleControls';

/** One hidden character (not global: safe for `test`). */
export const HIDDEN_CHARACTER = HIDDEN;

const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu');
/** The hidden characters that stand for a space: a space they become, so words stay apart. */
const SPACE_LIKE = /^[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u2028\u2029]$/u;

/** The text with every hidden character replaced: look-alike spaces by a space, the rest by `other`; line feeds kept when asked. */
export function hiddenCharactersOut(text: string, other: string, keepLineFeeds: boolean): string {
  return text.replace(HIDDEN_CHARACTERS, (char) =>
    char === '\n' && keepLineFeeds ? char : SPACE_LIKE.test(char) ? ' ' : other,
  );
}
