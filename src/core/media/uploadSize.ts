// Whether an audio file is small enough to upload for transcription, decided from its size alone
// (a stat), before a byte of it is read: the upload holds the whole file in memory.
import { formatByteSize, TRANSCRIPTION_CONFIRM_BYTES, TRANSCRIPTION_MAX_BYTES } from '../limits';

export type UploadVerdict = { readonly kind: 'ok' } | { readonly kind: 'confirm'; readonly message: string } | { readonly kind: 'refuse'; readonly message: string };

export function transcriptionUploadVerdict(name: string, bytes: number): UploadVerdict {
  const size = formatByteSize(bytes);
  if (bytes > TRANSCRIPTION_MAX_BYTES) {
    return {
      kind: 'refuse',
      message: `${name} is ${size}: the most the extension uploads for transcription is ${formatByteSize(TRANSCRIPTION_MAX_BYTES)} (the file is held in memory while it uploads). Split the audio or compress it (e.g. a lower-bitrate MP3), then try again.`,
    };
  }
  if (bytes > TRANSCRIPTION_CONFIRM_BYTES) {
    return { kind: 'confirm', message: `${name} is ${size}. Gateways usually refuse audio over ${formatByteSize(TRANSCRIPTION_CONFIRM_BYTES)} (HTTP 413), after the whole upload. Upload it anyway?` };
  }
  return { kind: 'ok' };
}
