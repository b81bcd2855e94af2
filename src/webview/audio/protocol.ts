// Messages between the extension host and the audio player webview. The same declarations live in
// src/extension/media/audioProtocol.ts (a layer may not import the other's files); the unit test
// test/unit/audioProtocol.test.ts fails to compile when the two drift apart.

export type PlayerState = 'idle' | 'loading' | 'playing' | 'paused' | 'waiting' | 'ended' | 'blocked' | 'failed';

/** Host -> webview. `playlist` numbers a reading; parts of an older one are ignored. */
export type HostToAudioMessage =
  | { readonly type: 'load'; readonly playlist: number; readonly title: string; readonly expectedParts: number }
  | { readonly type: 'part'; readonly playlist: number; readonly index: number; readonly contentType: string; readonly base64: string }
  | { readonly type: 'failed'; readonly playlist: number; readonly message: string };

/** Webview -> host. */
export type AudioToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'status'; readonly state: PlayerState; readonly part: number; readonly parts: number };
