import * as vscode from 'vscode';
import { formatActivationLine, formatActivationPhases, startActivationClock } from '../shared/activationTiming';
import { MODEL_CATEGORIES, type ModelCategoryName } from '../shared/settings';
import { showCreditsMenu } from './account/creditsMenu';
import { CreditsMonitor } from './account/creditsMonitor';
import { CreditsStatusItem } from './account/creditsStatusItem';
import { clearApiKeyCommand, setApiKeyCommand } from './apiKey/apiKeyCommands';
import { CodeApplier } from './apply/codeApplier';
import { registerCommitMessage } from './commitMessage/registerCommitMessage';
import { Failures } from './errors/failures';
import { API_KEY_SECRET_ID, ApiKeyStore } from './apiKey/apiKeyStore';
import { createCheckpoints } from './checkpoints/createCheckpoints';
import { seedCheckpointForUiTest } from './uiTestSeed';
import { WorkspaceFileIndex } from './workspaceFiles/workspaceFileIndex';
import { ConversationStore } from './chat/history/conversationStore';
import { LastConversation } from './chat/lastConversation';
import { registerChat } from './chat/registerChat';
import { registerCompletions } from './completions/registerCompletions';
import { registerInlineEdit } from './inlineEdit/registerInlineEdit';
import { CostMeter } from './chat/replyCost';
import { openSettings, rememberSettings } from './config';
import { GatewayConnection } from './gateway/gatewayConnection';
import { setBaseUrlCommand } from './gateway/setBaseUrl';
import { testConnectionCommand } from './gateway/testConnection';
import { GatewayLanguageModels, manageLanguageModels } from './languageModels/languageModelProvider';
import { registerUnifiedParticipant } from './participant/unifiedParticipant';
import { registerLanguageModelTools } from './lmTools/registerLanguageModelTools';
import { Log } from './log';
import { registerMediaCommands } from './media/mediaCommands';
import { CATEGORY_LABELS, categoryOf } from './models/catalogTree';
import { ModelCatalog } from './models/modelCatalog';
import { ModelsView } from './models/modelsView';
import { changeModelCategory } from './models/changeCategory';
import { pickDefaultModel, setDefaultModel } from './models/pickDefaultModel';
import { ReportDocuments } from './research/reportDocuments';
import { registerResearchCommands } from './research/researchCommands';
import { ResearchJobs } from './research/researchJobs';
import { ResearchView } from './research/researchView';
import { registerSemanticSearch } from './search/registerSemanticSearch';
import { createTestApi, type TestApi } from './testApi';
import { ToolServerDefinitions } from './toolServers/toolServerProvider';
import { WorkspaceFilesService } from './workspaceFiles/workspaceFilesService';
import type { Model } from '../core/types/account';

