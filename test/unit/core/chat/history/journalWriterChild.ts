// A child process for chatHistoryJournal.test.ts: writes one reply into a conversation the way the
// chat does (full save of the user's message, then the journal), streaming deterministic text
// forever, until the test SIGKILLs it. After each batch is on disk it prints how much of the
// reply is durable, so the test knows what recovery must bring back.
// Usage: node journalWriterChild.js <folder> <conversation id>
import type { AssistantTurn, Conversation } from '../../../../../src/shared/chatModel';
import { ConversationStore } from '../../../../../src/core/chat/history/conversationStore';

/** The n-th word of the reply: the test rebuilds the same text to compare. */
export function journalWord(n: number): string {
  return `w${n} `;
}

async function main(folder: string, id: string): Promise<void> {
  const store = new ConversationStore(folder);
  const reply: AssistantTurn = {
    role: 'assistant',
    id: 'a1',
    model: 'sim-chat',
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 2,
  };
  const conversation: Conversation = {
    id,
    title: 'Killed mid-reply',
    model: 'sim-chat',
    parameters: {},
    turns: [{ role: 'user', id: 'u1', text: 'Tell me a long story', attachments: [], createdAt: 1 }, reply],
    createdAt: 1,
    updatedAt: 1,
  };
  await store.save(conversation);
  const journal = store.startJournal(id, reply);
  for (let n = 0; ; n++) {
    const word = journalWord(n);
    reply.content += word;
    journal.append(word, n % 10 === 0 ? 'thinking ' : undefined);
    if (n % 50 === 49) {
      const durable = reply.content.length;
      await journal.flush();
      process.stdout.write(`durable ${durable}\n`);
    } else {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

if (require.main === module) {
  const [folder, id] = process.argv.slice(2);
  if (!folder || !id) throw new Error('usage: journalWriterChild <folder> <id>');
  void main(folder, id);
}
