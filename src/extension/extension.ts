import * as vscode from 'vscode';
import { formatActivationLine, formatActivationPhases, startActivationClock } from '../shared/activationTiming';
import { registerAccount } from './account/registerAccount';
import { API_KEY_SECRET_ID, ApiKeyStore } from './apiKey/apiKeyStore';
import { registerApiKey } from './apiKey/registerApiKey';
import { CodeApplier } from './apply/codeApplier';
import { ChatImageStore } from '../core/chat/history/chatImageStore';
import { ConversationStore } from '../core/chat/history/conversationStore';
import { LastConversation } from '../core/chat/lastConversation';
import { registerChat } from './chat/registerChat';
import { CostMeter } from '../core/chat/replyCost';
import { createCheckpoints } from './checkpoints/createCheckpoints';
import { registerCommitMessage } from './commitMessage/registerCommitMessage';
import { registerCompletions } from './completions/registerCompletions';
import { closeReviewedDiffs } from './edits/reviewedDiffs';
import { openSettings, rememberSettings } from './config';
import { Failures } from './errors/failures';
import { registerGateway } from './gateway/registerGateway';
import { registerInlineEdit } from './inlineEdit/registerInlineEdit';
import { registerLanguageModels } from './languageModels/registerLanguageModels';
import { registerLanguageModelTools } from './lmTools/registerLanguageModelTools';
import { Log } from './log';
import { registerMediaCommands } from './media/mediaCommands';
import { registerModels } from './models/registerModels';
import { registerUnifiedParticipant } from './participant/unifiedParticipant';
import { registerResearch } from './research/registerResearch';
import { registerSemanticSearch } from './search/registerSemanticSearch';
import { createTestApi, type TestApi } from './testApi';
import { ToolServerDefinitions } from './toolServers/toolServerProvider';
import { seedCheckpointForUiTest } from './uiTestSeed';
import { WorkspaceFileIndex } from './workspaceFiles/workspaceFileIndex';
import { WorkspaceFilesService } from './workspaceFiles/workspaceFilesService';
import { errorMessage } from '../shared/errorMessage';

