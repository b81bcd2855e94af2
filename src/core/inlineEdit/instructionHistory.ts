// The recent instructions of inline edit, newest first, kept in globalState so the input can offer
// them again (arrow keys recall them). Bounded in count and length, and never holding a secret:
// the caller redacts the key before the instruction is remembered, and an instruction that still
// looks like a credential (a long unbroken token) is not remembered at all.

/** Instructions remembered. */
export const MAX_REMEMBERED_INSTRUCTIONS = 30;
/** Characters of one remembered instruction (a pasted page is not an instruction to recall). */
const MAX_REMEMBERED_INSTRUCTION_CHARS = 500;

/** A word of 32+ characters of key alphabet mixing letters and digits: what API keys and tokens look like (a long path or identifier does not). */
function hasTokenLikeWord(text: string): boolean {
  return text
    .split(/[\s/.,;:'"`()[\]{}<>]+/)
    .some((word) => word.length >= 32 && /\d/.test(word) && /[A-Za-z]/.test(word));
}

/** Parses what globalState held (anything: a hand edit, another version of the extension) into a clean history. */
export function parseHistory(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || !item.trim() || item.length > MAX_REMEMBERED_INSTRUCTION_CHARS || seen.has(item))
      continue;
    seen.add(item);
    out.push(item);
    if (out.length >= MAX_REMEMBERED_INSTRUCTIONS) break;
  }
  return out;
}

/** The history with `instruction` first (moved up when it was there already). */
export function rememberInstruction(history: readonly string[], instruction: string): string[] {
  const text = instruction.trim();
  if (!text || text.length > MAX_REMEMBERED_INSTRUCTION_CHARS || hasTokenLikeWord(text)) return [...history];
  return [text, ...history.filter((item) => item !== text)].slice(0, MAX_REMEMBERED_INSTRUCTIONS);
}
