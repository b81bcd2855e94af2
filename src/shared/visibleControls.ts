// A terminal command as the approval card must show it: every character that would act without
// being seen (controls such as ESC or CR, bidirectional overrides such as U+202E that reorder what
// follows, zero-width and look-alike spaces, tag characters that hide text) becomes a visible
// escape, so what the user reads is what the shell gets. Only the display changes: the command that
// runs is the model's text, byte for byte. Pure: the webview draws the segments as badges.

export type VisibleSegment =
  | { readonly kind: 'text'; readonly text: string }
  /** `badge` is what is drawn (`⟨U+202E⟩`, `⟨\x1b⟩`, `⟨U+200B ×3⟩` for a run); `name` says what it is. */
  | { readonly kind: 'control'; readonly badge: string; readonly name: string };

// Cc controls, Cf format characters (bidi marks and overrides, zero-width joiners, tags, soft
// hyphen), surrogates, private use and unassigned code points, line and paragraph separators, the
// spaces that look like a space but are not one to a shell, fillers that draw as nothing, and
// variation selectors. A line feed stays a line break: it is seen. The one definition: commit
// messages (src/core/commitMessage/hiddenCharacters.ts) and completions (completionText.ts) use it.
export const HIDDEN =
  // eslint-disable-next-line no-misleading-character-class -- each combining mark and variation selector is one match on its own, on purpose
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NULL',
  0x08: 'BACKSPACE',
  0x09: 'TAB',
  0x0b: 'VERTICAL TAB',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x00a0: 'NO-BREAK SPACE',
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

const hex = (code: number, width: number): string => code.toString(16).toUpperCase().padStart(width, '0');

/** How one hidden character is written: C escapes for the C0 and C1 controls (as a shell user reads them), U+ for the rest. */
function escapeOf(code: number): string {
  if (code === 0x09) return '\\t';
  if (code === 0x0d) return '\\r';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\x${hex(code, 2).toLowerCase()}`;
  return `U+${hex(code, 4)}`;
}

function nameOf(code: number): string {
  const known = NAMES[code];
  if (known) return known;
  if (code >= 0xe0000 && code <= 0xe007f) return 'TAG CHARACTER (invisible)';
  if (code >= 0xd800 && code <= 0xdfff) return 'LONE SURROGATE';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'CONTROL CHARACTER';
  return 'INVISIBLE OR FORMAT CHARACTER';
}

/** The text cut into plain runs and hidden characters; a run of one hidden character is one badge with its count. */
export function visibleControls(text: string): VisibleSegment[] {
  const segments: VisibleSegment[] = [];
  let plain = '';
  let runCode = -1;
  let runCount = 0;
  const flushRun = (): void => {
    if (runCount === 0) return;
    segments.push({
      kind: 'control',
      badge: `⟨${escapeOf(runCode)}${runCount > 1 ? ` ×${runCount}` : ''}⟩`,
      name: nameOf(runCode),
    });
    runCount = 0;
    runCode = -1;
  };
  // for..of walks code points, so an astral character (an emoji) stays whole and a lone surrogate comes alone.
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char !== '\n' && HIDDEN.test(char)) {
      if (plain) segments.push({ kind: 'text', text: plain });
      plain = '';
      if (code !== runCode) flushRun();
      runCode = code;
      runCount++;
      continue;
    }
    flushRun();
    plain += char;
  }
  flushRun();
  if (plain) segments.push({ kind: 'text', text: plain });
  return segments;
}

/** The same as one string (for an accessible name): each hidden character replaced by its badge. */
export function visibleText(text: string): string {
  return visibleControls(text)
    .map((segment) => (segment.kind === 'text' ? segment.text : segment.badge))
    .join('');
}

/** Whether the text holds anything `visibleControls` would draw as a badge. */
export function hasHiddenCharacters(text: string): boolean {
  return visibleControls(text).some((segment) => segment.kind === 'control');
}
