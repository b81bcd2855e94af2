// The extension's settings: names, defaults and parsing, in one pure place. The VS Code side
// reads them through src/extension/config.ts; a unit test checks this list against package.json.

export const SETTINGS_SECTION = 'unifiedInference';

export type AuthHeader = 'authorization' | 'x-api-key';

/** The model categories of the catalog (wire-conventions "Quota and models"). */
export const MODEL_CATEGORIES = ['chat', 'embedding', 'rerank', 'transcription', 'speech', 'image'] as const;
export type ModelCategoryName = (typeof MODEL_CATEGORIES)[number];

export interface CreditSettings {
  /** Minutes between balance refreshes while the window is in use. */
  readonly refreshIntervalMinutes: number;
  /** USD: under this the balance shows in warning colours (and a one-time notice). */
  readonly warningThreshold: number;
  /** USD: under this the balance shows in error colours. */
  readonly errorThreshold: number;
}

/** Which endpoint answers chat: `auto` picks /messages for Anthropic-style models. */
export type ChatApi = 'auto' | 'chat' | 'messages';

interface ChatSettings {
  /** Tool server addresses sent as `mcp_servers`: the gateway runs their tools server-side. */
  readonly mcpServers: readonly string[];
  /** Offer models the workspace tools (read, list, search files; create, edit, delete, rename files), each call approved by the user. */
  readonly workspaceTools: boolean;
  /** Add the workspace's AGENTS.md and .github/copilot-instructions.md to the system prompt (trusted workspaces only). */
  readonly useInstructionFiles: boolean;
  /** Edits inside the workspace run without asking (sensitive files, and files that can run code, still ask every time). User settings only. */
  readonly autoApproveEdits: boolean;
  /** Globs added to the built-in files whose edits always ask (.vscode/, package.json, scripts, hooks...). User settings only. */
  readonly alwaysAskEdits: readonly string[];
  /** Offer the run_command tool (always asked, never for the conversation). User settings only. */
  readonly terminalTool: boolean;
  /** USD a reply may spend before its tool loop ends (0: no cap). User settings only. */
  readonly maxSpendPerReply: number;
  /** USD: the estimate beside Send shows when the send could cost this much or more. User settings only. */
  readonly costEstimateThreshold: number;
}

interface SearchSettings {
  /** Glob of the files semantic search indexes (relative to each workspace folder). */
  readonly include: string;
  /** Files larger than this (KB) are not indexed: generated or data files, rarely what a search wants. */
  readonly maxFileSizeKB: number;
  /** Candidates taken by cosine similarity and sent to the reranker. */
  readonly candidates: number;
  /** Results the reranker returns (`top_n`). */
  readonly results: number;
}

export interface Settings {
  /** The gateway address as the user typed it ('' when not configured). */
  readonly baseUrl: string;
  readonly authHeader: AuthHeader;
  /** Sent with every request (for gateways behind company proxies). */
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** A PEM file of extra certificate authorities, added to the default ones ('' for none). */
  readonly caCertificateFile: string;
  readonly credits: CreditSettings;
  readonly chatApi: ChatApi;
  readonly chat: ChatSettings;
  readonly search: SearchSettings;
  /** The model used by default for each purpose ('' lets the feature choose). */
  readonly defaultModels: Readonly<Record<ModelCategoryName, string>>;
  /** The user's corrections of the catalog's categories: model id -> category. */
  readonly categoryOverrides: Readonly<Record<string, ModelCategoryName>>;
  /** Generated images: `folder` is where Save to Workspace writes, relative to the first workspace folder. */
  readonly images: { readonly folder: string };
  /** Globs added to the built-in sensitive files (keys, credentials, .env): never read without a one-time approval. */
  readonly sensitiveFiles: readonly string[];
  /** Apply on a chat code block: `model` merges a partial block into its file ('' = the conversation's model). */
  readonly apply: { readonly model: string };
  /** Inline edit in the editor: `model` rewrites the selection ('' = defaultModels.chat). */
  readonly inlineEdit: { readonly model: string };
  readonly commitMessage: { readonly model: string };
  readonly checkpoints: CheckpointSettings;
  readonly completions: CompletionSettings;
}

interface CompletionSettings {
  /** Inline completions (ghost text) as you type: off until the user turns them on (they cost credits). */
  readonly enabled: boolean;
  /** The chat model that completes ('' = none picked yet: no completion until one is). */
  readonly model: string;
  /** Language id -> on/off, `*` for the rest (the peers' `enable` map). */
  readonly languages: Readonly<Record<string, boolean>>;
  /** How long typing must pause before a request (ms). */
  readonly debounceMs: number;
}

