import type { CompletionBudget, CompletionInput, CompletionPrompt } from './completionInput';
import { completionShape } from './completionShape';

/** First version (signature stable): the full format is documented in a later commit. */
export function buildCompletionPrompt(input: CompletionInput, budget: CompletionBudget): CompletionPrompt {
  const shape = completionShape(input.prefix, input.suffix);
  const chars = Math.max(0, budget.maxInputTokens * 3);
  const sentPrefix = input.prefix.slice(Math.max(0, input.prefix.length - Math.floor(chars * 0.7)));
  const sentSuffix = input.suffix.slice(0, Math.floor(chars * 0.2));
  const system = 'Answer only the code that replaces <|FILL_HERE|>. No fences, no explanation.';
  const user = `File: ${input.path} (${input.languageId})\n${sentPrefix}<|FILL_HERE|>${sentSuffix}`;
  return { system, user, shape, maxTokens: shape === 'line' ? 64 : 256, sentPrefix, sentSuffix };
}
