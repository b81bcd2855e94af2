// The composer's context meter: how much of the model's context the next request holds (see
// meterEstimate.ts), and the instruction files the requests carry. The chat tells it when the
// conversation, its model, parameters or attachments changed (`invalidate`); it watches the
// instruction files, workspace trust and the chat settings itself.
import * as vscode from 'vscode';
import { catalogContextLength, catalogMaxOutputTokens } from '../../../core/context/contextLength';
import { modelPricing } from '../../../core/models/modelPricing';
import { estimateSendCost } from '../../../core/chat/spend/costEstimate';
import type { Attachment, Conversation } from '../../../shared/chatModel';
import type { ContextMeter, CostEstimate, HostToChatMessage } from '../../../shared/chatProtocol';
import { Disposable } from '../../lifecycle';
import type { ChatDeps } from '../chatDeps';
import { chooseChatModel } from '../chatModels';
import { readSettings } from '../../config';
import { chatToolDefinitions, workspaceToolsGate } from '../chatTools';
import { readInstructionFiles } from './instructionFiles';
import { INSTRUCTION_FILE_NAMES, type InstructionFile } from '../../../core/chat/context/instructionPrompt';
import { estimateContextMeter } from '../../../core/chat/context/meterEstimate';

export interface MeterSource {
  conversation(): Conversation;
  attachments(): readonly Attachment[];
  /** How many images wait for the next message. */
  pendingImages(): number;
  post(message: HostToChatMessage): void;
}

export class ContextMeterReporter extends Disposable {
  private files: Promise<InstructionFile[]> | undefined;
  private scheduled = false;
  /** Characters of the draft being typed (the webview tells them, debounced). */
  private draftChars = 0;
  /** The meter last posted: a draft change estimates the cost from it without counting again. */
  private last: ContextMeter | undefined;

  constructor(
    private readonly deps: Pick<ChatDeps, 'catalog' | 'workspaceFiles' | 'workspaceState' | 'gatewayTools'>,
    private readonly source: MeterSource,
  ) {
    super();
    const forget = (): void => {
      this.files = undefined;
      this.schedule();
    };
    for (const name of INSTRUCTION_FILE_NAMES) {
      const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${name}`));
      this._register(watcher.onDidChange(forget));
      this._register(watcher.onDidCreate(forget));
      this._register(watcher.onDidDelete(forget));
    }
    this._register(deps.workspaceFiles.onDidChange(forget));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(forget));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('unifiedInference.chat')) forget();
      }),
    );
  }

  /** The conversation, its model, its parameters or the pending attachments changed: a new meter follows. */
  invalidate(): void {
    this.schedule();
  }

  /** The draft's length changed: only the cost estimate beside Send follows. */
  draftChanged(chars: number): void {
    this.draftChars = chars;
    if (this.last) this.postEstimate(this.last);
    else this.schedule();
  }

  /** The estimate beside Send (costEstimate.ts) for the meter's request plus the draft. */
  costEstimate(meter: ContextMeter): CostEstimate | undefined {
    const conversation = this.source.conversation();
    const model = this.deps.catalog.model(conversation.model || chooseChatModel(this.deps) || '');
    return estimateSendCost({
      contextTokens: meter.usedTokens,
      draftChars: this.draftChars,
      hasAttachments: this.source.attachments().length > 0 || this.source.pendingImages() > 0,
      maxOutputTokens: conversation.parameters.maxTokens ?? catalogMaxOutputTokens(model),
      pricing: modelPricing(model),
      threshold: readSettings().chat.costEstimateThreshold,
    });
  }

  private postEstimate(meter: ContextMeter): void {
    const estimate = this.costEstimate(meter);
    this.source.post({ type: 'costEstimate', ...(estimate ? { estimate } : {}) });
  }

  /** Opens an instruction file the meter listed; any other path from the webview is ignored. */
  async openFile(path: string): Promise<void> {
    const file = (await this.instructionFiles()).find((candidate) => candidate.path === path);
    if (file) await vscode.window.showTextDocument(vscode.Uri.file(file.absolute), { preview: true });
  }

  /** The meter as it is now (also for tests). */
  async meter(): Promise<ContextMeter> {
    const conversation = this.source.conversation();
    const instructionFiles = await this.instructionFiles();
    const model = conversation.model || chooseChatModel(this.deps) || '';
    const contextLength = catalogContextLength(this.deps.catalog.model(model));
    const settings = readSettings();
    const tools = workspaceToolsGate(settings, vscode.workspace.isTrusted);
    return estimateContextMeter({
      conversation,
      attachments: this.source.attachments(),
      pendingImages: this.source.pendingImages(),
      instructionFiles,
      model,
      ...(contextLength ? { contextLength } : {}),
      toolsWithheld: tools.withheld,
      // The tools' definitions go with every request when they are offered (as the reply would).
      toolChars: tools.offered
        ? JSON.stringify(chatToolDefinitions(settings, this.deps.gatewayTools !== undefined)).length
        : 0,
    });
  }

  private instructionFiles(): Promise<InstructionFile[]> {
    this.files ??= readInstructionFiles(this.deps.workspaceFiles).catch(() => []);
    return this.files;
  }

  /** One meter per burst of changes (a reply's end posts several messages at once). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      void this.meter().then(
        (meter) => {
          this.last = meter;
          this.source.post({ type: 'contextMeter', meter });
          this.postEstimate(meter);
        },
        () => undefined,
      );
    }, 0);
  }
}
