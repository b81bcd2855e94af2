// Reference definitions while a reply streams. `[text][label]` renders as a link only once
// `[label]: url` is known, and the definition may come after the block that uses it (models put
// them at the end). A frozen block is rendered again when a label it may use gets defined. Which
// blocks: those whose text holds that label in brackets, found through an index, so a reply made of
// thousands of definitions and references costs work per definition proportional to the blocks
// that mention it, not to the whole reply. Each refresh renders one block (at most TAIL_LIMIT long;
// longer ones are not refreshed while streaming), within a budget of characters per frame.
import { TAIL_LIMIT } from './budgets';
import type { LinkDefinitions } from './guardedLexer';

/** A frozen block that can be rendered again (see StreamingMarkdown). */
export interface RefreshTarget {
  readonly raw: string;
  /** Set when the block was rendered again, so an older entry of it in the index is ignored. */
  replaced?: boolean;
}

/** Characters of blocks rendered again per frame for new definitions (more wait for the next frame). */
export const REFRESH_BUDGET = TAIL_LIMIT;

/** Bracketed text that may be a reference label (`[label]`, `[text][label]`, `[label][]`). */
const BRACKETED = /\[((?:[^[\]\\]|\\[\s\S]){1,999})\]/g;

/** A label as marked compares labels (trimmed, white space collapsed, case folded). */
function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();
}

export class LinkBook {
  /** Definitions in frozen blocks; the first definition of a label wins, as in marked. */
  readonly frozen: LinkDefinitions = Object.create(null) as LinkDefinitions;
  /** Changes whenever `frozen` gains a label (tail blocks lexed before must be lexed again). */
  version = 0;
  private readonly waiting = new Map<string, Set<RefreshTarget>>();
  private readonly queue = new Set<RefreshTarget>();

  /** Adds the definitions of newly frozen blocks; queues the blocks waiting for their labels. */
  define(found: LinkDefinitions): void {
    const added: string[] = [];
    for (const label of Object.keys(found)) {
      const definition = found[label];
      if (!definition || Object.hasOwn(this.frozen, label)) continue;
      this.frozen[label] = definition;
      added.push(label);
    }
    if (!added.length) return;
    this.version++;
    this.queueWaiting(added);
  }

  /** Queues the blocks waiting for any of `labels` (definitions seen in the tail, at the end). */
  queueWaiting(labels: Iterable<string>): void {
    for (const label of labels) {
      for (const target of this.waiting.get(label) ?? []) this.queue.add(target);
      this.waiting.delete(label);
    }
  }

  /** Indexes a frozen block under the labels it may use that `links` does not define yet. */
  watch(target: RefreshTarget, links: LinkDefinitions): void {
    if (!target.raw.includes('[') || target.raw.length > TAIL_LIMIT) return;
    for (const [, label = ''] of target.raw.matchAll(BRACKETED)) {
      const key = normalizeLabel(label);
      if (!key || Object.hasOwn(links, key)) continue;
      let targets = this.waiting.get(key);
      if (!targets) this.waiting.set(key, (targets = new Set()));
      targets.add(target);
    }
  }

  /** Takes queued blocks to render again, up to `budget` characters of them. */
  take(budget: number): RefreshTarget[] {
    const taken: RefreshTarget[] = [];
    let spent = 0;
    for (const target of this.queue) {
      if (spent >= budget) break;
      this.queue.delete(target);
      if (target.replaced) continue;
      taken.push(target);
      spent += target.raw.length;
    }
    return taken;
  }

  get pending(): boolean {
    return this.queue.size > 0;
  }
}
