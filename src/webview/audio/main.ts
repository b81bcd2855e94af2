import { assertNever } from '../../shared/assertNever';
import { PlayerView } from './playerView';
import type { AudioToHostMessage, HostToAudioMessage } from './protocol';
import { vscodeApi } from './vscodeApi';

const host = vscodeApi<AudioToHostMessage>();
const root = document.getElementById('root');

if (root) {
  const view = new PlayerView(root, (status) => host.postMessage({ type: 'status', ...status }));
  window.addEventListener('message', (event: MessageEvent<HostToAudioMessage>) => {
    const message = event.data;
    switch (message.type) {
      case 'load':
        view.load(message.playlist, message.title, message.expectedParts);
        return;
      case 'part':
        view.addPart(message.playlist, message.index, message.contentType, message.base64);
        return;
      case 'failed':
        view.fail(message.playlist, message.message);
        return;
      default:
        assertNever(message);
    }
  });
  host.postMessage({ type: 'ready' });
}
