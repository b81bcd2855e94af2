import * as assert from 'node:assert/strict';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// The chat as a newcomer meets it on a common laptop window (1400 x 900): one click on the
// Unified Inference icon in the activity bar, one question, and the conversation has the side bar
// to itself. When the chat shared its container with three other views, the conversation area was
// one line tall after the first question.
describe('the chat has room (1400 x 900, real VS Code in Chromium, local gateway)', () => {
  let workbench: Workbench;

  useChatSuite(
    { workspaceFiles: { 'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n' } },
    (suite) => ({ workbench } = suite),
  );

  it('opens from its activity bar icon alone in the side bar, and a reply shows in a conversation area over half the window tall', async () => {
    const page = workbench.page;
    assert.deepEqual(page.viewportSize(), { width: 1400, height: 900 });
    // A newcomer opens some code first (the Explorer in the side bar, as VS Code starts), then the chat.
    await workbench.openContainer('Explorer');
    await workbench.quickOpen('app.ts');
    await page.locator('.tab.active', { hasText: 'app.ts' }).waitFor();
    await workbench.activityItem('Unified Inference').click();
    const chat = await workbench.webviewWith('.composer-input', 60_000);
    const sidebar = page.locator('.part.sidebar');
    assert.match(
      await sidebar.locator('.composite.title .title-label').innerText(),
      /^unified inference: chat$/i,
      "the side bar is the chat's",
    );
    assert.equal(await sidebar.locator('.pane-header:visible').count(), 0, 'no other view shares the side bar');

    await chat.locator('.composer-input').fill('Show me a TypeScript example');
    await chat.locator('.composer-input').press('Enter');
    const reply = chat.locator('.turn.assistant').last();
    await reply.locator('.content pre code').first().waitFor();
    await reply.locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();

    // Measured in the page's coordinates (Playwright maps the webview's nested frames onto them).
    const area = await chat.locator('.messages').boundingBox();
    const shown = await reply.boundingBox();
    const footer = await reply.locator('.turn-footer').boundingBox();
    assert.ok(area && shown && footer, 'the conversation area and the reply are laid out');
    console.log(
      `      conversation area: ${Math.round(area.height)} px tall of a 900 px window; reply ${Math.round(shown.height)} px`,
    );
    // 900 px less the workbench's own rows (title, side bar title, status bar: about 100 px) and the
    // chat's header and composer (about 200 px) leaves about 600 px; a view sharing the side bar
    // with two open views gets a third of it. 500 px is over half the window: only a chat with
    // the side bar to itself reaches it.
    assert.ok(area.height >= 500, `the conversation area is ${area.height} px tall (want >= 500 px)`);
    // The reply is in sight: its end (the usage line) inside the area, and either all of it shown
    // or it fills the area (a reply longer than the area scrolls, its end kept in view).
    assert.ok(
      footer.y >= area.y && footer.y + footer.height <= area.y + area.height + 1,
      `the reply's end is inside the area (footer ${footer.y}..${footer.y + footer.height}, area ${area.y}..${area.y + area.height})`,
    );
    const visible = Math.min(area.y + area.height, shown.y + shown.height) - Math.max(area.y, shown.y);
    assert.ok(
      visible >= Math.min(shown.height, area.height) - 2,
      `the reply is shown (${visible} of ${shown.height} px visible)`,
    );
    await workbench.movePointerAway();
    await workbench.screenshot('chat-room-01-reply-1400x900');
    await workbench.readmeScreenshot('chatReply');
  });

  it("reaches Research Jobs and Models in one click from the chat's title bar, and the chat again from the activity bar", async () => {
    const page = workbench.page;
    await page
      .locator('.part.sidebar .composite.title .action-label[aria-label="Show Research Jobs and Models"]')
      .click();
    const headers = page.locator('.part.sidebar .pane-header:visible');
    await headers.filter({ hasText: 'Research Jobs' }).first().waitFor();
    await headers.filter({ hasText: 'Models' }).first().waitFor();
    assert.ok(await workbench.isContainerOpen('Research & Models'));
    await workbench.screenshot('chat-room-02-research-and-models');
    await workbench.activityItem('Unified Inference').click();
    const chat = await workbench.webviewWith('.turn.assistant .turn-footer .usage');
    assert.equal(
      await chat.locator('.turn.user .user-text', { hasText: 'Show me a TypeScript example' }).count(),
      1,
      'the conversation is still there',
    );
  });
});
