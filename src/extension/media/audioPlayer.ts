import { assertNever } from '../../shared/assertNever';
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { parseAudioToHostMessage, safeAudioType, type AudioToHostMessage, type HostToAudioMessage, type PlayerState } from '../../shared/audioProtocol';
import type { Log } from '../log';
import { WebviewChannel } from '../webview/webviewChannel';
import { buildWebviewHtml, webviewOptions } from '../webview/webviewHtml';

const AUDIO_PANEL_TYPE = 'unifiedInference.audioPlayer';
/** The panel's English title; the panel shows it in the display language. */
export const AUDIO_PANEL_TITLE = 'Unified Inference Audio';

export interface AudioPart {
  readonly data: Uint8Array;
  readonly contentType: string;
}

/** One reading: its parts arrive one by one while the first already plays. */
export interface Playlist {
  readonly id: number;
  readonly title: string;
  readonly expectedParts: number;
  readonly parts: (AudioPart | undefined)[];
  failure?: string;
}

export interface PlayerStatus {
  readonly state: PlayerState;
  readonly part: number;
  readonly parts: number;
}

/**
 * The "Unified Inference Audio" panel: one webview panel, reused, that plays a playlist of audio
 * parts in order. The host keeps the playlist, so a webview that reloads (or a panel reopened
 * after being closed) gets everything again once it says `ready`.
 */
export class AudioPlayer extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private channel: WebviewChannel<AudioToHostMessage, HostToAudioMessage> | undefined;
  private playlistValue: Playlist | undefined;
  private sequence = 0;
  private statusValue: PlayerStatus = { state: 'idle', part: 0, parts: 0 };
  private readonly statusChanged = this._register(new vscode.EventEmitter<PlayerStatus>());
  /** What the webview reports (playing, paused, blocked by autoplay rules...). */
  readonly onDidChangeStatus = this.statusChanged.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
    /** Takes known keys out of what the webview gets (a title may quote the gateway). */
    private readonly redact: <T>(value: T) => T,
  ) {
    super();
    this._register({ dispose: () => { this.panel?.dispose(); } });
  }

  get playlist(): Playlist | undefined {
    return this.playlistValue;
  }

  get status(): PlayerStatus {
    return this.statusValue;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Starts a new reading (the previous one stops) and shows the panel; returns the playlist id. */
  start(title: string, expectedParts: number): number {
    const id = ++this.sequence;
    this.playlistValue = { id, title, expectedParts, parts: new Array<AudioPart | undefined>(expectedParts).fill(undefined) };
    this.show();
    this.post({ type: 'load', playlist: id, title, expectedParts });
    return id;
  }

  addPart(playlist: number, index: number, part: AudioPart): void {
    const current = this.playlistValue;
    if (!current || current.id !== playlist || index < 0 || index >= current.expectedParts) return;
    current.parts[index] = part;
    this.post(partMessage(playlist, index, part));
  }

  fail(playlist: number, message: string): void {
    const current = this.playlistValue;
    if (!current || current.id !== playlist) return;
    current.failure = message;
    this.post({ type: 'failed', playlist, message });
  }

  /** Reveals the panel (creating it if needed) without taking the focus from the chat. */
  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const title = vscode.l10n.t('Unified Inference Audio');
    const panel = vscode.window.createWebviewPanel(AUDIO_PANEL_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      ...webviewOptions(this.extensionUri),
      // Playback must go on while another editor is in front.
      retainContextWhenHidden: true,
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'unified-inference.svg');
    panel.webview.html = buildWebviewHtml(panel.webview, this.extensionUri, { title, script: 'audio', styles: ['media/webview.css', 'media/audio.css'] });
    const channel = new WebviewChannel<AudioToHostMessage, HostToAudioMessage>(panel.webview, {
      name: 'audio player',
      parse: parseAudioToHostMessage,
      receive: (message) => this.receive(message),
      redact: this.redact,
      log: this.log,
      // The answer to `ready` is the whole playlist.
      keepAfterReady: () => false,
    });
    this.panel = panel;
    this.channel = channel;
    panel.onDidDispose(() => {
      channel.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.channel = undefined;
        this.setStatus({ state: 'idle', part: 0, parts: 0 });
      }
    });
  }

  private receive(message: AudioToHostMessage): void {
    switch (message.type) {
      case 'ready':
        this.replay();
        return;
      case 'status':
        this.setStatus({ state: message.state, part: message.part, parts: message.parts });
        return;
      default:
        assertNever(message);
    }
  }

  /** A (re)loaded webview knows nothing: send the current playlist as it stands. */
  private replay(): void {
    const current = this.playlistValue;
    if (!current) return;
    this.post({ type: 'load', playlist: current.id, title: current.title, expectedParts: current.expectedParts });
    current.parts.forEach((part, index) => part && this.post(partMessage(current.id, index, part)));
    if (current.failure) this.post({ type: 'failed', playlist: current.id, message: current.failure });
  }

  private post(message: HostToAudioMessage): void {
    this.channel?.post(message);
  }

  private setStatus(status: PlayerStatus): void {
    this.statusValue = status;
    this.statusChanged.fire(status);
  }
}

function partMessage(playlist: number, index: number, part: AudioPart): HostToAudioMessage {
  return { type: 'part', playlist, index, contentType: safeAudioType(part.contentType), base64: Buffer.from(part.data).toString('base64') };
}
