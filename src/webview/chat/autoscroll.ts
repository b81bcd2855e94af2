// Follows the newest text while the user stays at the bottom; stops following as soon as they
// scroll up to read, and resumes when they return to the bottom (or send a new message).
const BOTTOM_SLACK_PX = 24;

export class AutoScroll {
  private following = true;
  private pending = false;

  constructor(private readonly scroller: HTMLElement) {
    scroller.addEventListener(
      'scroll',
      () => {
        if (this.pending) return;
        this.following = this.atBottom();
      },
      { passive: true },
    );
  }

  private atBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= BOTTOM_SLACK_PX;
  }

  get isFollowing(): boolean {
    return this.following;
  }

  /** Call after content grew: scrolls down once per frame if following. */
  contentChanged(): void {
    if (!this.following || this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.scroller.scrollTop = this.scroller.scrollHeight;
      // The scroll event of our own move must not be read as the user's.
      requestAnimationFrame(() => (this.pending = false));
    });
  }

  follow(): void {
    this.following = true;
    this.contentChanged();
  }
}
