import type { ChatToHostMessage, HostToChatMessage } from '../../shared/chatProtocol';
import { listenToHost, vscodeApi } from '../common/vscodeApi';
import { ChatApp, type DraftState } from './chatApp';

const host = vscodeApi<ChatToHostMessage, DraftState>();
const root = document.getElementById('root');

if (root) {
  const app = new ChatApp(
    root,
    (message) => host.postMessage(message),
    host.getState(),
    (state) => host.setState(state),
  );
  listenToHost<HostToChatMessage>(host, (message) => app.handle(message));
}
