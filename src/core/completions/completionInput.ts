// What an inline completion is asked from: the text around the cursor and the neighbouring code
// the workspace gate let through. Built by the editor side (src/extension/completions), turned into
// a prompt and an insertion by the pure pieces beside this file. Pure: no I/O.

/** A piece of another file (an open editor or a recently edited file of the same language). */
export interface CompletionSnippet {
  /** Workspace-relative path, forward slashes (shown to the model as the snippet's name). */
  readonly path: string;
  readonly text: string;
}

/**
 * `line`: the cursor is inside a line that already has text after it, or the model should finish
 * one statement: one line at most. `block`: the cursor starts a block (an empty line after an
 * opening bracket, a colon, a signature): several lines, kept bracket-balanced.
 */
export type CompletionShape = 'line' | 'block';

export interface CompletionInput {
  /** VS Code's language id (`typescript`, `python`, ...). */
  readonly languageId: string;
  /** Workspace-relative path of the document, forward slashes. */
  readonly path: string;
  /** The document's text before the cursor (possibly long: the prompt builder cuts it to budget). */
  readonly prefix: string;
  /** The document's text after the cursor (possibly long: the prompt builder cuts it to budget). */
  readonly suffix: string;
  /** The file's import lines when they lie outside the prefix window (empty when none). */
  readonly imports: string;
  /** Neighbouring code, best first; every one already passed the workspace gate. */
  readonly snippets: readonly CompletionSnippet[];
}

/** What the model may be sent and asked for, from the catalog entry of the completion model. */
export interface CompletionBudget {
  /** The model's context length in tokens (a default when the catalog does not say). */
  readonly contextTokens: number;
  /** The most input tokens one completion may spend (a money bound well under the context). */
  readonly maxInputTokens: number;
}

/** A chat request that asks the model to fill the hole. */
export interface CompletionPrompt {
  readonly system: string;
  readonly user: string;
  readonly shape: CompletionShape;
  /** `max_tokens` for the answer: small for a line, larger for a block. */
  readonly maxTokens: number;
  /** The prefix and suffix actually sent (after the budget cut): post-processing compares against them. */
  readonly sentPrefix: string;
  readonly sentSuffix: string;
  /** The document's language id (post-processing: indentation-closed blocks, comment syntax). Optional so hand-made prompts in tests stay short. */
  readonly languageId?: string;
  /** The hole marker the prompt used (post-processing removes it if the model echoes it). */
  readonly marker?: string;
}
