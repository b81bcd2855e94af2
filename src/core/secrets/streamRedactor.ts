// Redaction of text that arrives in pieces. Redacting each delta alone misses a key split across
// two deltas (`sk-ab` + `cdef…`), and every consumer of a stream (the chat panel, its journal on
// disk, VS Code's chat, another extension through vscode.lm) would get both halves. This holds
// back the end of what arrived while it could still be the start of a secret form, and hands on
// only text that no later delta can turn into a secret. Nothing received is lost: flush() hands
// on what is held (at the end, on an error, on a stop). Cost: each delta is scanned with what is
// held (at most twice the longest form), so a stream costs time linear in its length.
import {
  foldCase,
  MIN_SECRET_LENGTH,
  replaceRanges,
  secretPatterns,
  secretRanges,
  type SecretPatterns,
} from './secretForms';
import { REDACTED } from './redact';

export class StreamRedactor {
  private readonly patterns: SecretPatterns;
  /** First characters of the forms: a held tail can only start at one of them. */
  private readonly starts: ReadonlySet<string>;
  private pending = '';

  constructor(secrets: readonly (string | undefined)[]) {
    this.patterns = secretPatterns(secrets.filter((secret) => !!secret && secret.length >= MIN_SECRET_LENGTH));
    this.starts = new Set(this.patterns.forms.map((form) => form[0] ?? ''));
  }

  /** What of the text so far can be handed on now ('' while all of it may begin a secret). */
  push(delta: string): string {
    if (this.patterns.forms.length === 0) return delta;
    const text = this.pending + delta;
    const folded = foldCase(text);
    const ranges = secretRanges(folded, this.patterns);
    let boundary = this.heldFrom(folded);
    // A tail that starts inside a complete secret: hold the whole secret, never half of it.
    for (const [start, end] of ranges) if (start < boundary && boundary < end) boundary = start;
    this.pending = text.slice(boundary);
    return replaceRanges(
      text.slice(0, boundary),
      ranges.filter(([, end]) => end <= boundary),
      REDACTED,
    );
  }

  /** Everything held, redacted: the stream ended, failed or was stopped. */
  flush(): string {
    const text = this.pending;
    this.pending = '';
    return text === '' ? text : replaceRanges(text, secretRanges(foldCase(text), this.patterns), REDACTED);
  }

  /** Where the longest tail of `folded` that is a proper prefix of some form starts (its length when none). */
  private heldFrom(folded: string): number {
    for (let at = Math.max(0, folded.length - this.patterns.longest + 1); at < folded.length; at++) {
      if (!this.starts.has(folded[at] as string)) continue;
      const tail = folded.slice(at);
      if (this.patterns.forms.some((form) => form.length > tail.length && form.startsWith(tail))) return at;
    }
    return folded.length;
  }
}
