// The setting most chat UI suites share: a local gateway, the real workbench pointed at it (its
// address in user settings, where only a user may set it; the key in the environment), the
// Chat view shown alone so the conversation has room, and its webview frame. Started before the
// suite, stopped after it (the workbench first, then the gateway it talks to).
import type { Frame } from 'playwright-core';
import { startGateway, type LocalGateway } from '../gateway/index';
import type { ServerOptions } from '../harness/testHost';
import { Workbench } from './workbench';

export interface ChatSuite {
  readonly gateway: LocalGateway;
  readonly workbench: Workbench;
  readonly chat: Frame;
}

/** Registers the suite's before/after hooks; `ready` hands the started parts to the suite's variables. */
export function useChatSuite(options: ServerOptions, ready: (suite: ChatSuite) => void): void {
  let gateway: LocalGateway | undefined;
  let workbench: Workbench | undefined;
  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open({
      ...options,
      userSettings: { 'unifiedInference.baseUrl': gateway.url, ...options.userSettings },
      env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey, ...options.env },
    });
    await workbench.showOnlyView('Unified Inference', 'Chat');
    ready({ gateway, workbench, chat: await workbench.webviewWith('.composer-input', 60_000) });
  });
  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });
}
