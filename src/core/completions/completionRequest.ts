// The one request of a completion: through streamGatewayAnswer (the one path to the chat models,
// redaction included), low temperature, no tools, the prompt's small max_tokens. The stream is
// read by runCompletion, which aborts it as soon as the completion is complete.
import type { GatewayClient } from '../transport/client';
import type { CompletionSend } from './completionRun';
import type { ChatApi } from '../../shared/settings';
import { streamGatewayAnswer } from '../answers/gatewayAnswer';

/** Low, not zero: a little variety after a rejected suggestion, but no wandering. */
const COMPLETION_TEMPERATURE = 0.1;

export function completionSend(
  client: GatewayClient,
  model: string,
  api: ChatApi,
  provider: string | undefined,
): CompletionSend {
  return async (prompt, onText, signal) => {
    const result = await streamGatewayAnswer(
      client,
      {
        model,
        system: prompt.system,
        messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt.user }] }],
        maxTokens: prompt.maxTokens,
        api,
        ...(provider ? { provider } : {}),
        temperature: COMPLETION_TEMPERATURE,
        // One request per suggestion: a retry's sleep outlives it, and a 429 must pause completions.
        maxRetries: 0,
      },
      { text: onText },
      signal,
    );
    return result.usage ? { usage: result.usage } : {};
  };
}
