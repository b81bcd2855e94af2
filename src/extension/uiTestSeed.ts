// For the UI test only (never in a packaged extension: the caller checks the extension mode): the
// browser cannot reach the extension's test API, so the UI test asks, through an environment
// variable, for a conversation whose reply changed a file through the checkpoint contract. It is
// made once (a reload finds it in the history) and opened in the chat view.
import * as vscode from 'vscode';
import type { Conversation } from '../shared/chatModel';
import type { ConversationStore } from '../core/chat/history/conversationStore';
import type { LastConversation } from '../core/chat/lastConversation';
import type { Log } from './log';
import type { CheckpointService } from './checkpoints/checkpointService';
import { writeWithCheckpoint } from './checkpoints/testWriter';
import { errorMessage } from '../shared/errorMessage';

const UI_SEED_ENV = 'UNIFIED_INFERENCE_UI_CHECKPOINT_SEED';
const CONVERSATION_ID = 'c-ui-checkpoint-seed';
const TURN_ID = 'a-ui-checkpoint-seed';

export async function seedCheckpointForUiTest(
  store: ConversationStore,
  service: CheckpointService,
  last: LastConversation,
  log: Log,
): Promise<void> {
  const raw = process.env[UI_SEED_ENV];
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!raw || !folder) return;
  try {
    if (await store.load(CONVERSATION_ID).catch(() => undefined)) return;
    const seed = JSON.parse(raw) as { path?: unknown; text?: unknown };
    if (typeof seed.path !== 'string' || typeof seed.text !== 'string')
      throw new Error(`${UI_SEED_ENV} needs {"path","text"}`);
    const now = Date.now();
    const conversation: Conversation = {
      id: CONVERSATION_ID,
      title: 'Checkpoint demo',
      model: '',
      parameters: {},
      createdAt: now,
      updatedAt: now,
      turns: [
        { role: 'user', id: 'u-ui-checkpoint-seed', text: `Rewrite ${seed.path}`, attachments: [], createdAt: now },
        {
          role: 'assistant',
          id: TURN_ID,
          model: 'sim-openai/gpt-sim-mini',
          content: `I rewrote \`${seed.path}\`.`,
          reasoning: '',
          toolSteps: [],
          status: 'done',
          wire: [],
          createdAt: now,
        },
      ],
    };
    await store.save(conversation);
    await writeWithCheckpoint(service, { conversationId: CONVERSATION_ID, turnId: TURN_ID }, [
      {
        kind: 'write',
        uri: vscode.Uri.joinPath(folder.uri, ...seed.path.split('/')),
        bytes: new TextEncoder().encode(seed.text),
      },
    ]);
    await last.set(CONVERSATION_ID);
  } catch (error) {
    log.error(`UI test checkpoint seed failed: ${errorMessage(error)}`);
  }
}