/** Prose and commit messages are off by default: completions there cost credits for little. */
const DEFAULT_COMPLETION_LANGUAGES: Readonly<Record<string, boolean>> = {
  '*': true,
  plaintext: false,
  markdown: false,
  scminput: false,
};

interface CheckpointSettings {
  /** MB the workspace's checkpoints may take on disk; the oldest go first past it. User settings only (a workspace could set it tiny and prune the user's checkpoints). */
  readonly maxStorageMB: number;
}

/** Every setting key (without the section prefix, dotted as in package.json) with its default. */
export const SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
  baseUrl: '',
  authHeader: 'authorization',
  extraHeaders: {},
  caCertificateFile: '',
  'credits.refreshIntervalMinutes': 5,
  'credits.warningThreshold': 5,
  'credits.errorThreshold': 1,
  'chat.api': 'auto',
  'chat.mcpServers': [],
  'chat.workspaceTools': true,
  'chat.useInstructionFiles': true,
  'chat.autoApproveEdits': false,
  'chat.alwaysAskEdits': [],
  'chat.terminalTool': false,
  'chat.maxSpendPerReply': 0,
  'chat.costEstimateThreshold': 0.05,
  'search.include': '**/*',
  'search.maxFileSizeKB': 256,
  'search.candidates': 50,
  'search.results': 10,
  ...Object.fromEntries(MODEL_CATEGORIES.map((category) => [`defaultModels.${category}`, ''])),
  'models.categoryOverrides': {},
  'images.folder': 'images',
  sensitiveFiles: [],
  'checkpoints.maxStorageMB': 500,
  'apply.model': '',
  'completions.enabled': false,
  'completions.model': '',
  'completions.languages': DEFAULT_COMPLETION_LANGUAGES,
  'completions.debounceMs': 250,
  'inlineEdit.model': '',
  'commitMessage.model': '',
};

/**
 * The settings the gateway connection is built from (ours, then VS Code's network settings).
 * Only a change to one of these rebuilds the client; the others (credits thresholds, default
 * models, chat API) are read where they are used, and must not reset research polling or the
 * catalog.
 */
const CONNECTION_SETTING_KEYS = ['baseUrl', 'authHeader', 'extraHeaders', 'caCertificateFile'] as const;
const NETWORK_SETTING_IDS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'] as const;

/**
 * The settings that decide where requests (and the key) go, which certificate authorities are
 * trusted, which headers are added, which tool servers the gateway runs, whether the model's
 * edits run without asking, whether it may run commands, and how much of the user's undo history
 * (checkpoints) is kept. They are read from the user's settings only (declared `application` scope in package.json, and read through
 * `inspect().globalValue`): a cloned repository's `.vscode/settings.json` must not send the key to
 * its own server the moment the folder opens.
 */
/**
 * Inline completions spend credits on every keystroke: turning them on, the model and the pace are
 * the user's, never a cloned repository's .vscode/settings.json (and the menu writes user settings,
 * which a workspace value would silently override). The language map too: the menu's per-language
 * switch writes it to user settings, and a workspace could otherwise turn on a language the user
 * turned off.
 */
const COMPLETION_SETTING_KEYS: readonly string[] = [
  'completions.enabled',
  'completions.model',
  'completions.languages',
  'completions.debounceMs',
];

/** The setting key (under the section) of the per-reply spend cap, which a stopped reply opens. */
export const MAX_SPEND_PER_REPLY_KEY = 'chat.maxSpendPerReply';

/**
 * Spending is the user's to limit: a cloned repository's .vscode/settings.json must not raise (or
 * remove, with 0) the cap the user set, nor raise the threshold to hide what a send would cost.
 * Read from user settings only rather than "the lower of user and workspace": a workspace's 0
 * means "no cap", so a lower-wins rule would still need the user's value to mean anything.
 */
const SPEND_SETTING_KEYS: readonly string[] = [MAX_SPEND_PER_REPLY_KEY, 'chat.costEstimateThreshold'];

export const USER_ONLY_SETTING_KEYS: readonly string[] = [
  ...CONNECTION_SETTING_KEYS,
  ...SPEND_SETTING_KEYS,
  'chat.mcpServers',
  'chat.autoApproveEdits',
  'chat.alwaysAskEdits',
  'chat.terminalTool',
  'checkpoints.maxStorageMB',
  ...COMPLETION_SETTING_KEYS,
];

/** Whether a configuration change touches the connection (`affects` is the event's affectsConfiguration). */
export function affectsConnection(affects: (section: string) => boolean): boolean {
  return (
    CONNECTION_SETTING_KEYS.some((key) => affects(`${SETTINGS_SECTION}.${key}`)) ||
    NETWORK_SETTING_IDS.some((id) => affects(id))
  );
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value.trim() : fallback;
}

