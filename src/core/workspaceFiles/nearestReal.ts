// Where a path that may not exist yet really is: a file about to be created has no real path, so
// its nearest existing ancestor is followed through links and the rest of the path is appended.
// The one walker behind every "may this be written / kept" check (new files, Apply's targets,
// checkpoint placement), so they cannot disagree about links.
//
// "Existing" is by lstat, not by realpath: an entry on the way that is a link leading nowhere (a
// dangling link, or a loop) is where the walk stops, and it is refused rather than stepped over,
// since writing through it would create a file wherever it points, possibly outside the folders.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';

export type NearestReal =
  | {
      readonly ok: true;
      /** The real path of the whole path: the nearest existing entry's real path + `rest`. */
      readonly real: string;
      /** The nearest existing entry (as asked, links not followed): the path itself when it exists. */
      readonly nearest: string;
      /** The real path of `nearest`. */
      readonly realNearest: string;
      /** The names below `nearest` that do not exist yet (empty when the path exists). */
      readonly rest: readonly string[];
    }
  /** `nearest` exists but cannot be followed (a dangling link, a loop, no permission). */
  | { readonly ok: false; readonly problem: 'unresolvable'; readonly nearest: string; readonly rest: readonly string[] }
  /** Nothing on the way exists (not even the root). */
  | { readonly ok: false; readonly problem: 'nothing' };

const present = (path: string): Promise<boolean> =>
  fs.lstat(path).then(
    () => true,
    () => false,
  );

/** The real path of `absolute`, or of its nearest existing ancestor with the rest appended (see above). */
export async function realOfNearest(absolute: string): Promise<NearestReal> {
  const rest: string[] = [];
  let nearest = nodePath.resolve(absolute);
  while (!(await present(nearest))) {
    const up = nodePath.dirname(nearest);
    if (up === nearest) return { ok: false, problem: 'nothing' };
    rest.unshift(nodePath.basename(nearest));
    nearest = up;
  }
  const realNearest = await fs.realpath(nearest).catch(() => undefined);
  if (realNearest === undefined) return { ok: false, problem: 'unresolvable', nearest, rest };
  return {
    ok: true,
    real: rest.length ? nodePath.join(realNearest, ...rest) : realNearest,
    nearest,
    realNearest,
    rest,
  };
}
