import type { ChatToHostMessage, HostToChatMessage } from '../../shared/chatProtocol';
import { ChatApp, type DraftState } from './chatApp';
import { vscodeApi } from './vscodeApi';

const host = vscodeApi<ChatToHostMessage, DraftState>();
const root = document.getElementById('root');

if (root) {
  const app = new ChatApp(root, (message) => host.postMessage(message), host.getState(), (state) => host.setState(state));
  window.addEventListener('message', (event: MessageEvent<HostToChatMessage>) => app.handle(event.data));
  host.postMessage({ type: 'ready' });
}
