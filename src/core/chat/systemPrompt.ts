// The chat's system prompt, put together in one place: for the reply's requests (each round, with
// the compaction note of that round) and for the context meter's estimate of the next request, so
// the meter counts what the request carries and no path forgets the trust note. Pure.

/**
 * Told to the model when the workspace tools are on but the workspace is not trusted: the files
 * of an untrusted repository are where a prompt injection would hide, so the model gets no tools,
 * and can say why instead of guessing.
 */
export const UNTRUSTED_WORKSPACE_NOTE =
  "The workspace tools (reading, listing, searching and editing the user's files) are off because this workspace is not trusted in VS Code (Restricted Mode). If the user asks about their files, say so: they can trust the workspace, or attach files to their message.";

export interface SystemPromptParts {
  /** The conversation's own system prompt, as the user wrote it. */
  readonly conversationPrompt?: string;
  /**
   * The workspace tools are turned on but withheld because the workspace is not trusted. Required,
   * so that every caller decides and none drops the note by omission.
   */
  readonly toolsWithheld: boolean;
  /** The repository's instruction files, fenced and labelled as untrusted (instructionPrompt). */
  readonly instructions?: string;
  /** What was summarized or left out to fit the context window (compactionNote). */
  readonly compaction?: string;
}

/** The parts that are present, in a fixed order: the user's words, the trust note, the repository's instructions, the compaction note. */
export function systemPrompt(parts: SystemPromptParts): string {
  return [
    parts.conversationPrompt,
    parts.toolsWithheld ? UNTRUSTED_WORKSPACE_NOTE : undefined,
    parts.instructions,
    parts.compaction,
  ]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join('\n\n');
}
