// The model picker's list (chat models first, then every other model: any can be chosen) and the
// model a new conversation starts with: the one picked in this workspace, else the default chat
// model setting, else the catalog's first chat model.
import type { ModelOption } from '../../shared/chatProtocol';
import { readSettings } from '../config';
import { categoryOf, providerOf } from '../../core/models/catalogTree';
import type { ChatDeps } from './chatDeps';

/** workspaceState: the model last picked in this workspace. */
export const chatModelKey = 'unifiedInference.chat.model';

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
  }));
  options.sort((a, b) => Number(b.isChat) - Number(a.isChat) || a.id.localeCompare(b.id));
  const status = deps.catalog.status;
  return { options, loading: status.kind === 'loading', ...(status.kind === 'error' ? { error: status.message } : {}) };
}

export function chooseChatModel(deps: Pick<ChatDeps, 'catalog' | 'workspaceState'>): string | undefined {
  const picked = deps.workspaceState.get<string>(chatModelKey);
  if (picked) return picked;
  const configured = readSettings().defaultModels.chat;
  if (configured) return configured;
  return deps.catalog.snapshot?.models.find((model) => categoryOf(model) === 'chat')?.id;
}
