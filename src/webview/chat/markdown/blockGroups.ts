// Frozen blocks gathered into wrapper elements. Chromium lays out all the children of an element
// again when one is added to it: about 1 µs each, 55 ms a frame once a reply has 50,000 top-level
// blocks (a reply of short headings or definitions with no blank line between, measured), and
// 1 ms with the same blocks in groups of 64. So once GROUP_NODES top-level nodes before the tail
// are final, they move into a group of their own (margins collapse through it: it has no padding
// or border, see media/chatMarkdown.css). Which nodes form a group depends only on the sequence of
// top-level nodes (a group every GROUP_NODES of them, from the first), and finish() groups the
// tail's too: a streamed reply and the same text set whole end with the same DOM.

/** Top-level nodes a group holds (text nodes between blocks count): few enough replies never have a group. */
const GROUP_NODES = 512;
const GROUP_CLASS = 'md-blocks';

export class BlockGroups {
  private last: Element | null = null;
  /** Top-level nodes after the last group known to be final. */
  private final = 0;

  constructor(private readonly container: HTMLElement) {}

  /** `count` more nodes at the top level are final (frozen blocks, or an open block's element). */
  add(count: number): void {
    this.final += count;
    if (this.final >= GROUP_NODES) this.group(false);
  }

  /** The reply is complete: every node is final, so every full group is formed. */
  finish(): void {
    this.group(true);
  }

  private group(all: boolean): void {
    for (;;) {
      if (!all && this.final < GROUP_NODES) return;
      const nodes: ChildNode[] = [];
      for (
        let node = this.last ? this.last.nextSibling : this.container.firstChild;
        node && nodes.length < GROUP_NODES;
        node = node.nextSibling
      )
        nodes.push(node);
      if (nodes.length < GROUP_NODES) return;
      const group = this.container.ownerDocument.createElement('div');
      group.className = GROUP_CLASS;
      (nodes[0] as ChildNode).before(group);
      group.append(...nodes);
      this.last = group;
      this.final = Math.max(0, this.final - GROUP_NODES);
    }
  }
}
