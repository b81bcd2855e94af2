// What a failure's text must be wherever it is shown: sentences that end with a full stop before
// the next step ("Invalid API key. Set a valid key", never "Invalid API key Set a valid key"), and
// nothing said twice ("Could not reach the gateway at X: Could not reach the gateway at X: ...").
// Used by the unit tests of the describers and the integration tests of what a notification says.

/** The imperatives a next step starts with. */
const NEXT_STEP = /(?<=\s)(Set|Try|Check|Start|Add|Open|Correct|Use|Ask|Wait|Shorten|Put|Choose)\b/g;

/** What is wrong with the text as sentences; empty when nothing is. */
export function sentenceProblems(text: string): string[] {
  const problems: string[] = [];
  const trimmed = text.trim();
  if (!/[.!?]$/.test(trimmed)) problems.push('it does not end with a full stop');
  if (/(?<!\.)\.\.(?!\.)/.test(trimmed)) problems.push('a double full stop');
  for (const match of trimmed.matchAll(NEXT_STEP)) {
    const before = trimmed.slice(0, match.index).trimEnd();
    // After a full stop (a sentence of its own), or a colon that introduces it (a quoted command title).
    if (!/[.!?:;("]$/.test(before))
      problems.push(
        `"${match[0]}" starts a next step without a full stop before it: ...${before.slice(-30)} ${match[0]}`,
      );
  }
  return problems;
}

/** A run of `words` words the text says twice (case and punctuation aside), if any. */
export function repeatedPhrase(text: string, words = 4): string | undefined {
  const tokens = text
    .toLowerCase()
    .split(/\s+/)
    .map((token) => token.replace(/^[("'“]+|[)"'”.,:;!?]+$/g, ''))
    .filter(Boolean);
  const seen = new Set<string>();
  for (let i = 0; i + words <= tokens.length; i++) {
    const phrase = tokens.slice(i, i + words).join(' ');
    if (seen.has(phrase)) return phrase;
    seen.add(phrase);
  }
  return undefined;
}

/** How many times `name` occurs in the text. */
export function timesNamed(text: string, name: string): number {
  return text.split(name).length - 1;
}
