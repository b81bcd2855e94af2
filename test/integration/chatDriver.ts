// What several integration suites read off the chat and the local gateway, written once.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn, ToolStep } from '../../src/shared/chatModel';
import type { ApprovalDecision, HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { setSetting, waitFor } from './extensionHost';

export type FunctionStep = Extract<ToolStep, { kind: 'function' }>;

/** The chat's last turn, which must be the model's. */
export function lastAssistantTurn(api: TestApi): AssistantTurn {
  const turn = api.chat.current.turns.at(-1);
  assert.equal(turn?.role, 'assistant');
  return turn;
}

/** The last tool result the model got back (the whole of it), from the last chat request. */
export function lastToolResult(gateway: LocalGateway): string {
  const sent = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1)?.body as
    { messages?: Array<{ role: string; content?: unknown }> } | undefined;
  return String(sent?.messages?.filter((m) => m.role === 'tool').at(-1)?.content ?? '');
}

/** Records what the chat posts, sets its model and opens a new conversation with it. */
export async function newConversationWith(api: TestApi, posted: HostToChatMessage[], model: string): Promise<void> {
  // A chat view that opened meanwhile (Ask about Selection reveals it) took the controller's
  // messages: take them back.
  api.chat.attach((message) => posted.push(message));
  await setSetting('defaultModels.chat', model);
  await waitFor(
    () => vscode.workspace.getConfiguration('unifiedInference').get<string>('defaultModels.chat'),
    (seen) => seen === model,
    'the model setting',
  );
  await api.chat.handle({ type: 'newConversation' });
}

/**
 * Sends a scripted tool call (the local gateway's `tool-args` fault: `<tool> <JSON>`), answers its
 * approval with `decision` when asked (after `whileAsked`), and returns the finished step.
 */
export async function callScriptedTool(
  api: TestApi,
  posted: HostToChatMessage[],
  call: {
    tool: string;
    args: Record<string, unknown>;
    decision?: ApprovalDecision;
    whileAsked?: (asked: FunctionStep) => Promise<void>;
  },
): Promise<{ step: FunctionStep; asked: FunctionStep | undefined }> {
  posted.length = 0;
  const sending = api.chat.handle({ type: 'send', text: `${call.tool} ${JSON.stringify(call.args)}` });
  const steps = (): FunctionStep[] =>
    posted.flatMap((m) => (m.type === 'toolStep' && m.step.kind === 'function' ? [m.step] : []));
  const first = await waitFor(
    () => steps()[0],
    (step) => step !== undefined,
    `the ${call.tool} call`,
  );
  const asked = first?.status === 'awaitingApproval' ? first : undefined;
  if (asked) {
    await call.whileAsked?.(asked);
    await api.chat.handle({ type: 'approveTool', callId: asked.id, decision: call.decision ?? 'once' });
  }
  await sending;
  const step = lastAssistantTurn(api).toolSteps[0];
  assert.equal(step?.kind, 'function', JSON.stringify(lastAssistantTurn(api)));
  return { step: step, asked };
}
