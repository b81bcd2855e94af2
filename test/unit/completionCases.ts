// Prompts for the post-processing and stop tests, built by the real prompt builder from a file
// with the cursor marked `|`.
import type { CompletionPrompt } from '../../src/core/completions/completionInput';
import { buildCompletionPrompt } from '../../src/core/completions/completionPrompt';

export function promptAt(text: string, languageId = 'typescript'): CompletionPrompt {
  const at = text.indexOf('|');
  if (at < 0) throw new Error('no cursor');
  return buildCompletionPrompt(
    {
      languageId,
      path: `src/file.${languageId === 'python' ? 'py' : 'ts'}`,
      prefix: text.slice(0, at),
      suffix: text.slice(at + 1),
      imports: '',
      snippets: [],
    },
    { contextTokens: 16000, maxInputTokens: 3000 },
  );
}
