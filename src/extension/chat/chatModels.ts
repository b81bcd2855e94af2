// The chat's model: the list the webview shows the current model from, and the model a new
// conversation starts with (the one picked in this workspace while the default chat model setting
// is unchanged, else that setting, else the catalog's first chat model).
import type { ModelOption } from '../../shared/chatProtocol';
import { readSettings } from '../config';
import { categoryOf, providerOf } from '../../core/models/catalogTree';
import type { ChatDeps } from './chatDeps';
import { takesImages } from '../../core/models/modelFeatures';

/** workspaceState: the model last picked in this workspace. */
const chatModelKey = 'unifiedInference.chat.model';

export function chatModelOptions(deps: Pick<ChatDeps, 'catalog'>): {
  options: ModelOption[];
  loading: boolean;
  error?: string;
} {
  const models = deps.catalog.snapshot?.models ?? [];
  const options = models.map((model): ModelOption => ({
    id: model.id,
    provider: providerOf(model),
    isChat: categoryOf(model) === 'chat',
    ...(takesImages(model) ? { takesImages: true } : {}),
  }));
  options.sort((a, b) => Number(b.isChat) - Number(a.isChat) || a.id.localeCompare(b.id));
  const status = deps.catalog.status;
  return { options, loading: status.kind === 'loading', ...(status.kind === 'error' ? { error: status.message } : {}) };
}

/** What is remembered of a pick: the model, and the default chat model setting when it was picked. */
interface PickedModel {
  readonly model: string;
  readonly setting: string;
}

function pickedModel(value: unknown, setting: string): PickedModel | undefined {
  // A plain id: remembered before the setting was kept with it; it stays until the setting changes.
  if (typeof value === 'string' && value) return { model: value, setting };
  if (typeof value !== 'object' || value === null) return undefined;
  const { model, setting: then } = value as Record<string, unknown>;
  return typeof model === 'string' && model && typeof then === 'string' ? { model, setting: then } : undefined;
}

/** Remembers the model picked in the chat, for the next conversations of this workspace. */
export async function rememberChatModel(deps: Pick<ChatDeps, 'workspaceState'>, model: string): Promise<void> {
  const picked: PickedModel = { model, setting: readSettings().defaultModels.chat };
  await deps.workspaceState.update(chatModelKey, picked);
}

/**
 * A new conversation's model: the one last picked in this workspace, unless the default chat model
 * setting changed since (a changed setting is the newer wish); else the setting; else the catalog's
 * first chat model.
 */
export function chooseChatModel(deps: Pick<ChatDeps, 'catalog' | 'workspaceState'>): string | undefined {
  const configured = readSettings().defaultModels.chat;
  const picked = pickedModel(deps.workspaceState.get<unknown>(chatModelKey), configured);
  if (picked && picked.setting === configured) return picked.model;
  if (configured) return configured;
  return deps.catalog.snapshot?.models.find((model) => categoryOf(model) === 'chat')?.id;
}
