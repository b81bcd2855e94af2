// The composer's context meter: how much of the model's context the next request holds, measured
// (the last reply's usage, as the gateway counted it) or estimated (characters, before the first
// reply or after the model or the attachments changed), and the instruction files the requests
// carry. Posted after every change the controller reports (see `after`).
import * as vscode from 'vscode';
import { catalogContextLength } from '../../../core/context/contextLength';
import { estimateRequestTokens, estimateTextTokens } from '../../../core/context/tokenEstimate';
import type { Attachment, Conversation } from '../../../shared/chatModel';
import type { ContextMeter, HostToChatMessage } from '../../../shared/chatProtocol';
import { Disposable } from '../../lifecycle';
import type { ChatDeps } from '../chatDeps';
import { chooseChatModel } from '../chatModels';
import { turnsToWire, userTurnText } from '../conversationWire';
import { readSettings } from '../../config';
import { chatToolDefinitions } from '../chatTools';
import { compactedHistory, compactionNote, summaryMessage } from './compactedHistory';
import { readInstructionFiles } from './instructionFiles';
import { instructionPrompt, INSTRUCTION_FILE_NAMES, type InstructionFile } from './instructionPrompt';

/** Messages after which the meter may have changed. */
const AFFECTING: ReadonlySet<HostToChatMessage['type']> = new Set(['conversation', 'replyEnded', 'models', 'attachments', 'turnsRemoved', 'userTurn', 'parameters']);

export interface MeterSource {
  conversation(): Conversation;
  attachments(): readonly Attachment[];
  post(message: HostToChatMessage): void;
}

export class ContextMeterReporter extends Disposable {
  private files: Promise<InstructionFile[]> | undefined;
  private scheduled = false;

  constructor(private readonly deps: Pick<ChatDeps, 'catalog' | 'workspaceFiles' | 'workspaceState'>, private readonly source: MeterSource) {
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
    this._register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('unifiedInference.chat')) forget();
    }));
  }

  /** Called with every message the controller posts: those that change the meter schedule a new one. */
  after(message: HostToChatMessage): void {
    if (AFFECTING.has(message.type)) this.schedule();
  }

  /** Opens an instruction file the meter listed; any other path from the webview is ignored. */
  async openFile(path: string): Promise<void> {
    const file = (await this.instructionFiles()).find((candidate) => candidate.path === path);
    if (file) await vscode.window.showTextDocument(vscode.Uri.file(file.absolute), { preview: true });
  }

  /** The meter as it is now (also for tests). */
  async meter(): Promise<ContextMeter> {
    const conversation = this.source.conversation();
    const attachments = this.source.attachments();
    const files = await this.instructionFiles();
    const model = conversation.model || chooseChatModel(this.deps) || '';
    const contextLength = catalogContextLength(this.deps.catalog.snapshot?.models.find((m) => m.id === model));
    const chips = files.map((file) => ({ path: file.path, tokens: estimateTextTokens(file.text), truncated: file.truncated }));
    const last = conversation.turns[conversation.turns.length - 1];
    const pending = attachments.length ? estimateTextTokens(userTurnText({ text: '', attachments })) : 0;
    const base = { ...(contextLength ? { contextLength } : {}), files: chips };
    if (last?.role === 'assistant' && last.context?.usedTokens && last.model === model) {
      return { ...base, usedTokens: last.context.usedTokens + pending, source: pending ? 'estimated' : 'measured' };
    }
    const history = compactedHistory(conversation.turns);
    const system = [conversation.parameters.systemPrompt, instructionPrompt(files), compactionNote(history.summary, history.dropped)].filter(Boolean).join('\n\n');
    const messages = [...(history.summary ? [summaryMessage(history.summary)] : []), ...turnsToWire(history.turns)];
    // The tools' definitions go with every request when they are offered (as the reply would).
    const settings = readSettings();
    const toolChars = settings.chat.workspaceTools && vscode.workspace.isTrusted ? JSON.stringify(chatToolDefinitions(settings)).length : 0;
    const usedTokens = estimateRequestTokens({ system, messages, toolChars }, history.tokensPerChar) + pending;
    return { ...base, usedTokens, source: 'estimated' };
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
      void this.meter().then((meter) => this.source.post({ type: 'contextMeter', meter }), () => undefined);
    }, 0);
  }
}
