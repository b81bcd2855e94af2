import { assertNever } from '../../shared/assertNever';
import { PlayerView } from './playerView';
import type { AudioToHostMessage, HostToAudioMessage } from '../../shared/audioProtocol';
import { listenToHost, vscodeApi } from '../common/vscodeApi';

const host = vscodeApi<AudioToHostMessage>();
const root = document.getElementById('root');

if (root) {
  const view = new PlayerView(root, (status) => host.postMessage({ type: 'status', ...status }));
  listenToHost<HostToAudioMessage>(host, (message) => {
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
}
