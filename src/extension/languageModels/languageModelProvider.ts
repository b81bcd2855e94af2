import * as vscode from 'vscode';
import { readSettings } from '../config';
import type { ErrorDescription } from '../../core/failures/describeError';
import { describeInWords } from '../../core/failures/errorWords';
import type { Failures } from '../errors/failures';
import { missingSetup, SetupRequiredError } from '../../core/failures/setupError';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { TokenUsage } from '../../shared/chatModel';
import { abortOnCancel, Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import { providerOf } from '../../core/models/catalogTree';
import { takesImages } from '../../core/models/modelFeatures';
import { streamGatewayAnswer } from '../../core/answers/gatewayAnswer';
import { toolInputRefusal } from '../../core/answers/gatewayMessages';
import {
  answerRoomOf,
  chatModelInformation,
  estimateTokens,
  type ModelInformation,
} from '../../core/languageModels/modelInformation';
import {
  countableText,
  toGatewayModelOptions,
  toGatewayRequest,
  toGatewayTools,
  type LanguageModelKit,
} from '../../core/languageModels/requestMessages';

const LANGUAGE_MODEL_VENDOR = 'unified-inference';

type Information = vscode.LanguageModelChatInformation & ModelInformation;

/** Token usage of one answer, as the gateway counted it. */
export interface LanguageModelUsage {
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** The vscode classes the request mapping tells apart (System only where the running VS Code has it). */
const KIT: LanguageModelKit = {
  TextPart: vscode.LanguageModelTextPart,
  ToolCallPart: vscode.LanguageModelToolCallPart,
  ToolResultPart: vscode.LanguageModelToolResultPart,
  roles: vscode.LanguageModelChatMessageRole,
};

/**
 * Maps a failure, described the shared way (errors/describeError.ts), to the LanguageModelError
 * kinds VS Code's chat knows how to show; the text carries the next step in words (the caller, often
 * another extension, cannot show our buttons).
 */
function languageModelError(error: unknown, description: ErrorDescription): Error {
  if (error instanceof Error && error.name === 'AbortError') return error;
  const text = vscode.l10n.t('Unified Inference: {0}', describeInWords(description));
  if (description.kind === 'auth' || description.kind === 'setup') return vscode.LanguageModelError.NoPermissions(text);
  if (description.kind === 'outOfCredits') return vscode.LanguageModelError.Blocked(text);
  if ((error as { status?: number } | undefined)?.status === 404) return vscode.LanguageModelError.NotFound(text);
  if ((error as { code?: string } | undefined)?.code === 'content_filter')
    return vscode.LanguageModelError.Blocked(text);
  const mapped = new Error(text);
  if (error instanceof Error) mapped.name = error.name;
  return mapped;
}

/**
 * The gateway's chat models in VS Code's own chat (and for every extension using `vscode.lm`):
 * listed from the catalog, answered by streaming from the gateway, tool calls both ways.
 */
export class GatewayLanguageModels extends Disposable implements vscode.LanguageModelChatProvider<Information> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly catalog: ModelCatalog,
    private readonly log: Log,
    private readonly failures: Failures,
  ) {
    super();
    // Key and address changes change the list (an empty list without a key). The catalog also
    // fires for its loading status; telling VS Code then would make it re-query and rebuild its
    // model picker under the user's pointer, so only a list that really differs is announced.
    this._register(connection.onDidChange(() => this.changed.fire()));
    this._register(catalog.onDidChange(() => this.announceIfChanged()));
    this._register(vscode.lm.registerLanguageModelChatProvider(LANGUAGE_MODEL_VENDOR, this));
  }

  /** What the list looked like when VS Code last heard about it (undefined: never, or unknown). */
  private announced: string | undefined;

  private announceIfChanged(): void {
    const offered = this.connection.setup.hasKey ? chatModelInformation(this.catalog.snapshot?.models ?? []) : [];
    const fingerprint = JSON.stringify(offered);
    if (fingerprint === this.announced) return;
    this.announced = fingerprint;
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
  ): Promise<Information[]> {
    const { client, hasKey } = this.connection.setup;
    if (!client || !hasKey) {
      if (!options.silent) void vscode.commands.executeCommand('unifiedInference.manageLanguageModels');
      return [];
    }
    const snapshot = this.catalog.snapshot ?? (await this.catalog.refresh());
    const offered = chatModelInformation(snapshot?.models ?? []);
    this.announced = JSON.stringify(offered);
    return offered;
  }

  async provideLanguageModelChatResponse(
    model: Information,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { client } = this.connection.setup;
    const missing = missingSetup(this.connection.setup);
    if (missing || !client) {
      const error = new SetupRequiredError(missing ?? 'baseUrl');
      throw languageModelError(error, await this.failures.describe(error));
    }
    const request = toGatewayRequest(messages, KIT);
    const catalogModel = this.catalog.model(model.id);
    if (request.refusedImages.length)
      throw new Error(`Unified Inference: an image of the request cannot be sent: ${request.refusedImages.join('; ')}`);
    // Listed without image input (imageInput false): a caller that sends one anyway is told, not answered without it.
    if (request.images.length && !takesImages(catalogModel)) {
      throw new Error(
        `Unified Inference: ${model.id} does not take images (its catalog entry lists no image input); the request held ${request.images.length === 1 ? 'an image' : `${request.images.length} images`} (${[...new Set(request.images)].join(', ')}).`,
      );
    }
    const controller = new AbortController();
    const cancel = abortOnCancel(controller, token);
    const tools = toGatewayTools(options.tools);
    const answerRoom = catalogModel ? answerRoomOf(catalogModel) : undefined;
    try {
      const answer = await streamGatewayAnswer(
        client,
        {
          model: model.id,
          messages: request.messages,
          ...(request.system ? { system: request.system } : {}),
          api: readSettings().chatApi,
          ...(catalogModel ? { provider: providerOf(catalogModel) } : {}),
          ...(answerRoom ? { answerRoom } : {}),
          ...(tools
            ? {
                tools,
                toolChoice: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
              }
            : {}),
          ...toGatewayModelOptions(options.modelOptions),
        },
        {
          text: (delta) => progress.report(new vscode.LanguageModelTextPart(delta)),
          toolCall: (call) => {
            // Arguments refused as too deep or too large: VS Code's agent would run the tool with
            // the placeholder, so the caller reads why in the text instead.
            const refused = toolInputRefusal(call.input);
            if (refused) progress.report(new vscode.LanguageModelTextPart(`\n\n[${call.name}: ${refused}]\n`));
            else progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, call.input));
          },
        },
        controller.signal,
      );
      this.noteUsage(model.id, answer.usage);
      this.connection.reportModelUse();
    } catch (error) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      this.failures.report(error);
      this.connection.reportModelUse();
      // Another extension gets this error and may show or keep it: no key the gateway echoed (describe redacts).
      const description = await this.failures.describe(error);
      this.log.warn(`Language model request to ${model.id} failed: ${description.detail}`);
      throw languageModelError(error, description);
    } finally {
      cancel.dispose();
    }
  }

  /** An estimate (core's tokenEstimate.ts), documented as such in modelInformation.ts. */
  async provideTokenCount(_model: Information, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return typeof text === 'string' ? estimateTokens(text) : estimateTokens(countableText(text, KIT), true);
  }

  /** The gateway's usage figure of the last answer this provider streamed (undefined: none reported). */
  get lastUsage(): LanguageModelUsage | undefined {
    return this.usage;
  }

  private usage: LanguageModelUsage | undefined;

  /**
   * VS Code's stable language model API (1.104) has no part a provider can report usage with
   * (only text, tool call and tool result parts), so the gateway's figure goes to the log, where
   * a user can see what VS Code's chat spent, and the credits display refreshes (reportModelUse).
   */
  private noteUsage(modelId: string, usage: TokenUsage | undefined): void {
    if (!usage) return;
    this.usage = { model: modelId, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens };
    this.log.info(
      `Language model answer from ${modelId}: ${usage.promptTokens} input and ${usage.completionTokens} output tokens (the gateway's count).`,
    );
  }
}

/** The provider's management command: the setup steps, in a quick pick. */
export async function manageLanguageModels(): Promise<void> {
  const items = [
    { label: `$(globe) ${vscode.l10n.t('Set Gateway Address')}`, command: 'unifiedInference.setBaseUrl' },
    { label: `$(key) ${vscode.l10n.t('Set API Key')}`, command: 'unifiedInference.setApiKey' },
    { label: `$(plug) ${vscode.l10n.t('Test Connection')}`, command: 'unifiedInference.testConnection' },
    { label: `$(list-tree) ${vscode.l10n.t('Show the Models view')}`, command: 'unifiedInference.models.focus' },
  ];
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Unified Inference models in VS Code chat'),
    placeHolder: vscode.l10n.t('Connect the gateway whose models VS Code chat offers'),
  });
  if (choice) await vscode.commands.executeCommand(choice.command);
}
