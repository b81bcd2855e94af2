// Every message a chat webview sends, to the one thing the chat does for it: one line per message
// type. The switch is exhaustive (assertNever): a message type added to chatProtocol's union
// without a route here does not compile.
import { assertNever } from '../../shared/assertNever';
import type { ApprovalDecision, ChatToHostMessage } from '../../shared/chatProtocol';
import type { ChatParameters } from '../../shared/chatModel';

/** The messages `chatActions.ts` carries out (history management, clipboard, code, links, setup commands). */
export type ChatActionMessage = Extract<
  ChatToHostMessage,
  {
    type:
      | 'renameConversation'
      | 'deleteConversation'
      | 'exportConversation'
      | 'copyText'
      | 'insertCode'
      | 'newFile'
      | 'openLink'
      | 'runCommand'
      | 'errorAction'
      | 'noticeAction';
  }
>;

/** What a chat does, one member per thing the webview can ask. */
export interface ChatRoutes {
  ready(): Promise<void>;
  send(text: string): Promise<void>;
  stop(): Promise<void>;
  /** Regenerate, Retry, and the Retry of an error card. */
  regenerate(): Promise<void>;
  editAndResend(turnId: string, text: string): Promise<void>;
  selectModel(model: string): Promise<void>;
  pickModel(): Promise<void>;
  setParameters(parameters: ChatParameters): Promise<void>;
  approveTool(callId: string, decision: ApprovalDecision): void;
  openToolDiff(callId: string): Promise<void>;
  openResearchJob(jobId: string): Promise<void>;
  addContext(source: 'selection' | 'activeFile' | 'pickFile'): Promise<void>;
  attachFile(path: string): Promise<void>;
  removeAttachment(id: string): void;
  addImage(name: string, data: string): Promise<void>;
  pickImage(): Promise<void>;
  removeImage(id: string): Promise<void>;
  suggestFiles(requestId: number, query: string): Promise<void>;
  newConversation(): Promise<void>;
  openConversation(id: string): Promise<void>;
  restoreCheckpoint(turnId: string): Promise<void>;
  searchHistory(query: string): Promise<void>;
  applyCode(turnId: string, blockIndex: number): Promise<void>;
  openInstructionFile(path: string): Promise<void>;
  /** The draft's length changed: the cost estimate beside Send follows. */
  draftSize(chars: number): void;
  action(message: ChatActionMessage): Promise<void>;
}

/** Rejects (through assertNever) a message outside the protocol: chatWebview's parse lets none through, so one here is a bug to log. */
export async function routeChatMessage(message: ChatToHostMessage, chat: ChatRoutes): Promise<void> {
  switch (message.type) {
    case 'ready':
      return chat.ready();
    case 'send':
      return chat.send(message.text);
    case 'stop':
      return chat.stop();
    case 'regenerate':
      return chat.regenerate();
    case 'retry':
      return chat.regenerate();
    case 'editAndResend':
      return chat.editAndResend(message.turnId, message.text);
    case 'selectModel':
      return chat.selectModel(message.model);
    case 'pickModel':
      return chat.pickModel();
    case 'setParameters':
      return chat.setParameters(message.parameters);
    case 'approveTool':
      return chat.approveTool(message.callId, message.decision);
    case 'openToolDiff':
      return chat.openToolDiff(message.callId);
    case 'openResearchJob':
      return chat.openResearchJob(message.jobId);
    case 'addContext':
      return chat.addContext(message.source);
    case 'attachFile':
      return chat.attachFile(message.path);
    case 'removeAttachment':
      return chat.removeAttachment(message.id);
    case 'addImage':
      return chat.addImage(message.name, message.data);
    case 'pickImage':
      return chat.pickImage();
    case 'removeImage':
      return chat.removeImage(message.id);
    case 'suggestFiles':
      return chat.suggestFiles(message.requestId, message.query);
    case 'newConversation':
      return chat.newConversation();
    case 'openConversation':
      return chat.openConversation(message.id);
    case 'noticeAction':
      return chat.action(message);
    case 'restoreCheckpoint':
      return chat.restoreCheckpoint(message.turnId);
    case 'searchHistory':
      return chat.searchHistory(message.query);
    case 'applyCode':
      return chat.applyCode(message.turnId, message.blockIndex);
    case 'openInstructionFile':
      return chat.openInstructionFile(message.path);
    case 'draftSize':
      return chat.draftSize(message.chars);
    case 'errorAction':
      return message.action === 'retry' ? chat.regenerate() : chat.action(message);
    case 'renameConversation':
      return chat.action(message);
    case 'deleteConversation':
      return chat.action(message);
    case 'exportConversation':
      return chat.action(message);
    case 'copyText':
      return chat.action(message);
    case 'insertCode':
      return chat.action(message);
    case 'newFile':
      return chat.action(message);
    case 'openLink':
      return chat.action(message);
    case 'runCommand':
      return chat.action(message);
    default:
      return assertNever(message);
  }
}