function number(value: unknown, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** Header names and values a user may add: printable, no line breaks (they could split a request). */
function headers(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof raw !== 'string' || /[\r\n\0]/.test(raw)) continue;
    result[name] = raw;
  }
  return result;
}

/** Tool server addresses: http(s) URLs only, each once (anything else would be refused by the gateway). */
function toolServers(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const urls = value
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => entry.trim())
    .filter((entry) => /^https?:\/\/\S+$/i.test(entry));
  return [...new Set(urls)];
}

/** Model id -> category; entries naming no known category are dropped (a typo must not hide a model). */
function categoryMap(value: unknown): Record<string, ModelCategoryName> {
  const result: Record<string, ModelCategoryName> = Object.create(null) as Record<string, ModelCategoryName>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return result;
  for (const [id, raw] of Object.entries(value as Record<string, unknown>)) {
    const category = MODEL_CATEGORIES.find(
      (known) => known === (typeof raw === 'string' ? raw.trim().toLowerCase() : undefined),
    );
    if (id.trim() && category) result[id.trim()] = category;
  }
  return result;
}

/** Language id -> boolean; other entries are dropped. Not given (or not an object): the defaults. */
function languageMap(value: unknown): Record<string, boolean> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ...DEFAULT_COMPLETION_LANGUAGES };
  const result: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  for (const [id, on] of Object.entries(value as Record<string, unknown>))
    if (id.trim() && typeof on === 'boolean') result[id.trim()] = on;
  return result;
}

/** Non-empty strings, each once. */
function globList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [
    ...new Set(
      value
        .filter((entry): entry is string => typeof entry === 'string')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ];
}

/** Turns raw configuration values (any type a user can write in settings.json) into Settings. */
export function parseSettings(read: (key: string) => unknown): Settings {
  const warningThreshold = number(read('credits.warningThreshold'), 5, 0);
  return {
    baseUrl: text(read('baseUrl'), ''),
    authHeader: read('authHeader') === 'x-api-key' ? 'x-api-key' : 'authorization',
    extraHeaders: headers(read('extraHeaders')),
    caCertificateFile: text(read('caCertificateFile'), ''),
    credits: {
      refreshIntervalMinutes: number(read('credits.refreshIntervalMinutes'), 5, 1, 24 * 60),
      warningThreshold,
      // The error threshold never sits above the warning one.
      errorThreshold: Math.min(warningThreshold, number(read('credits.errorThreshold'), 1, 0)),
    },
    chatApi: ((value) => (value === 'chat' || value === 'messages' ? value : 'auto'))(read('chat.api')),
    chat: {
      mcpServers: toolServers(read('chat.mcpServers')),
      workspaceTools: read('chat.workspaceTools') !== false,
      useInstructionFiles: read('chat.useInstructionFiles') !== false,
      autoApproveEdits: read('chat.autoApproveEdits') === true,
      alwaysAskEdits: globList(read('chat.alwaysAskEdits')),
      terminalTool: read('chat.terminalTool') === true,
      // A negative, non-numeric or non-finite value is no cap rather than a cap of nothing.
      maxSpendPerReply: number(read(MAX_SPEND_PER_REPLY_KEY), 0, 0, 1_000_000),
      costEstimateThreshold: number(read('chat.costEstimateThreshold'), 0.05, 0, 1_000_000),
    },
    search: {
      include: text(read('search.include'), '') || '**/*',
      maxFileSizeKB: number(read('search.maxFileSizeKB'), 256, 1, 10_240),
      candidates: Math.round(number(read('search.candidates'), 50, 1, 1000)),
      results: Math.round(number(read('search.results'), 10, 1, 100)),
    },
    defaultModels: Object.fromEntries(
      MODEL_CATEGORIES.map((category) => [category, text(read(`defaultModels.${category}`), '')]),
    ) as Record<ModelCategoryName, string>,
    categoryOverrides: categoryMap(read('models.categoryOverrides')),
    images: { folder: text(read('images.folder'), 'images') },
    sensitiveFiles: globList(read('sensitiveFiles')),
    checkpoints: { maxStorageMB: number(read('checkpoints.maxStorageMB'), 500, 10, 100_000) },
    apply: { model: text(read('apply.model'), '') },
    completions: {
      enabled: read('completions.enabled') === true,
      model: text(read('completions.model'), ''),
      languages: languageMap(read('completions.languages')),
      debounceMs: Math.round(number(read('completions.debounceMs'), 250, 50, 2_000)),
    },
    inlineEdit: { model: text(read('inlineEdit.model'), '') },
    commitMessage: { model: text(read('commitMessage.model'), '') },
  };
}
