// VS Code's own view of an extension's activation: the "Extension Activation Stats" table of
// "Developer: Startup Performance" (perfview.show), the same ActivationTimes the extension host
// reports to "Developer: Show Running Extensions" (which shows Load Code + Call Activate).
// The table is markdown in a read-only editor; Monaco renders only the lines in view, so the bench
// page is tall enough to show it (it comes right after the summary).
import type { Page } from 'playwright-core';

export interface VsCodeActivationTimes {
  /** Reading and evaluating the extension's main module. */
  readonly loadCodeMs: number;
  /** activate() until it returned its promise (the part that blocks the extension host). */
  readonly callActivateMs: number;
  /** From activate()'s return until its promise resolved (awaited work). */
  readonly finishActivateMs: number;
  readonly event: string;
}

/** The row of `extensionId` in the rendered perfview text, or undefined when it is not there (yet). */
export function parseActivationRow(lines: readonly string[], extensionId: string): VsCodeActivationTimes | undefined {
  for (const raw of lines) {
    const cells = raw
      .replace(/\u00a0/g, ' ')
      .split('|')
      .map((cell) => cell.trim());
    // | Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By |
    const at = cells.findIndex((cell) => cell.toLowerCase() === extensionId.toLowerCase());
    if (at < 0 || cells.length < at + 6) continue;
    const [load, call, finish] = [cells[at + 2], cells[at + 3], cells[at + 4]].map(Number);
    if (![load, call, finish].every((n) => Number.isFinite(n))) continue;
    return {
      loadCodeMs: load as number,
      callActivateMs: call as number,
      finishActivateMs: finish as number,
      event: cells[at + 5] ?? '',
    };
  }
  return undefined;
}

/** Opens Developer: Startup Performance and waits (bounded) for the extension's row. */
export async function readVsCodeActivationTimes(
  page: Page,
  extensionId: string,
  timeoutMs = 60_000,
): Promise<VsCodeActivationTimes> {
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 700, y: 300 } })
    .catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Developer: Startup Performance');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Startup Performance' })
    .first()
    .waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  // The table gets the row when the extension host reports the activation finished.
  await page.locator('.editor-instance .view-line', { hasText: extensionId }).first().waitFor({ timeout: timeoutMs });
  const lines = await page.locator('.editor-instance .view-lines .view-line').allInnerTexts();
  const row = parseActivationRow(lines, extensionId);
  if (!row)
    throw new Error(`Developer: Startup Performance has no readable row for ${extensionId}:\n${lines.join('\n')}`);
  return row;
}
