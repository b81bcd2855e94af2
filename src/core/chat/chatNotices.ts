// Answers in the chat to what was done in it (the code had no editor to go into, a conversation was
// deleted or exported): said where the user is looking, since a notification in a corner is missed
// while the eyes are on the button just pressed. A notice may carry one button (Undo, Open); only
// the latest notice's button acts, so an old Undo cannot run after a newer action.
import type { HostToChatMessage } from '../../shared/chatProtocol';

export interface NoticeAction {
  readonly label: string;
  run(): PromiseLike<unknown>;
}

export class ChatNotices {
  private nextId = 1;
  private pending: { readonly id: number; readonly action: NoticeAction } | undefined;

  constructor(private readonly post: (message: HostToChatMessage) => void) {}

  show(text: string, severity: 'info' | 'warning' = 'info', action?: NoticeAction): void {
    const id = this.nextId++;
    this.pending = action ? { id, action } : undefined;
    this.post({ type: 'notice', notice: { id, text, severity, ...(action ? { action: action.label } : {}) } });
  }

  /** The button of notice `id`: acts once, and only while it is the latest notice. */
  async act(id: number): Promise<void> {
    const pending = this.pending;
    if (pending?.id !== id) return;
    this.pending = undefined;
    await pending.action.run();
  }
}
