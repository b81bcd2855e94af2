// The chat's message router: every message type of the protocol reaches its one route (the
// sample table below has one message per type, and does not compile when a type is missing), and
// a message outside the protocol is rejected, never silently routed.
import * as assert from 'node:assert/strict';
import { routeChatMessage, type ChatRoutes } from '../../../../src/core/chat/chatMessageRouter';
import type { ChatToHostMessage } from '../../../../src/shared/chatProtocol';

type Sample = { readonly [K in ChatToHostMessage['type']]: Extract<ChatToHostMessage, { type: K }> };

const SAMPLES: Sample = {
  ready: { type: 'ready' },
  runCommand: { type: 'runCommand', command: 'showLog' },
  send: { type: 'send', text: 'hi' },
  stop: { type: 'stop' },
  regenerate: { type: 'regenerate' },
  retry: { type: 'retry' },
  editAndResend: { type: 'editAndResend', turnId: 'u1', text: 'again' },
  selectModel: { type: 'selectModel', model: 'm' },
  pickModel: { type: 'pickModel' },
  noticeAction: { type: 'noticeAction', id: 3 },
  setParameters: { type: 'setParameters', parameters: { temperature: 0.5 } },
  approveTool: { type: 'approveTool', callId: 'c1', decision: 'once' },
  openToolDiff: { type: 'openToolDiff', callId: 'c1' },
  openResearchJob: { type: 'openResearchJob', jobId: 'j1' },
  addContext: { type: 'addContext', source: 'pickFile' },
  attachFile: { type: 'attachFile', path: 'a.ts' },
  removeAttachment: { type: 'removeAttachment', id: 'att1' },
  addImage: { type: 'addImage', name: 'shot.png', data: 'iVBORw0KGgo=' },
  pickImage: { type: 'pickImage' },
  removeImage: { type: 'removeImage', id: '0123456789abcdef0123456789abcdef' },
  suggestFiles: { type: 'suggestFiles', requestId: 3, query: 'a' },
  newConversation: { type: 'newConversation' },
  openConversation: { type: 'openConversation', id: 'c1' },
  searchHistory: { type: 'searchHistory', query: 'q' },
  renameConversation: { type: 'renameConversation', id: 'c1' },
  deleteConversation: { type: 'deleteConversation', id: 'c1' },
  exportConversation: { type: 'exportConversation', id: 'c1' },
  copyText: { type: 'copyText', text: 't' },
  insertCode: { type: 'insertCode', code: 'x' },
  newFile: { type: 'newFile', code: 'x', language: 'ts' },
  applyCode: { type: 'applyCode', turnId: 'a1', blockIndex: 0 },
  openLink: { type: 'openLink', href: 'https://example.com' },
  errorAction: { type: 'errorAction', action: 'openSettings' },
  openInstructionFile: { type: 'openInstructionFile', path: 'AGENTS.md' },
  draftSize: { type: 'draftSize', chars: 42 },
  restoreCheckpoint: { type: 'restoreCheckpoint', turnId: 'a1' },
};

/** Routes that record which member was called, with what. */
function recordingRoutes(): { routes: ChatRoutes; calls: Array<{ route: string; args: unknown[] }> } {
  const calls: Array<{ route: string; args: unknown[] }> = [];
  const routes = new Proxy({} as ChatRoutes, {
    get:
      (_target, route: string) =>
      (...args: unknown[]) => {
        calls.push({ route, args });
        return Promise.resolve();
      },
  });
  return { routes, calls };
}

describe('routeChatMessage: one route per chat message', () => {
  it("sends each message type to exactly one route, with the message's fields", async () => {
    const expected: Record<ChatToHostMessage['type'], [string, unknown[]]> = {
      ready: ['ready', []],
      runCommand: ['action', [SAMPLES.runCommand]],
      send: ['send', ['hi']],
      stop: ['stop', []],
      regenerate: ['regenerate', []],
      retry: ['regenerate', []],
      editAndResend: ['editAndResend', ['u1', 'again']],
      selectModel: ['selectModel', ['m']],
      pickModel: ['pickModel', []],
      noticeAction: ['action', [SAMPLES.noticeAction]],
      setParameters: ['setParameters', [{ temperature: 0.5 }]],
      approveTool: ['approveTool', ['c1', 'once']],
      openToolDiff: ['openToolDiff', ['c1']],
      openResearchJob: ['openResearchJob', ['j1']],
      addContext: ['addContext', ['pickFile']],
      attachFile: ['attachFile', ['a.ts']],
      addImage: ['addImage', ['shot.png', 'iVBORw0KGgo=']],
      pickImage: ['pickImage', []],
      removeImage: ['removeImage', ['0123456789abcdef0123456789abcdef']],
      removeAttachment: ['removeAttachment', ['att1']],
      suggestFiles: ['suggestFiles', [3, 'a']],
      newConversation: ['newConversation', []],
      openConversation: ['openConversation', ['c1']],
      searchHistory: ['searchHistory', ['q']],
      renameConversation: ['action', [SAMPLES.renameConversation]],
      deleteConversation: ['action', [SAMPLES.deleteConversation]],
      exportConversation: ['action', [SAMPLES.exportConversation]],
      copyText: ['action', [SAMPLES.copyText]],
      insertCode: ['action', [SAMPLES.insertCode]],
      newFile: ['action', [SAMPLES.newFile]],
      applyCode: ['applyCode', ['a1', 0]],
      openLink: ['action', [SAMPLES.openLink]],
      errorAction: ['action', [SAMPLES.errorAction]],
      openInstructionFile: ['openInstructionFile', ['AGENTS.md']],
      draftSize: ['draftSize', [42]],
      restoreCheckpoint: ['restoreCheckpoint', ['a1']],
    };
    for (const message of Object.values(SAMPLES) as ChatToHostMessage[]) {
      const { routes, calls } = recordingRoutes();
      await routeChatMessage(message, routes);
      const [route, args] = expected[message.type];
      assert.deepEqual(calls, [{ route, args }], message.type);
    }
  });

  it('sends the Retry of an error card to regenerate, not to the chat actions', async () => {
    const { routes, calls } = recordingRoutes();
    await routeChatMessage({ type: 'errorAction', action: 'retry' }, routes);
    assert.deepEqual(calls, [{ route: 'regenerate', args: [] }]);
  });

  it('rejects a message type outside the protocol, and calls no route', async () => {
    const { routes, calls } = recordingRoutes();
    await assert.rejects(
      routeChatMessage({ type: 'deleteEverything' } as unknown as ChatToHostMessage, routes),
      /Unexpected message: \{"type":"deleteEverything"\}/,
    );
    assert.deepEqual(calls, []);
  });
});
