// The audio player's page: one <audio> element, custom controls in VS Code's colours, parts played
// in order as they arrive. All text set with textContent (titles come from model output).
import type { PlayerState } from '../../shared/audioProtocol';

const SPEEDS = ['0.75', '1', '1.25', '1.5', '2'];

export interface PlayerStatusReport {
  readonly state: PlayerState;
  readonly part: number;
  readonly parts: number;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export class PlayerView {
  private readonly audio = element('audio', 'audio', { preload: 'auto' });
  private readonly title = element('h1', 'title');
  private readonly playButton = element('button', 'play', { type: 'button', 'aria-label': 'Play', title: 'Play' });
  private readonly playIcon = element('span', 'codicon codicon-play', { 'aria-hidden': 'true' });
  private readonly progress = element('input', 'progress', {
    type: 'range',
    min: '0',
    max: '1000',
    value: '0',
    'aria-label': 'Position in the current part',
  });
  private readonly time = element('span', 'time', { 'aria-label': 'Elapsed and total time of the current part' });
  private readonly speed = element('select', 'speed', { 'aria-label': 'Playback speed' });
  private readonly partLabel = element('span', 'part');
  private readonly statusLine = element('p', 'status', { role: 'status', 'aria-live': 'polite' });

  private playlist = 0;
  private urls: (string | undefined)[] = [];
  private current = 0;
  private state: PlayerState = 'idle';

  constructor(
    root: HTMLElement,
    private readonly report: (status: PlayerStatusReport) => void,
  ) {
    const controls = element('div', 'controls');
    this.playButton.append(this.playIcon);
    const speedLabel = element('label', 'speed-label');
    speedLabel.append(element('span', 'codicon codicon-dashboard', { 'aria-hidden': 'true' }), this.speed);
    for (const value of SPEEDS) {
      const option = element('option', '', { value });
      option.textContent = `${value}×`;
      this.speed.append(option);
    }
    this.speed.value = '1';
    controls.append(this.playButton, this.progress, this.time, speedLabel);
    const section = element('section', 'player', { 'aria-label': 'Audio player' });
    section.append(this.title, controls, this.partLabel, this.statusLine, this.audio);
    root.replaceChildren(section);
    this.title.textContent = 'Nothing to play yet';
    this.time.textContent = '0:00 / 0:00';
    this.bindEvents();
    this.render();
  }

  load(playlist: number, title: string, expectedParts: number): void {
    this.audio.pause();
    for (const url of this.urls) if (url) URL.revokeObjectURL(url);
    this.playlist = playlist;
    this.urls = new Array<string | undefined>(Math.max(0, expectedParts)).fill(undefined);
    this.current = 0;
    this.audio.removeAttribute('src');
    this.title.textContent = title;
    this.statusLine.textContent = 'Generating speech...';
    this.setState('loading');
  }

  addPart(playlist: number, index: number, contentType: string, base64: string): void {
    if (playlist !== this.playlist || index < 0 || index >= this.urls.length || this.urls[index]) return;
    this.urls[index] = URL.createObjectURL(new Blob([bytesOf(base64)], { type: contentType }));
    if (index === this.current && (this.state === 'loading' || this.state === 'waiting')) this.playCurrent();
    else this.render();
  }

  fail(playlist: number, message: string): void {
    if (playlist !== this.playlist) return;
    this.statusLine.textContent = `Speech failed: ${message}`;
    if (this.state === 'loading' || this.state === 'waiting') this.setState('failed');
  }

  private bindEvents(): void {
    this.playButton.addEventListener('click', () => {
      if (this.state === 'playing') this.audio.pause();
      else if (this.state === 'ended') {
        this.current = 0;
        this.playCurrent();
      } else if (this.audio.getAttribute('src')) void this.tryPlay();
      else this.playCurrent();
    });
    this.progress.addEventListener('input', () => {
      if (Number.isFinite(this.audio.duration))
        this.audio.currentTime = (Number(this.progress.value) / 1000) * this.audio.duration;
    });
    this.speed.addEventListener('change', () => this.applySpeed());
    this.audio.addEventListener('timeupdate', () => this.renderTime());
    this.audio.addEventListener('durationchange', () => this.renderTime());
    this.audio.addEventListener('play', () => this.setState('playing'));
    this.audio.addEventListener('pause', () => {
      if (!this.audio.ended && this.state === 'playing') this.setState('paused');
    });
    this.audio.addEventListener('ended', () => this.next());
    this.audio.addEventListener('error', () => {
      this.statusLine.textContent = 'This part could not be played.';
      this.next();
    });
  }

  private next(): void {
    this.current += 1;
    if (this.current < this.urls.length) this.playCurrent();
    else {
      this.current = Math.max(0, this.urls.length - 1);
      this.statusLine.textContent = 'Finished. Press Play to listen again.';
      this.setState('ended');
    }
  }

  private playCurrent(): void {
    const url = this.urls[this.current];
    if (!url) {
      this.statusLine.textContent = 'Waiting for the next part...';
      this.setState(this.urls.length ? 'waiting' : 'idle');
      return;
    }
    this.audio.src = url;
    this.applySpeed();
    this.statusLine.textContent = '';
    void this.tryPlay();
  }

  private async tryPlay(): Promise<void> {
    try {
      await this.audio.play();
    } catch {
      // Autoplay without a user gesture can be refused: the Play button then starts it.
      this.statusLine.textContent = 'Press Play to listen.';
      this.setState('blocked');
    }
  }

  private applySpeed(): void {
    const rate = Number(this.speed.value) || 1;
    this.audio.defaultPlaybackRate = rate;
    this.audio.playbackRate = rate;
  }

  private setState(state: PlayerState): void {
    this.state = state;
    this.render();
    this.report({ state, part: this.current, parts: this.urls.length });
  }

  private render(): void {
    const playing = this.state === 'playing';
    this.playIcon.className = `codicon ${playing ? 'codicon-debug-pause' : 'codicon-play'}`;
    this.playButton.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    this.playButton.title = playing ? 'Pause' : 'Play';
    this.playButton.disabled = !this.urls.some(Boolean);
    const arrived = this.urls.filter(Boolean).length;
    this.partLabel.textContent = this.urls.length
      ? `Part ${this.current + 1} of ${this.urls.length}${arrived < this.urls.length ? ` (${arrived} ready)` : ''}`
      : '';
    this.renderTime();
  }

  private renderTime(): void {
    const { currentTime, duration } = this.audio;
    this.progress.value =
      Number.isFinite(duration) && duration > 0 ? String(Math.round((currentTime / duration) * 1000)) : '0';
    this.time.textContent = `${formatTime(currentTime)} / ${formatTime(duration)}`;
  }
}
