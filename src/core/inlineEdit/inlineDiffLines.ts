// How the inline diff of a review is drawn in the editor without touching its text: the lines a
// change removes are marked where they are, and the lines it adds are shown as text after line
// ends (decorations), because the extension API has no view zones to open room between lines.
// Added line i of a change is shown after removed line i; the added lines past the last removed
// one are shown together on it, joined by a return sign; a pure insertion shows on the line above
// it (or the first line of the file). The full proposed text of each change is in its hover.
import type { Hunk } from '../apply/lineHunks';

/** Characters of ghost text on one line (a long added line is cut with an ellipsis; the hover has it whole). */
export const MAX_GHOST_CHARS = 240;
/** Shown between added lines that share one line of the editor. */
export const JOINED_LINES = '  ⏎  ';

interface GhostRow {
  /** Line of the document (0-based) the text is shown after. */
  readonly line: number;
  readonly text: string;
}

export interface InlineChangeView {
  /** Lines of the document the change removes (0-based), possibly none. */
  readonly removed: readonly number[];
  /** The added lines, placed after line ends. */
  readonly ghosts: readonly GhostRow[];
  /** Where the change's Accept / Reject lenses go (0-based line). */
  readonly anchor: number;
  /** The added lines as written (for the hover), without their line breaks. */
  readonly added: readonly string[];
}

function bare(line: string): string {
  return line.replace(/\r?\n$|\r$/, '');
}

function cut(text: string): string {
  return text.length > MAX_GHOST_CHARS ? `${text.slice(0, MAX_GHOST_CHARS - 1)}…` : text;
}

/** The view of each hunk of a review of a document with `lineCount` lines. */
export function inlineChangeViews(hunks: readonly Hunk[], lineCount: number): InlineChangeView[] {
  const last = Math.max(0, lineCount - 1);
  return hunks.map((hunk) => {
    const removed = hunk.oldLines.map((_, i) => Math.min(last, hunk.oldStart + i));
    const added = hunk.newLines.map(bare);
    const ghosts: GhostRow[] = [];
    if (removed.length > 0) {
      const paired = Math.min(removed.length, added.length);
      for (let i = 0; i < paired; i++) {
        const rest = i === removed.length - 1 ? added.slice(i) : [added[i] as string];
        ghosts.push({ line: removed[i] as number, text: cut(rest.join(JOINED_LINES)) });
      }
    } else if (added.length > 0) {
      ghosts.push({ line: Math.min(last, Math.max(0, hunk.oldStart - 1)), text: cut(added.join(JOINED_LINES)) });
    }
    const anchor = removed[0] ?? Math.min(last, Math.max(0, hunk.oldStart - 1));
    return { removed, ghosts, anchor, added };
  });
}
