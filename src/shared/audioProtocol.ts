// Messages between the extension host and the audio player webview, declared once for both sides.

export type PlayerState = 'idle' | 'loading' | 'playing' | 'paused' | 'waiting' | 'ended' | 'blocked' | 'failed';

/** Host -> webview. `playlist` numbers a reading; parts of an older one are ignored. */
export type HostToAudioMessage =
  | { readonly type: 'load'; readonly playlist: number; readonly title: string; readonly expectedParts: number }
  | {
      readonly type: 'part';
      readonly playlist: number;
      readonly index: number;
      readonly contentType: string;
      readonly base64: string;
    }
  | { readonly type: 'failed'; readonly playlist: number; readonly message: string };

/** Webview -> host. */
export type AudioToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'status'; readonly state: PlayerState; readonly part: number; readonly parts: number };

const STATES: readonly PlayerState[] = [
  'idle',
  'loading',
  'playing',
  'paused',
  'waiting',
  'ended',
  'blocked',
  'failed',
];

const count = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1_000_000;

/** Validates a message from the webview (untrusted input). */
export function parseAudioToHostMessage(value: unknown): AudioToHostMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      return { type: 'ready' };
    case 'status':
      return STATES.includes(message.state as PlayerState) && count(message.part) && count(message.parts)
        ? { type: 'status', state: message.state as PlayerState, part: message.part, parts: message.parts }
        : undefined;
    default:
      return undefined;
  }
}

/** Audio content types the webview may turn into a Blob; anything else plays as MP3. */
export function safeAudioType(contentType: string): string {
  const bare = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^audio\/[a-z0-9.+-]+$/.test(bare) ? bare : 'audio/mpeg';
}
