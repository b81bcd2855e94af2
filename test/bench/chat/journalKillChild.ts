// A child process for the loss-window bench: streams one chat reply from the local gateway with the
// extension's own pieces (runReply, the conversation store, the reply journal), exactly as the chat
// controller wires them, until the bench SIGKILLs it. Prints `streaming` at the first text.
// Usage: node journalKillChild.js <folder> <conversation id> <gateway url> <api key> <model>
import { GatewayClient } from '../../../src/core/transport/client';
import type { AssistantTurn, Conversation } from '../../../src/shared/chatModel';
import { ConversationStore } from '../../../src/core/chat/history/conversationStore';
import { runReply } from '../../../src/core/chat/replyRunner';

async function main([folder, id, baseUrl, apiKey, model]: string[]): Promise<void> {
  if (!folder || !id || !baseUrl || !apiKey || !model)
    throw new Error('usage: journalKillChild <folder> <id> <url> <key> <model>');
  const store = new ConversationStore(folder);
  const reply: AssistantTurn = {
    role: 'assistant',
    id: 'a1',
    model,
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: Date.now(),
  };
  const text = 'Tell me a long story';
  const conversation: Conversation = {
    id,
    title: 'Loss window',
    model,
    parameters: {},
    turns: [{ role: 'user', id: 'u1', text, attachments: [], createdAt: Date.now() - 1 }, reply],
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  await store.save(conversation);
  const journal = store.startJournal(id, reply);
  let told = false;
  await runReply({
    client: new GatewayClient({ baseUrl, apiKey, maxRetries: 0 }),
    request: { model, api: 'chat' },
    history: [{ role: 'user', parts: [{ kind: 'text', text }] }],
    reply,
    events: {
      delta: (content, reasoning) => {
        journal.append(content, reasoning);
        if (!told && content) {
          told = true;
          process.stdout.write('streaming\n');
        }
      },
      toolStep: () => undefined,
    },
    signal: new AbortController().signal,
  });
  process.stdout.write('finished\n');
}

void main(process.argv.slice(2));
