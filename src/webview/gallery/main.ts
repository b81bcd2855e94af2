import { assertNever } from '../../shared/assertNever';
import type { GalleryToHostMessage, HostToGalleryMessage } from '../../shared/galleryProtocol';
import { listenToHost, vscodeApi } from '../common/vscodeApi';
import { GalleryView } from './galleryView';

const host = vscodeApi<GalleryToHostMessage>();
const root = document.getElementById('root');

if (root) {
  const view = new GalleryView(root, (type, id) => host.postMessage({ type, id }));
  listenToHost<HostToGalleryMessage>(host, (message) => {
    switch (message.type) {
      case 'images':
        view.add(message.images);
        return;
      case 'failures':
        view.addFailures(message.failures);
        return;
      case 'busy':
        view.setBusy(message.message);
        return;
      case 'saved':
        view.markSaved(message.id, message.savedPath);
        return;
      case 'notice':
        view.notice(message.message);
        return;
      default:
        assertNever(message);
    }
  });
}
