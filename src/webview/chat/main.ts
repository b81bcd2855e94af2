import { assertNever, type ChatToHostMessage, type HostToChatMessage } from '../../shared/chatProtocol';
import { renderConnectionCard } from './connectionCard';
import { vscodeApi } from './vscodeApi';

const host = vscodeApi<ChatToHostMessage>();
const root = document.getElementById('root');

window.addEventListener('message', (event: MessageEvent<HostToChatMessage>) => {
  const message = event.data;
  if (!root) return;
  switch (message.type) {
    case 'connectionState':
      renderConnectionCard(root, message.state, (command) => host.postMessage({ type: 'runCommand', command }));
      return;
    default:
      assertNever(message.type);
  }
});

host.postMessage({ type: 'ready' });