/**
 * Activation is a list of features. Each feature folder's `register…(context, services)` builds
 * its objects, registers its commands and views, and pushes what it owns into
 * `context.subscriptions`; what it returns joins the services handed to the features after it.
 * The clock's phases (logged, read by `npm run bench -- activation`) name the features.
 */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const clock = startActivationClock(() => performance.now());
  // First, so the remembered settings are forgotten before any other configuration listener runs.
  context.subscriptions.push(rememberSettings());
  const log = new Log();
  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(log, apiKeys, ...commandTable(log));
  log.redactFrom(() => apiKeys.knownSecrets());
  const storedKey = await clock.awaiting(apiKeys.get()); // learn the stored key now, so the log redacts it from the first line
  registerApiKey(context, { apiKeys, log });
  clock.phase('log and key');

  const connection = registerGateway(context, { apiKeys, log });
  const { credits, creditsItem } = registerAccount(context, { connection, log });
  // Every feature's failures: described one way, reported to the connection once, shown with their actions.
  const failures = new Failures(connection, log, () => credits.resetTime());
  context.subscriptions.push(failures);
  clock.phase('connection and credits');
  const { catalog, models } = registerModels(context, { connection, log });
  clock.phase('models');
  const { research, researchView, reports } = registerResearch(context, { connection, failures, log });
  clock.phase('research');
  const languageModels = registerLanguageModels(context, { connection, catalog, failures, log });
  const toolServers = new ToolServerDefinitions(log);
  context.subscriptions.push(toolServers);
  clock.phase('language models and tool servers');
  const participant = registerUnifiedParticipant({
    connection,
    failures,
    research,
    reports,
    catalog,
    credits,
    log,
    extensionUri: context.extensionUri,
    storageUri: context.globalStorageUri,
  });
  context.subscriptions.push(...participant.disposables);
  clock.phase('@unified');
  const workspaceFiles = new WorkspaceFilesService();
  const semanticSearch = registerSemanticSearch({
    connection,
    failures,
    catalog,
    log,
    storageUri: context.storageUri,
    workspaceFiles,
  });
  context.subscriptions.push(workspaceFiles, ...semanticSearch.disposables);
  clock.phase('semantic search');
  // The rest of the gateway as tools for chat agents (research, search, rerank, images, transcription, credits).
  // The same services serve VS Code's agents (language model tools) and the chat's own tools.
  const gatewayTools = {
    connection,
    failures,
    catalog,
    credits,
    research,
    reports,
    searchIndex: semanticSearch.service,
    workspaceFiles,
    log,
  };
  const lmTools = registerLanguageModelTools(gatewayTools);
  context.subscriptions.push(...lmTools.disposables);
  clock.phase('language model tools');
  context.subscriptions.push(
    ...registerMediaCommands({
      connection,
      failures,
      catalog,
      player: participant.player,
      extensionUri: context.extensionUri,
      log,
      workspaceFiles,
      state: context.globalState,
    }),
  );
  clock.phase('media');
  const completions = registerCompletions({ connection, catalog, credits, workspaceFiles, log });
  context.subscriptions.push(...completions.disposables);

  const imageFolder = vscode.Uri.joinPath(context.globalStorageUri, 'conversationImages');
  const imageStore = new ChatImageStore(imageFolder.fsPath);
  const store = new ConversationStore(
    vscode.Uri.joinPath(context.globalStorageUri, 'conversations').fsPath,
    (problem) => log.warn(`Chat history: ${problem}`),
    (value) => apiKeys.redact(value),
    imageStore,
  );
  // Images of conversations that are gone (a draft never sent, a crash before the save) are removed
  // once they are a day old; the history's list reads the files on disk, so it is the truth.
  void store
    .list('')
    .then((conversations) => imageStore.pruneOrphans(new Set(conversations.map((c) => c.id)), Date.now()))
    .then(
      (removed) =>
        removed.length &&
        log.info(`Chat images: removed the images of ${removed.length} conversations that no longer exist.`),
      (error: unknown) =>
        log.warn(`Chat images: could not remove images of deleted conversations: ${errorMessage(error)}`),
    );
  // Checkpoints: the writers (Apply, the model's edit tools) get `checkpoints.service` as their CheckpointRecorder.
  const checkpoints = createCheckpoints({
    context,
    workspaceFiles,
    log,
    conversationIds: async () => new Set((await store.list('')).map((c) => c.id)),
  });
  context.subscriptions.push(...checkpoints.disposables);
  // The edit tools' "(proposed edit)" diffs of files a restore changed show a past proposal: closed.
  context.subscriptions.push(
    checkpoints.service.onDidRestore(({ files }) => void closeReviewedDiffs(files.map((f) => f.uri))),
  );
  const lastConversation = new LastConversation(
    vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'chat-last-conversation.json').fsPath,
  );
  if (context.extensionMode !== vscode.ExtensionMode.Production)
    await clock.awaiting(seedCheckpointForUiTest(store, checkpoints.service, lastConversation, log));
  clock.phase('history and checkpoints');
  const costs = new CostMeter();
  context.subscriptions.push(connection.onDidUseModel(() => costs.noteOtherUse()));
  const files = new WorkspaceFileIndex(workspaceFiles);
  // Apply on chat code blocks: the checkpoint recorder keeps each file before a reply's first write.
  const codeApplier = new CodeApplier(
    { connection, failures, catalog, workspaceFiles, files, log },
    checkpoints.service,
  );
  context.subscriptions.push(codeApplier);
  clock.phase('apply');
  // Inline edit: the selection rewritten in its editor, reviewed by Apply's rules (checkpoint before the first write).
  const inlineEdit = registerInlineEdit({
    connection,
    failures,
    workspaceFiles,
    checkpoints: checkpoints.service,
    log,
    context,
    redact: (text) => apiKeys.redact(text),
  });
  context.subscriptions.push(inlineEdit);
  context.subscriptions.push(
    ...registerCommitMessage({ connection, failures, catalog, workspaceFiles, log }).disposables,
  );
  const chat = registerChat(
    context.extensionUri,
    {
      connection,
      apiKeys,
      catalog,
      credits,
      store,
      imageFolder,
      files,
      workspaceFiles,
      costs,
      workspaceState: context.workspaceState,
      lastConversation,
      log,
      checkpoints,
      codeApplier,
      gatewayTools,
    },
    log,
  );
  context.subscriptions.push(...chat.disposables);
  clock.phase('chat');

  await clock.awaiting(connection.initialize(storedKey !== undefined));
  clock.phase('initialize');
  const activation = clock.finish();
  log.info(formatActivationLine(String((context.extension.packageJSON as { version?: unknown }).version), activation));
  const phases = formatActivationPhases(activation);
  if (phases) log.info(phases);
  return context.extensionMode === vscode.ExtensionMode.Test
    ? createTestApi(context, API_KEY_SECRET_ID, () => apiKeys.source(), {
        connection,
        failures,
        credits,
        creditsItem,
        catalog,
        models,
        research,
        researchView,
        reports,
        participantHandler: participant.handler,
        chat: chat.view.controller,
        chatPanel: chat.lastPanel,
        searchIndex: semanticSearch.service,
        searchStatus: semanticSearch.status,
        searchResults: semanticSearch.view,
        checkpoints,
        codeApplier,
        languageModels,
        toolServers,
        lmTools: lmTools.tools,
        completions,
        inlineEdits: inlineEdit.edits,
      })
    : undefined;
}

/** The commands of no one feature: the log and the settings. */
function commandTable(log: Log): vscode.Disposable[] {
  const commands: Record<string, () => unknown> = {
    'unifiedInference.showLog': () => log.show(),
    'unifiedInference.openSettings': () => openSettings(),
  };
  return Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
