// Where the lines an inline edit is about are now, after the user typed elsewhere in the file
// during the request or the review (above them: they moved down; below: they stayed). Undefined
// when the typing touched them: the edit would then be made against text the model never saw.
import { computeHunks } from '../apply/lineHunks';

export interface LineScope {
  /** First line (0-based). */
  readonly start: number;
  /** Line after the last (exclusive); equal to start for an empty scope. */
  readonly end: number;
}

export function followLineScope(base: string, current: string, scope: LineScope): LineScope | undefined {
  if (base === current) return scope;
  let shift = 0;
  for (const hunk of computeHunks(base, current)) {
    const hunkEnd = hunk.oldStart + hunk.oldLines.length;
    const before = hunk.oldLines.length === 0 ? hunk.oldStart <= scope.start : hunkEnd <= scope.start;
    const after = hunk.oldLines.length === 0 ? hunk.oldStart >= scope.end && scope.end > scope.start : hunk.oldStart >= scope.end;
    if (before) shift += hunk.newLines.length - hunk.oldLines.length;
    else if (!after) return undefined;
  }
  return { start: scope.start + shift, end: scope.end + shift };
}
