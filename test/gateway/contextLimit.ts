// A model's context length, enforced as the providers do: a request whose input (the gateway's
// own token count) plus the room asked for the answer (`max_tokens`, when sent) is longer than
// the model's context is refused with a 400 before anything is generated or charged. The words
// and codes are the providers' own, so a client's detection is tested against the real shapes:
// OpenAI's `context_length_exceeded` ("... (N in the messages, M in the completion) ..."),
// Anthropic's "prompt is too long: N tokens > M maximum". Models without a context length in the
// catalog take anything.
import type { CatalogModel } from './catalog';
import { HttpError } from './errors';

export function enforceContextLength(
  model: CatalogModel,
  inputTokens: number,
  maxTokens: number | undefined,
  api: 'chat' | 'messages',
): void {
  const limit = model.contextLength;
  if (!limit) return;
  const completion = maxTokens ?? 0;
  if (inputTokens + completion <= limit) return;
  const n = (value: number): string => value.toLocaleString('en-US');
  const message =
    api === 'chat'
      ? `This model's maximum context length is ${n(limit)} tokens. However, you requested ${n(inputTokens + completion)} tokens (${n(inputTokens)} in the messages, ${n(completion)} in the completion). Please reduce the length of the messages or completion.`
      : inputTokens > limit
        ? `prompt is too long: ${inputTokens} tokens > ${limit} maximum`
        : `input length and \`max_tokens\` exceed context limit: ${inputTokens} + ${completion} > ${limit}, decrease input length or \`max_tokens\` and try again`;
  throw new HttpError(400, message, 'invalid_request_error', 'context_length_exceeded', 'messages');
}
