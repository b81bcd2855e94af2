// A root-level mocha hook for the UI layer: when a test fails, the workbench as it was then is
// saved next to the other screenshots (FAILED-<test title>.png), so a red run can be seen.
import type { Workbench } from './workbench';

const open = new Set<Workbench>();

export function trackWorkbench(workbench: Workbench): void {
  open.add(workbench);
}

export function untrackWorkbench(workbench: Workbench): void {
  open.delete(workbench);
}

// Only under mocha: the Workbench helpers are also used from plain scripts.
if (typeof afterEach === 'function') {
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const name = `FAILED-${this.currentTest.title.replace(/[^\w-]+/g, '-').slice(0, 80)}`;
    for (const workbench of open) await workbench.screenshot(name).catch(() => undefined);
  });
}
