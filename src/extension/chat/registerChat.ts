// The chat's wiring: the sidebar view, editor panels, and the commands around them.
import * as vscode from 'vscode';
import type { Log } from '../log';
import type { ChatController } from './chatController';
import type { ChatDeps } from './chatDeps';
import { openChatPanel } from './chatPanel';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { jobTitle } from '../../core/research/jobPresentation';
import { classifyResearchStatus } from '../../core/research/researchHelpers';
import type { ResearchNode } from '../research/researchView';

/** package.json's view container of the Research Jobs, Models and Search Results views. */
const RESEARCH_CONTAINER_ID = 'unifiedInferenceResearch';

/** `lastPanel`: the chat of the editor panel opened last (for the test API; a command's return value would hand it to any extension). */
export function registerChat(
  extensionUri: vscode.Uri,
  deps: ChatDeps,
  log: Log,
): { view: ChatViewProvider; lastPanel: () => ChatController | undefined; disposables: vscode.Disposable[] } {
  const view = new ChatViewProvider(extensionUri, deps, log);
  let lastPanel: ChatController | undefined;
  const chat = view.controller;
  const addSelection = async (editor?: vscode.TextEditor): Promise<boolean> => {
    await view.reveal();
    if (chat.addSelection(editor ?? vscode.window.activeTextEditor)) return true;
    void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in an editor first.'));
    return false;
  };
  const disposables: vscode.Disposable[] = [
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    vscode.commands.registerCommand('unifiedInference.chat.new', async () => {
      await view.reveal();
      await chat.newConversation();
    }),
    vscode.commands.registerCommand('unifiedInference.chat.history', async () => {
      await view.reveal();
      await chat.showHistory();
    }),
    vscode.commands.registerCommand('unifiedInference.chat.openInEditor', async () => {
      // The conversation moves to the editor; the sidebar starts a new one, so the two never write one file.
      const current = chat.current;
      const id = current.turns.length > 0 ? current.id : undefined;
      if (id) {
        await chat.stop();
        await chat.newConversation();
      }
      // Not returned: any extension can run a command, and the controller reaches the key.
      lastPanel = await openChatPanel(extensionUri, deps, log, id);
    }),
    vscode.commands.registerCommand(
      'unifiedInference.chat.askAboutSelection',
      async (_uri?: unknown, editorArg?: vscode.TextEditor) => {
        if (await addSelection(editorArg)) chat.prefill(vscode.l10n.t('Explain this code.'));
      },
    ),
    vscode.commands.registerCommand('unifiedInference.chat.addSelection', () => addSelection()),
    vscode.commands.registerCommand('unifiedInference.chat.addFile', async () => {
      await view.reveal();
      await chat.handle({ type: 'addContext', source: 'pickFile' });
    }),
    vscode.commands.registerCommand('unifiedInference.chat.stop', () => chat.stop()),
    // On a finished job in the Research view (or from the palette, with a pick): its report goes with the next message.
    vscode.commands.registerCommand('unifiedInference.chat.attachResearchReport', async (node?: ResearchNode) => {
      const research = deps.gatewayTools?.research;
      if (!research) return;
      const finished = research.jobs.filter((job) => classifyResearchStatus(job.status) === 'succeeded');
      const job =
        node?.kind === 'job'
          ? (research.find(node.job.id) ?? node.job)
          : (
              await vscode.window.showQuickPick(
                finished.map((candidate) => ({
                  label: jobTitle(candidate),
                  description: candidate.id,
                  job: candidate,
                })),
                {
                  title: vscode.l10n.t('Attach Report to Chat'),
                  placeHolder: vscode.l10n.t('Pick a finished research job'),
                },
              )
            )?.job;
      if (!job) return;
      if (classifyResearchStatus(job.status) !== 'succeeded') {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The research job has not finished yet: attach its report once it has.'),
        );
        return;
      }
      await view.reveal();
      await chat.attachResearchReport(job);
    }),
    // The chat has a view container of its own (room for the conversation); the research jobs,
    // models and search results are in the other one, a click away from the chat's title bar.
    vscode.commands.registerCommand('unifiedInference.showResearchAndModels', () =>
      vscode.commands.executeCommand(`workbench.view.extension.${RESEARCH_CONTAINER_ID}`),
    ),
  ];
  return { view, lastPanel: () => lastPanel, disposables };
}
