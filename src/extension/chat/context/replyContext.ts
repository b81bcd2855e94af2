// What one reply's requests need to fit the model's context: the instruction files in the system
// prompt, the model's context length from the catalog, and the keeper that compacts each round.
// The chat controller calls this once per reply.
import { systemPrompt, type SystemPromptParts } from '../../../core/chat/systemPrompt';
import { catalogContextLength } from '../../../core/context/contextLength';
import type { GatewayClient } from '../../../core/transport/client';
import type { AssistantTurn, ChatTurn } from '../../../shared/chatModel';
import type { ImageBytes } from '../../../core/chat/conversationWire';
import type { HostToChatMessage } from '../../../shared/chatProtocol';
import type { GatewayAnswerRequest, GatewayTool } from '../../../core/answers/gatewayAnswer';
import type { ChatDeps } from '../chatDeps';
import { ContextKeeper } from '../../../core/chat/context/contextKeeper';
import { readInstructionFiles } from './instructionFiles';
import { instructionPrompt } from '../../../core/chat/context/instructionPrompt';
import { errorMessage } from '../../../shared/errorMessage';

export interface ReplyContextInput {
  readonly deps: Pick<ChatDeps, 'catalog' | 'workspaceFiles' | 'log'>;
  readonly client: GatewayClient;
  readonly request: Pick<
    GatewayAnswerRequest,
    'model' | 'api' | 'provider' | 'maxTokens' | 'thinkingBudget' | 'reasoningEffort'
  >;
  /** The system prompt's parts the reply knows (the conversation's prompt, the trust note); the instruction files are read here. */
  readonly system: Omit<SystemPromptParts, 'instructions' | 'compaction'>;
  /** The turns before the reply. */
  readonly turns: readonly ChatTurn[];
  /** The bytes of the turns' images, read from storage for this reply. */
  readonly images?: ImageBytes;
  readonly reply: AssistantTurn;
  readonly tools?: readonly GatewayTool[];
  readonly post: (message: HostToChatMessage) => void;
}

export async function prepareReplyContext(
  input: ReplyContextInput,
): Promise<{ system: string; keeper: ContextKeeper }> {
  const files = await readInstructionFiles(input.deps.workspaceFiles).catch((error: unknown) => {
    // A file that cannot be read is left out: the reply matters more.
    input.deps.log.warn(`Could not read the workspace's instruction files: ${errorMessage(error)}`);
    return [];
  });
  const instructions = instructionPrompt(files);
  const parts = { ...input.system, ...(instructions ? { instructions } : {}) };
  const model = input.deps.catalog.model(input.request.model);
  const contextLength = catalogContextLength(model);
  const keeper = new ContextKeeper({
    client: input.client,
    request: input.request,
    system: parts,
    turns: input.turns,
    ...(input.images ? { images: input.images } : {}),
    reply: input.reply,
    ...(contextLength ? { contextLength } : {}),
    toolChars: input.tools?.length ? JSON.stringify(input.tools).length : 0,
    changed: (context) => input.post({ type: 'replyContext', id: input.reply.id, context }),
  });
  return { system: systemPrompt(parts), keeper };
}
