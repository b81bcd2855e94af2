import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { BENCH_DEFAULT_TOKENS, type LocalGateway } from '../gateway/index';
import { benchPiece } from '../gateway/text';
import { encodePng } from '../gateway/png';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const SLOW_MODEL = 'sim-openai/gpt-sim-mini::delay-chunks=40';
const VISION_MODEL = 'sim-openai/gpt-sim-vision';

// The chat panel as a user meets it: the real workbench in Chromium, the extension talking to the
// local gateway. One workbench for the suite; each test starts from a new conversation.
describe('chat panel (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;
  let chat: Frame;

  // The workspace settings file, rewritten by tests that need another default model (a fault of
  // the local gateway is chosen by the model name) or theme; VS Code applies it soon after.
  const settings = (model: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    'unifiedInference.defaultModels.chat': model,
    ...extra,
  });
  // Waits until VS Code has applied the file: a new chat starts with the model it names (each try
  // opens a new chat, since the default model is read when a conversation starts).
  const useSettings = async (model: string, extra: Record<string, unknown> = {}): Promise<void> => {
    writeFileSync(
      join(workbench.server.workspace, '.vscode', 'settings.json'),
      JSON.stringify(settings(model, extra), null, 2),
    );
    const picker = chat.locator('button.model-picker');
    for (const deadline = Date.now() + 30_000; ;) {
      await newChat();
      const shown = (await picker.getAttribute('data-model')) ?? '';
      if (shown === model) return;
      if (Date.now() > deadline)
        throw new Error(`VS Code did not apply the settings: a new chat starts with ${shown}, not ${model}`);
      await workbench.page.waitForTimeout(250);
    }
  };

  useChatSuite(
    {
      workspaceFiles: {
        'read_file.md': '# Notes\n\nThe launch code word is PAPAYA.\n',
        '.env.read_file': 'API_TOKEN=UI-SECRET-3141\n',
        'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      },
      // Each event 40 ms apart (a fault of the local gateway selected by the model name): slow
      // enough to stop a reply midway, fast enough for the suite.
      workspaceSettings: settings(SLOW_MODEL),
    },
    (suite) => ({ gateway, workbench, chat } = suite),
  );

  const input = () => chat.locator('.composer-input');
  const lastReply = () => chat.locator('.turn.assistant').last();
  const newChat = async (): Promise<void> => {
    await chat.locator('button[aria-label="New chat"]').click();
    await chat.locator('.empty-state').waitFor();
  };
  const ask = async (text: string): Promise<void> => {
    await input().fill(text);
    await input().press('Enter');
  };

  it('streams a markdown reply with highlighted code and code actions, then shows usage and cost', async () => {
    assert.equal(await chat.locator('button.model-picker').getAttribute('data-model'), SLOW_MODEL);
    await ask('Show me a TypeScript example');
    await chat.locator('.turn.user .user-text', { hasText: 'Show me a TypeScript example' }).waitFor();
    const reply = lastReply();
    await reply.locator('.content pre code').first().waitFor();
    await reply.locator('.turn-footer .usage', { hasText: 'completion tokens' }).waitFor();
    assert.equal(await reply.locator('.badge').innerText(), '', 'no status badge on a finished reply');
    await reply.locator('.turn-footer .usage', { hasText: '$' }).waitFor({ timeout: 20_000 });
    // The model id carries a fault suffix, so no catalog pricing applies: the figure is the balance's.
    assert.match(
      await reply.locator('.turn-footer .usage').innerText(),
      /\$\d+\.\d+ \(balance change\)/,
      'the cost says where it comes from',
    );
    assert.ok(
      (await reply.locator('.content h1, .content h2, .content h3').count()) >= 1,
      'markdown headings rendered',
    );
    for (const label of ['Copy', 'Insert at Cursor', 'New File'])
      assert.equal(
        (await reply.locator(`button[aria-label="${label}"]`).count()) >= 1,
        true,
        `${label} on code blocks`,
      );
    assert.ok((await reply.locator('.content pre code span[class^="hljs"]').count()) > 0, 'code is highlighted');
    await workbench.screenshot('chat-01-streamed-reply-dark');
  });

  it('stops a slow reply at once, keeping what arrived, and regenerates it', async () => {
    await newChat();
    await ask('Tell me about streams');
    const reply = lastReply();
    await reply.locator('.content p').first().waitFor();
    await chat.locator('button[aria-label="Stop"]').click();
    await reply.locator('.badge.stopped').waitFor();
    const kept = await reply.locator('.content').innerText();
    assert.ok(kept.length > 0, 'the partial reply stays');
    await workbench.screenshot('chat-02-stopped');
    await reply.locator('button[aria-label="Regenerate"]').click();
    await chat.locator('.turn.assistant .badge.stopped').waitFor({ state: 'detached' });
  });
  it('edits a sent message and resends from there (Up arrow on the empty box)', async () => {
    await newChat();
    await ask('First question about arrays');
    await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    await input().press('ArrowUp');
    const editor = chat.locator('.turn.user textarea.edit-box');
    await editor.waitFor();
    await editor.fill('Second question about maps');
    await editor.press('Enter');
    await chat.locator('.turn.user .user-text', { hasText: 'Second question about maps' }).waitFor();
    await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    assert.equal(await chat.locator('.turn.user').count(), 1, 'the edited message replaced the first');
    assert.equal(await chat.locator('.turn.user .user-text', { hasText: 'arrays' }).count(), 0);
  });

  it('asks before a model reads a workspace file, runs it once allowed, and answers with the result', async () => {
    await useSettings('sim-openai/gpt-sim-mini');
    await newChat();
    await ask('read_file.md');
    const step = lastReply().locator('.tool-step.function').first();
    await step.locator('.approval button', { hasText: 'Allow Once' }).waitFor();
    assert.match(await step.locator('.step-name').innerText(), /read_file/);
    await step.locator('.approval[data-state="armed"]').waitFor(); // drawn past its arming
    await workbench.screenshot('chat-03-tool-approval');
    await step.locator('.approval button', { hasText: 'Allow Once' }).click();
    await lastReply().locator('.tool-step.function.done').waitFor();
    await lastReply().locator('.content', { hasText: 'PAPAYA' }).waitFor();
    await workbench.screenshot('chat-04-tool-result');
  });

  it('names a sensitive file in the approval and offers only Allow Once or Deny for it', async () => {
    await useSettings('sim-openai/gpt-sim-mini');
    await newChat();
    await ask('.env.read_file');
    const step = lastReply().locator('.tool-step.function').first();
    const approval = step.locator('.approval');
    await approval.locator('button', { hasText: 'Allow Once' }).waitFor();
    assert.match(await step.locator('.sensitive-note').innerText(), /Sensitive file.*\.env\.read_file/);
    assert.equal(
      await approval.getAttribute('aria-label'),
      'Allow read_file to read the sensitive file .env.read_file?',
    );
    assert.deepEqual(await approval.locator('button').allInnerTexts(), ['Allow Once', 'Deny']);
    await step.locator('.approval[data-state="armed"]').waitFor(); // drawn past its arming
    await workbench.screenshot('chat-03b-sensitive-file-approval');
    await approval.locator('button', { hasText: 'Deny' }).click();
    await lastReply().locator('.tool-step.function.denied').waitFor();
    assert.equal(
      await lastReply().locator('.content', { hasText: 'UI-SECRET' }).count(),
      0,
      'nothing of the file reached the reply',
    );
  });

  it('attaches a workspace file through an @ mention, shown as a chip', async () => {
    await newChat();
    await input().fill('Summarise @app');
    await chat.locator('.suggestions li', { hasText: 'src/app.ts' }).waitFor();
    await input().press('Enter');
    await chat.locator('.composer .chip', { hasText: 'src/app.ts' }).waitFor();
    assert.equal(await input().inputValue(), 'Summarise ');
    await input().press('Enter');
    await chat.locator('.turn.user .chip', { hasText: 'src/app.ts' }).waitFor();
    await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    const sent = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1)?.body as {
      messages: Array<{ content: string }>;
    };
    assert.match(sent.messages.at(-1)?.content ?? '', /return a \+ b;/, 'the file went to the model');
  });

  it('starts a new chat with Ctrl+L in the chat, and Ctrl+K L asks about the selected lines of an editor', async () => {
    await newChat();
    await ask('A question before the new chat');
    await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    await input().press('Control+L');
    await chat.locator('.empty-state').waitFor();
    assert.equal(await chat.locator('.turn').count(), 0, 'a new conversation');
    await workbench.quickOpen('app.ts');
    const code = workbench.page.locator('.monaco-editor .view-lines', { hasText: 'return a + b' }).first();
    await code.click();
    await workbench.page.keyboard.press('Control+A');
    await workbench.page.keyboard.press('Control+K');
    await workbench.page.keyboard.press('L');
    await chat.locator('.composer .chip', { hasText: 'app.ts' }).waitFor();
    await workbench.screenshot('chat-04b-ask-about-selection-key');
    assert.equal(
      await chat.locator('.composer-input').evaluate((box) => box === document.activeElement),
      true,
      'the message box has the focus, ready for the question',
    );
  });

  for (const [name, model, text, action] of [
    ['a bad key', 'sim-openai/gpt-sim-mini::status=401', 'refused the API key', 'Set API Key'],
    [
      'no credits left',
      'sim-openai/gpt-sim-mini::status=429;code=insufficient_quota',
      'Out of credits',
      'Refresh Credits',
    ],
    ['a broken stream', 'sim-openai/gpt-sim-mini::error-event', 'ended the reply with an error', 'Retry'],
  ] as const) {
    it(`shows ${name} with what to do next, keeping what arrived`, async () => {
      await useSettings(model);
      await newChat();
      await ask(`Trigger ${name}`);
      const box = lastReply().locator('.error-box');
      await box.locator('.error-message', { hasText: text }).waitFor();
      await box.locator('button', { hasText: action }).waitFor();
      await workbench.screenshot(`chat-05-error-${name.replace(/\s+/g, '-')}`);
    });
  }

  it('keeps conversations across a window reload, listed in the history with search', async () => {
    await useSettings('sim-openai/gpt-sim-mini');
    await newChat();
    await ask('Remember the word KIWI');
    await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    // The page's own load: a loaded machine took over Playwright's default 30 s for all of it.
    await workbench.page.reload({ waitUntil: 'domcontentloaded', timeout: 120_000 });
    await workbench.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    chat = await workbench.webviewWith('.composer-input', 60_000);
    await chat.locator('.turn.user .user-text', { hasText: 'Remember the word KIWI' }).waitFor();
    await chat.locator('button[aria-label="History"]').click();
    await chat.locator('.history-search').fill('kiwi');
    await chat.locator('.history-item', { hasText: 'Remember the word KIWI' }).waitFor();
    await chat.locator('.history-item', { hasText: 'First question' }).waitFor({ state: 'detached' });
    await workbench.screenshot('chat-06-history-search');
    await chat.locator('.history-search').fill('');
    await chat.locator('.history-item', { hasText: 'read_file.md' }).locator('.history-open').click();
    await chat.locator('.turn.user .user-text', { hasText: 'read_file.md' }).waitFor();
  });

  it('shows a reasoning model thinking: "Thinking… N s" with its latest thought, then how long it thought', async () => {
    await useSettings('sim-openai/o-sim-reasoner::delay-chunks=150');
    await newChat();
    await ask('Think about maps and sets');
    const reply = lastReply();
    // The clock ticks while the thoughts stream (a reply takes several seconds at this pace).
    await reply.locator('.reasoning-label', { hasText: /^Thinking… ([2-9]|\d\d) s$/ }).waitFor();
    await reply.locator('.latest-thought:visible').waitFor();
    assert.notEqual((await reply.locator('.latest-thought').innerText()).trim(), '', 'the latest thought is shown');
    await workbench.screenshot('chat-11-thinking');
    await reply.locator('.reasoning-label', { hasText: /^Thought for \d+ s$/ }).waitFor({ timeout: 60_000 });
    await reply.locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor({ timeout: 60_000 });
  });

  it('shows the file a code fence names on the block', async () => {
    const reply =
      '`src/app.ts` gets a subtraction:\n\n```ts src/app.ts\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n```\n';
    await useSettings(`sim-openai/gpt-sim-mini::reply=${Buffer.from(reply).toString('base64url')}`);
    await newChat();
    await ask('Add a subtraction');
    const file = lastReply().locator('.md-code-block .md-code-file');
    await file.filter({ hasText: 'src/app.ts' }).waitFor();
    assert.equal(await lastReply().locator('.md-code-block .md-code-language').innerText(), 'ts');
    await workbench.screenshot('chat-12-code-block-file-name');
  });

  it('lists the pages a web search found as numbered sources under the reply, the search as a step with its query', async () => {
    await useSettings('sim-anthropic/claude-sim-sonnet::web-search');
    await newChat();
    await ask('What is new in Rust');
    const reply = lastReply();
    const sources = reply.locator('.sources');
    await sources.waitFor();
    await reply.locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
    const links = sources.locator('ol.sources-list > li > a.source-link');
    assert.deepEqual(await links.allInnerTexts(), [
      'A guide to What is new in Rust (simulated result)',
      'What is new in Rust: questions and answers (simulated)',
      'docs.sim.example',
    ]);
    assert.equal(
      await links.first().getAttribute('title'),
      'https://search.sim.example/guide/what-is-new-in-rust',
      'the address in the tooltip',
    );
    const step = reply.locator('.tool-step.server');
    assert.equal(await step.locator('.step-name').innerText(), 'web_search');
    assert.equal(await step.locator('.step-args').innerText(), '{"query":"What is new in Rust"}');
    // Under the reply's text: the list's top is below the text's bottom.
    const text = await reply.locator('.content').boundingBox();
    const list = await sources.boundingBox();
    assert.ok(text && list && list.y >= text.y + text.height - 1, JSON.stringify({ text, list }));
    // The whole list and the footer under it in view (the chat follows the reply, not what comes after its text).
    await reply.locator('.turn-footer').scrollIntoViewIfNeeded();
    await workbench.screenshot('chat-14-sources');
    // Reachable by keyboard: a link in the tab order takes the focus. (Opening it goes through the
    // host, see the webview and integration tests: a real click here shows VS Code's "open the
    // external website?" prompt, after which headless Chromium reads later replies' text as empty.)
    await links.nth(1).focus();
    assert.equal(
      await links.nth(1).evaluate((link) => link === link.ownerDocument.activeElement && link.tabIndex === 0),
      true,
    );
  });

  it('answers where the action was made: a check mark on Copy, Deleted with Undo in the history', async () => {
    await newChat();
    await ask('Remember the word MANGO');
    const copy = lastReply().locator('button[aria-label="Copy reply"]');
    await copy.waitFor();
    await copy.click();
    await lastReply().locator('button[aria-label="Copied"] .codicon-check').waitFor();
    await chat.locator('button[aria-label="History"]').click();
    const item = chat.locator('.history-item', { hasText: 'Remember the word MANGO' });
    await item.locator('button[aria-label^="Delete"]').click();
    await item.waitFor({ state: 'detached' });
    const notice = chat.locator('.notice[role="status"]', { hasText: 'Deleted "Remember the word MANGO' });
    await notice.waitFor();
    await workbench.screenshot('chat-10-deleted-with-undo');
    await notice.locator('button', { hasText: 'Undo' }).click();
    await item.waitFor();
    await notice.waitFor({ state: 'hidden' });
    await chat.locator('button[aria-label="Back to the chat"]').click();
  });

  it('picks the model from a searchable list of chat models with price and context; a changed default applies to new chats', async () => {
    // Setting values no other test uses: the pick remembered here is tied to this one.
    await useSettings('sim-openai/gpt-sim-mini::delay-chunks=2');
    const picker = chat.locator('button.model-picker');
    await picker.click();
    const quickInput = workbench.page.locator('.quick-input-widget');
    await quickInput.locator('.quick-input-title', { hasText: 'Chat Model' }).waitFor();
    const rows = quickInput.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor();
    const listed = await rows.allInnerTexts();
    assert.ok(
      listed.some((row) => /gpt-sim-mini/.test(row)),
      'chat models are offered',
    );
    for (const other of ['text-embedding', 'image', 'tts', 'whisper', 'rerank'])
      assert.ok(!listed.some((row) => row.includes(other)), `no ${other} model among ${listed.join(' | ')}`);
    await quickInput.locator('input').fill('mini');
    const mini = rows.filter({ hasText: 'sim-openai/gpt-sim-mini' }).first();
    await mini.waitFor();
    assert.match(await mini.innerText(), /per million tokens in \/ out/, 'the price is shown');
    assert.match(await mini.innerText(), /tokens of context/, 'the context length is shown');
    await workbench.screenshot('chat-08-model-picker');
    await mini.click();
    await chat.locator('button.model-picker[data-model="sim-openai/gpt-sim-mini"]').waitFor();
    await newChat();
    assert.equal(await picker.getAttribute('data-model'), 'sim-openai/gpt-sim-mini', 'the pick is kept for new chats');
    // The default changed after the pick: new chats take it (useSettings waits for a new chat with it).
    await useSettings('sim-openai/gpt-sim-mini::delay-chunks=1');
  });

  it('fits the chat in a 250 px side bar: parameters, a reply with code, the composer', async () => {
    const page = workbench.page;
    const sidebar = page.locator('.part.sidebar');
    const before = await sidebar.boundingBox();
    assert.ok(before, 'the side bar is shown');
    // The sash on the side bar's right edge resizes it.
    const dragSidebarTo = async (width: number): Promise<void> => {
      const box = await sidebar.boundingBox();
      if (!box) throw new Error('no side bar');
      const edge = box.x + box.width;
      await page.mouse.move(edge, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    };
    try {
      await dragSidebarTo(250);
      for (let i = 0; i < 3 && Math.abs(((await sidebar.boundingBox())?.width ?? 0) - 250) > 2; i++)
        await dragSidebarTo(250);
      assert.ok(Math.abs(((await sidebar.boundingBox())?.width ?? 0) - 250) <= 2, 'the side bar is 250 px wide');
      await newChat();
      await ask('Show me a TypeScript example');
      await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
      await chat.locator('button[aria-label="Parameters"]').click();
      await chat.locator('.params').waitFor();
      await workbench.screenshot('chat-09-250px-parameters');
      const overflow = await chat.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const found: string[] = [];
        const name = (el: Element): string => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        // Code blocks scroll sideways by design, a long name ends in an ellipsis, and screen-reader
        // text is clipped to a pixel; nothing else may scroll sideways or reach past the edge.
        const scrollsByDesign = (el: Element): boolean =>
          el.closest('pre, textarea, .visually-hidden') !== null || getComputedStyle(el).textOverflow === 'ellipsis';
        for (const el of Array.from(document.querySelectorAll('*'))) {
          if (scrollsByDesign(el)) continue;
          const style = getComputedStyle(el);
          if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
            found.push(`${name(el)} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
          const rect = el.getBoundingClientRect();
          if (rect.width > 0 && (rect.left < -1 || rect.right > width + 1))
            found.push(`${name(el)} spans ${Math.round(rect.left)}..${Math.round(rect.right)} of ${width} px`);
        }
        return found;
      });
      assert.deepEqual(overflow, []);
    } finally {
      await dragSidebarTo(before.width);
    }
  });

  it('streams a long one-paragraph reply whole, laid out in parts of a few KB', async () => {
    // The benchmark model: 1,000 words (5.9 KB) with a line break every dozen and no blank line.
    await useSettings('sim-bench/stream-bench');
    await newChat();
    await ask('A long answer, please');
    const reply = lastReply();
    await reply.locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor({ timeout: 30_000 });
    const expected = Array.from({ length: BENCH_DEFAULT_TOKENS }, (_, index) => benchPiece(index)).join('');
    const shown = await reply.locator('.content').innerText();
    assert.equal(shown.replace(/\s+/g, ''), expected.replace(/\s+/g, ''), 'every word arrived, in order');
    assert.equal(await reply.locator('.content > p').count(), 1, 'one paragraph');
    assert.equal(
      await reply.locator('.content > p > .md-paragraph-part').count(),
      2,
      'a part ends at the first line end after 4 KB',
    );
    await reply.locator('.content > p > .md-paragraph-part').last().scrollIntoViewIfNeeded();
    await workbench.screenshot('chat-10-long-paragraph');
  });

  for (const [theme, name, light] of [
    ['Default Light Modern', 'light', true],
    ['Default High Contrast', 'high-contrast', false],
  ] as const) {
    it(`follows the ${name} theme: a reply, a tool waiting for approval, an error`, async () => {
      await useSettings('sim-openai/gpt-sim-mini', { 'workbench.colorTheme': theme });
      await newChat();
      await ask('Show me the theme');
      await lastReply().locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor();
      // The theme reaches the webview as VS Code applies the settings file: wait for it.
      let background: string;
      for (const deadline = Date.now() + 30_000; ;) {
        background = await chat.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
        const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
        if (r + g + b > 600 === light || Date.now() > deadline) break;
        await workbench.page.waitForTimeout(250);
      }
      const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
      assert.equal(r + g + b > 600, light, `the theme's background (${background})`);
      // The context meter's empty part is not drawn in the fill's colour (high contrast drew it full).
      const meter = await chat.locator('.context-meter').evaluate((element) => {
        const bar = element.querySelector('.context-meter-bar') as HTMLElement;
        const fill = element.querySelector('.context-meter-fill') as HTMLElement;
        return {
          track: getComputedStyle(bar).backgroundColor,
          fill: getComputedStyle(fill).backgroundColor,
          filled: fill.getBoundingClientRect().width / bar.getBoundingClientRect().width,
        };
      });
      assert.notEqual(meter.track, meter.fill, `track ${meter.track}, fill ${meter.fill}`);
      assert.ok(meter.filled < 0.5, `a short conversation fills little of 128k (${meter.filled})`);
      await workbench.screenshot(`chat-07-${name}-reply`);
      await ask('read_file.md');
      await lastReply().locator('.approval button', { hasText: 'Deny' }).waitFor();
      await workbench.screenshot(`chat-08-${name}-tool-approval`);
      await lastReply().locator('.approval button', { hasText: 'Deny' }).click();
      await lastReply().locator('.tool-step.function.denied').waitFor();
      await useSettings('sim-openai/gpt-sim-mini::status=429;code=insufficient_quota', {
        'workbench.colorTheme': theme,
      });
      await newChat();
      await ask('One more');
      await lastReply().locator('.error-box button', { hasText: 'Refresh Credits' }).waitFor();
      await workbench.screenshot(`chat-09-${name}-error`);
    });
  }

  it('pastes an image into the composer for a vision model, shows it in the turn, and the model names what it received', async () => {
    // A small "diagram": coloured bands, so the thumbnail shows it is the picture that was pasted.
    const width = 96;
    const height = 64;
    const pixels = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const band = Math.floor(x / 24);
        const colour = [
          [0x3b, 0x82, 0xf6],
          [0x10, 0xb9, 0x81],
          [0xf5, 0x9e, 0x0b],
          [0xef, 0x44, 0x44],
        ][band] ?? [0, 0, 0];
        const shade = y < height / 2 ? 1 : 0.6;
        pixels.set(
          colour.map((c) => Math.round(c * shade)),
          (y * width + x) * 3,
        );
      }
    const png = encodePng(width, height, pixels);
    const paste = (): Promise<void> =>
      input().evaluate((box, base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'diagram.png', { type: 'image/png' }));
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, png.toString('base64'));

    // A model whose catalog entry lists no image input: a note, nothing attached.
    await useSettings(SLOW_MODEL);
    await paste();
    await chat.locator('.image-note', { hasText: 'does not take images' }).waitFor();
    assert.equal(await chat.locator('.composer .image-thumb').count(), 0);
    await workbench.screenshot('chat-13a-image-not-taken');

    await useSettings(VISION_MODEL);
    await paste();
    const loaded = (selector: string): Promise<unknown> =>
      chat.waitForFunction((css) => {
        const img = document.querySelector<HTMLImageElement>(css);
        return img !== null && img.complete && img.naturalWidth === 96;
      }, selector);
    // The thumbnail loads from the conversation's image folder through the webview's resource roots.
    await loaded('.composer .image-thumb img');
    await ask('What does this diagram show?');
    await loaded('.turn.user .image-thumb img');
    const hash = createHash('sha256').update(png).digest('hex').slice(0, 16);
    await lastReply()
      .locator('.content', { hasText: `image 1: image/png, ${png.length} bytes, sha256 ${hash}` })
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.locator('.composer .image-thumb').count(), 0, 'the send took the image');
    assert.equal(
      await chat.locator('.turn.user .image-thumb img').getAttribute('alt'),
      `diagram.png (PNG, ${Math.max(1, Math.round(png.length / 1024))} KB, 96×64)`,
    );
    const sent = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1)?.body as
      { messages: Array<{ content: unknown }> } | undefined;
    assert.deepEqual(sent?.messages.at(-1)?.content, [
      { type: 'text', text: 'What does this diagram show?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ]);
    await workbench.screenshot('chat-13-image-turn');
  });
});