/** Wires the extension together; every object it builds is owned by `context.subscriptions`. */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  // Activation cost is measured here and logged (npm run bench -- activation reads the line).
  const clock = startActivationClock(() => performance.now());
  // First, so the remembered settings are forgotten before any other configuration listener runs.
  context.subscriptions.push(rememberSettings());
  const log = new Log();
  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(log, apiKeys);
  log.redactFrom(() => apiKeys.knownSecrets());
  const storedKey = await clock.awaiting(apiKeys.get()); // learn the stored key now, so the log redacts it from the first line
  clock.phase('log and key');

  const connection = new GatewayConnection(apiKeys, log);
  const credits = new CreditsMonitor(connection, log);
  const creditsItem = new CreditsStatusItem(credits);
  // Every feature's failures: described one way, reported to the connection once, shown with their actions.
  const failures = new Failures(connection, log, () => credits.resetTime());
  clock.phase('connection and credits');
  const catalog = new ModelCatalog(connection, context.globalState, log);
  const models = new ModelsView(catalog);
  clock.phase('models');
  const research = new ResearchJobs(connection, log);
  const researchView = new ResearchView(research);
  const reports = new ReportDocuments(connection, research);
  context.subscriptions.push(connection, credits, creditsItem, failures, catalog, models, research, researchView, reports);
  context.subscriptions.push(...registerResearchCommands({ jobs: research, reports, view: researchView, connection, failures, log }));
  clock.phase('research');
  const languageModels = new GatewayLanguageModels(connection, catalog, log, failures);
  const toolServers = new ToolServerDefinitions(log);
  context.subscriptions.push(languageModels, toolServers);
  clock.phase('language models and tool servers');
  const participant = registerUnifiedParticipant({ connection, failures, research, reports, catalog, credits, log, extensionUri: context.extensionUri, storageUri: context.globalStorageUri });
  context.subscriptions.push(...participant.disposables);
  clock.phase('@unified');
  const workspaceFiles = new WorkspaceFilesService();
  context.subscriptions.push(workspaceFiles);
  const semanticSearch = registerSemanticSearch({ connection, failures, catalog, log, storageUri: context.storageUri, workspaceFiles });
  context.subscriptions.push(...semanticSearch.disposables);
  clock.phase('semantic search');
  // The rest of the gateway as tools for chat agents (research, search, rerank, images, transcription, credits).
  const lmTools = registerLanguageModelTools({ connection, failures, catalog, credits, research, reports, searchIndex: semanticSearch.service, workspaceFiles, log });
  context.subscriptions.push(...lmTools.disposables);
  clock.phase('language model tools');
  context.subscriptions.push(...registerMediaCommands({ connection, failures, catalog, player: participant.player, extensionUri: context.extensionUri, log, workspaceFiles }));
  clock.phase('media');
  const completions = registerCompletions({ connection, catalog, credits, workspaceFiles, log });
  context.subscriptions.push(...completions.disposables);

  const store = new ConversationStore(vscode.Uri.joinPath(context.globalStorageUri, 'conversations').fsPath, (problem) => log.warn(`Chat history: ${problem}`), (value) => apiKeys.redact(value));
  // Checkpoints: the writers (Apply, the model's edit tools) get `checkpoints.service` as their CheckpointRecorder.
  const checkpoints = createCheckpoints({ context, workspaceFiles, log, conversationIds: async () => new Set((await store.list('')).map((c) => c.id)) });
  context.subscriptions.push(...checkpoints.disposables);
  const lastConversation = new LastConversation(vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'chat-last-conversation.json').fsPath);
  if (context.extensionMode !== vscode.ExtensionMode.Production) await clock.awaiting(seedCheckpointForUiTest(store, checkpoints.service, lastConversation, log));
  clock.phase('history and checkpoints');
  const costs = new CostMeter();
  context.subscriptions.push(connection.onDidUseModel(() => costs.noteOtherUse()));
  const files = new WorkspaceFileIndex(workspaceFiles);
  // Apply on chat code blocks: the checkpoint recorder keeps each file before a reply's first write.
  const codeApplier = new CodeApplier({ connection, failures, catalog, workspaceFiles, files, log }, checkpoints.service);
  context.subscriptions.push(codeApplier);
  clock.phase('apply');
  // Inline edit: the selection rewritten in its editor, reviewed by Apply's rules (checkpoint before the first write).
  const inlineEdit = registerInlineEdit({ connection, failures, workspaceFiles, checkpoints: checkpoints.service, log, context, redact: (text) => apiKeys.redact(text) });
  context.subscriptions.push(inlineEdit);
  context.subscriptions.push(...registerCommitMessage({ connection, failures, catalog, workspaceFiles, log }).disposables);
  const chat = registerChat(context.extensionUri, { connection, apiKeys, catalog, credits, store, files, workspaceFiles, costs, workspaceState: context.workspaceState, lastConversation, log, checkpoints, codeApplier }, log);
  context.subscriptions.push(...chat.disposables);
  clock.phase('chat');

  context.subscriptions.push(
    vscode.commands.registerCommand('unifiedInference.setApiKey', () => setApiKeyCommand(apiKeys, log)),
    vscode.commands.registerCommand('unifiedInference.clearApiKey', () => clearApiKeyCommand(apiKeys, log)),
    vscode.commands.registerCommand('unifiedInference.showLog', () => log.show()),
    vscode.commands.registerCommand('unifiedInference.openSettings', () => openSettings()),
    vscode.commands.registerCommand('unifiedInference.setBaseUrl', () => setBaseUrlCommand()),
    vscode.commands.registerCommand('unifiedInference.testConnection', () => testConnectionCommand(connection, log)),
    vscode.commands.registerCommand('unifiedInference.refreshCredits', () => credits.refresh()),
    vscode.commands.registerCommand('unifiedInference.showCreditsMenu', () => showCreditsMenu()),
    vscode.commands.registerCommand('unifiedInference.manageLanguageModels', () => manageLanguageModels()),
    vscode.commands.registerCommand('unifiedInference.models.refresh', () => catalog.refresh()),
    vscode.commands.registerCommand('unifiedInference.models.filter', () => models.promptFilter()),
    vscode.commands.registerCommand('unifiedInference.models.clearFilter', () => models.setFilter('')),
    vscode.commands.registerCommand('unifiedInference.models.copyId', (node?: { model?: Model }) => node?.model && vscode.env.clipboard.writeText(node.model.id)),
    vscode.commands.registerCommand('unifiedInference.models.setAsDefault', (node?: { model?: Model }) => setAsDefault(node?.model)),
    vscode.commands.registerCommand('unifiedInference.models.changeCategory', (node?: { model?: Model }, category?: ModelCategoryName | 'auto') => changeModelCategory(catalog, node?.model, category)),
    ...MODEL_CATEGORIES.map((category) =>
      vscode.commands.registerCommand(`unifiedInference.pickDefault${CATEGORY_LABELS[category]}Model`, () => pickDefaultModel(catalog, category)),
    ),
  );
  clock.phase('commands');

  await clock.awaiting(connection.initialize(storedKey !== undefined));
  clock.phase('initialize');
  const activation = clock.finish();
  log.info(formatActivationLine(String((context.extension.packageJSON as { version?: unknown }).version), activation));
  const phases = formatActivationPhases(activation);
  if (phases) log.info(phases);
  return context.extensionMode === vscode.ExtensionMode.Test
    ? createTestApi(context, API_KEY_SECRET_ID, () => apiKeys.source(), activation, { connection, failures, credits, creditsItem, catalog, models, research, researchView, reports, participantHandler: participant.handler, chat: chat.view.controller, chatPanel: chat.lastPanel, searchIndex: semanticSearch.service, checkpoints, codeApplier, languageModels, toolServers, lmTools: lmTools.tools, completions, inlineEdits: inlineEdit.edits })
    : undefined;
}

/** "Set as Default": the model's own category (the user's override if they chose one). */
async function setAsDefault(model: Model | undefined): Promise<void> {
  if (!model) return;
  await setDefaultModel(categoryOf(model), model.id);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
