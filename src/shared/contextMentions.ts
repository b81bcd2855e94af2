// The @ words the chat reads in a message it sends (besides @file completions, which attach a file
// at once): the host finds their context when the message goes (chatMentions.ts), and the composer
// suggests them as the user types @.

export interface ContextMention {
  readonly name: string;
  /** What it adds, as the suggestion list says it. */
  readonly hint: string;
}

const CONTEXT_MENTIONS: readonly ContextMention[] = [
  { name: 'codebase', hint: 'search the workspace by meaning, attach the best chunks' },
  { name: 'research', hint: 'attach the finished research report' },
];

/** Whether `text` has @`name` as a word of its own (not inside an e-mail address or a path). */
export function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|\\s)@${name}(?![\\w/.-])`, 'i').test(text);
}

/** `text` without its @`name` words (what is left is the query). */
export function withoutMention(text: string, name: string): string {
  return text
    .replace(new RegExp(`(^|\\s)@${name}(?![\\w/.-])`, 'gi'), '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The mentions a partial word after @ could become ("co" → codebase); none for an empty word. */
export function mentionsStartingWith(partial: string): readonly ContextMention[] {
  const word = partial.toLowerCase();
  return word ? CONTEXT_MENTIONS.filter((mention) => mention.name.startsWith(word)) : [];
}
