import type * as vscode from 'vscode';
import { readSettings } from './config';
import { contextKeyValues } from './contextKeys';
import type { Settings } from '../shared/settings';
import type { KeySource } from '../shared/chatProtocol';
import type { CreditsMonitor } from './account/creditsMonitor';
import type { CodeApplier } from './apply/codeApplier';
import type { Completions } from './completions/registerCompletions';
import type { InlineEdits } from './inlineEdit/inlineEdits';
import type { ChatController } from './chat/chatController';
import type { Checkpoints } from './checkpoints/createCheckpoints';
import type { CreditsStatusItem } from './account/creditsStatusItem';
import type { Failures } from './errors/failures';
import type { GatewayConnection } from './gateway/gatewayConnection';
import type { LmTools } from './lmTools/registerLanguageModelTools';
import type { ModelCatalog } from './models/modelCatalog';
import type { ModelsView } from './models/modelsView';
import type { ReportDocuments } from './research/reportDocuments';
import type { ResearchJobs } from './research/researchJobs';
import type { ResearchView } from './research/researchView';
import type { GatewayLanguageModels } from './languageModels/languageModelProvider';
import type { SearchIndexService } from './search/searchIndexService';
import type { IndexStatusItem } from './search/indexStatusItem';
import type { SearchResultsView } from './search/searchResultsView';
import type { ToolServerDefinitions } from './toolServers/toolServerProvider';

/** The parts of the running extension the integration tests drive and read. */
export interface TestParts {
  readonly connection: GatewayConnection;
  /** Every feature's failure presenter: tests wait on its onDidShow for what a failure showed, and with which buttons. */
  readonly failures: Failures;
  readonly credits: CreditsMonitor;
  readonly creditsItem: CreditsStatusItem;
  readonly catalog: ModelCatalog;
  readonly models: ModelsView;
  readonly research: ResearchJobs;
  readonly researchView: ResearchView;
  readonly reports: ReportDocuments;
  /** The @unified participant's request handler (tests call it with a recording response stream). */
  readonly participantHandler: vscode.ChatRequestHandler;
  /** The sidebar chat's controller (tests send prompts and read the conversation). */
  readonly chat: ChatController;
  /** The chat of the editor panel opened last by Open Chat in Editor. */
  readonly chatPanel: () => ChatController | undefined;
  /** The semantic index service (tests wait on its onDidUpdate: watcher updates have no command to await). */
  readonly searchIndex: SearchIndexService;
  /** Indexing's status bar item (tests read what it shows while the Index command runs and after). */
  readonly searchStatus: IndexStatusItem;
  /** The Search Results view (its description says how much the index holds). */
  readonly searchResults: SearchResultsView;
  /** The checkpoints of this window (tests record through `service` as a writer would, and restore). */
  readonly checkpoints: Checkpoints;
  /** Apply on chat code blocks and its open reviews. */
  readonly codeApplier: CodeApplier;
  /** The vscode.lm chat provider (tests read the usage it noted). */
  readonly languageModels: GatewayLanguageModels;
  /** The MCP server definition provider (tests call it as VS Code would). */
  readonly toolServers: ToolServerDefinitions;
  /** The language model tools' implementations (tests read their confirmation messages; invocations go through vscode.lm). */
  readonly lmTools: LmTools;
  /** Inline completions: the controller (counters, state), the provider (tests call it as VS Code would) and the status item. */
  readonly completions: Completions;
  /** Inline edit: its sessions (tests end them all between tests, and start them concurrently). */
  readonly inlineEdits: InlineEdits;
}

/**
 * What the integration tests may inspect, returned from `activate` only when VS Code runs the
 * extension in test mode (never in normal use: it would expose state to other extensions).
 */
export interface TestApi extends TestParts {
  /** Every key and value the extension keeps in globalState and workspaceState. */
  storedState(): Record<string, unknown>;
  /** Where the extension's log files are written. */
  readonly logUri: vscode.Uri;
  /** The extension's global storage folder (the chat history and the reply journals are in `conversations/`). */
  readonly globalStorage: string;
  /** The raw SecretStorage entry for the key (to check what the commands stored). */
  storedApiKey(): Thenable<string | undefined>;
  /** Where the key in use comes from, as the rest of the extension sees it. */
  apiKeySource(): Promise<KeySource>;
  /** The settings as every feature reads them (remembered between configuration changes). */
  settings(): Settings;
  /** The context keys the extension set (the walkthrough's among them), with their values. */
  contextKeys(): ReadonlyMap<string, unknown>;
}

export function createTestApi(
  context: vscode.ExtensionContext,
  apiKeySecretId: string,
  apiKeySource: () => Promise<KeySource>,
  parts: TestParts,
): TestApi {
  const dump = (memento: vscode.Memento): Record<string, unknown> =>
    Object.fromEntries(memento.keys().map((key) => [key, memento.get(key)]));
  return {
    ...parts,
    storedState: () => ({ global: dump(context.globalState), workspace: dump(context.workspaceState) }),
    logUri: context.logUri,
    globalStorage: context.globalStorageUri.fsPath,
    storedApiKey: () => context.secrets.get(apiKeySecretId),
    apiKeySource,
    settings: readSettings,
    contextKeys: contextKeyValues,
  };
}
