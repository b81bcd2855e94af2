import * as assert from 'node:assert/strict';
import type { Model } from '../../src/core/types/account';
import type { CreditsState } from '../../src/core/account/creditsPresentation';
import { chooseModel } from '../../src/core/models/defaultModel';
import { followupsFor } from '../../src/extension/participant/followups';
import { historyToMessages, lastAnswer, type ChatTurn } from '../../src/core/participant/history';
import { modelsMarkdown } from '../../src/core/participant/modelsMarkdown';
import { quotaMarkdown } from '../../src/core/participant/quotaMarkdown';
import { speechText } from '../../src/core/participant/speechText';

const model = (id: string, extra: Partial<Model> = {}): Model => ({ id, object: 'model', ...extra });
const text = (t: string) => [{ kind: 'text' as const, text: t }];
const NO_DEFAULTS = { chat: '', embedding: '', rerank: '', transcription: '', speech: '', image: '' };

describe('@unified participant: history', () => {
  const turns: ChatTurn[] = [
    { kind: 'request', prompt: 'What is SSE?' },
    { kind: 'response', markdown: 'Server-sent events.' },
    { kind: 'request', prompt: '', command: 'models' },
    { kind: 'response', markdown: '### Chat', command: 'models' },
    { kind: 'request', prompt: 'A question whose answer failed' },
    { kind: 'request', prompt: 'And WebSockets?' },
    { kind: 'response', markdown: 'Two-way.' },
    { kind: 'request', prompt: '', command: 'speak' },
    { kind: 'response', markdown: 'Reading the last answer aloud', command: 'speak' },
  ];

  it('keeps the plain exchanges in order, drops command turns and unanswered requests, ends with the prompt', () => {
    assert.deepEqual(historyToMessages(turns, 'Which is simpler?'), [
      { role: 'user', parts: text('What is SSE?') },
      { role: 'assistant', parts: text('Server-sent events.') },
      { role: 'user', parts: text('And WebSockets?') },
      { role: 'assistant', parts: text('Two-way.') },
      { role: 'user', parts: text('Which is simpler?') },
    ]);
    assert.deepEqual(historyToMessages([], 'Hi'), [{ role: 'user', parts: text('Hi') }]);
  });

  it('finds the last answer to read aloud, never a /speak note', () => {
    assert.equal(lastAnswer(turns), 'Two-way.');
    assert.equal(
      lastAnswer([
        { kind: 'request', prompt: 'x' },
        { kind: 'response', markdown: '  ' },
      ]),
      undefined,
    );
    assert.equal(lastAnswer([]), undefined);
  });
});

describe('@unified participant: speech text', () => {
  it('reads markdown as prose: no syntax, no addresses, code announced', () => {
    const spoken = speechText(
      '# Title\n\nSome **bold** and `code`, a [link](https://x.test) and ![pic](a.png).\n\n- one\n- two\n\n```js\nlet a = 1;\n```\n> quoted <b>html</b>',
    );
    assert.equal(spoken, 'Title.\nSome bold and code, a link and pic.\none\ntwo\n (code block omitted) \nquoted html');
    assert.doesNotMatch(spoken, /https|\*|`|let a/);
  });
});

describe('@unified participant: model choice', () => {
  const models = [
    model('sim-x/embed', { type: 'embedding' }),
    model('sim-openai/gpt-sim-mini'),
    model('sim-anthropic/claude-sim-sonnet'),
    model('sim-openai/tts-sim'),
  ];

  it('uses the configured default (with its provider when listed), else the first of the category', () => {
    assert.deepEqual(chooseModel('chat', 'sim-anthropic/claude-sim-sonnet', models), {
      id: 'sim-anthropic/claude-sim-sonnet',
      provider: 'sim-anthropic',
    });
    assert.deepEqual(chooseModel('chat', 'unlisted/model::delay-chunks=5', models), {
      id: 'unlisted/model::delay-chunks=5',
    });
    assert.deepEqual(chooseModel('chat', '', models), { id: 'sim-openai/gpt-sim-mini', provider: 'sim-openai' });
    assert.deepEqual(chooseModel('speech', '', models), { id: 'sim-openai/tts-sim', provider: 'sim-openai' });
    assert.equal(chooseModel('image', '', models), undefined);
    assert.equal(chooseModel('image', '', undefined), undefined);
  });
});

describe('@unified participant: /models markdown', () => {
  it('groups by category, marks defaults and degraded providers, escapes ids', () => {
    const md = modelsMarkdown(
      [
        model('sim-openai/gpt-sim'),
        model('sim-google/gemini-sim-flash', { provider_info: { status: 'degraded' } }),
        model('sim-openai/tts-sim'),
        model('odd`id*<b>'),
      ],
      { ...NO_DEFAULTS, chat: 'sim-openai/gpt-sim', image: 'gone/model' },
      Date.UTC(2026, 10, 22, 8, 30),
    );
    assert.match(md, /^\*\*4 models\*\* on the gateway \(read 2026-11-22 08:30 UTC\)/);
    // An id without a hint is a chat model: there is no "Other" group any more.
    assert.ok(md.indexOf('### Chat (3)') >= 0 && md.indexOf('### Chat (3)') < md.indexOf('### Speech (1)'));
    assert.ok(!md.includes('### Other'));
    assert.match(md, /- `sim-openai\/gpt-sim` · sim-openai ★ default/);
    assert.match(md, /- `sim-google\/gemini-sim-flash` · sim-google · degraded\n/);
    assert.match(md, /- `odd'id\*<b>` · /, 'a backtick cannot end the code span');
    assert.match(md, /No default set for: Embedding, Rerank, Transcription, Speech/);
    assert.match(md, /Defaults the gateway does not list: `gone\/model`/);
    assert.equal(modelsMarkdown([], NO_DEFAULTS, undefined), 'The gateway lists no models.');
  });
});

describe('@unified participant: /quota markdown', () => {
  const now = Date.UTC(2026, 10, 22, 10, 0);
  const reading = { credits: 12.345, reset: '2026-12-01T00:00:00.000Z', at: now - 60_000 };
  const spend = { session: 0.5, lastHour: 0.5, burnRatePerHour: undefined };

  it('shows the balance, the reset (absolute and relative) and the session spend', () => {
    const answer = quotaMarkdown({ kind: 'ok', reading }, spend, now);
    assert.equal(
      answer.markdown,
      '**Balance: $12.34**  \nReset: 2026-12-01 00:00 UTC (resets in 8 d 14 h)  \nSpent this session: $0.50',
    );
    assert.deepEqual(answer.actions, []);
  });

  it('says clearly what is wrong in every other state, with the action that helps', () => {
    const cases: [CreditsState, RegExp, string[]][] = [
      [{ kind: 'noBaseUrl' }, /gateway address is not set/, ['setBaseUrl']],
      [{ kind: 'noKey' }, /No API key is set/, ['setApiKey']],
      [{ kind: 'badKey', message: 'HTTP 401 *bad*' }, /refused the API key: HTTP 401 \\\*bad\\\*/, ['setApiKey']],
      [
        { kind: 'offline', message: 'Could not reach the gateway' },
        /cannot be reached: Could not reach the gateway  \nNo balance has been read yet\./,
        ['refreshCredits'],
      ],
      [
        { kind: 'offline', message: 'down', last: reading },
        /Last known balance: \$12\.34 \(read 2026-11-22 09:59 UTC\)/,
        ['refreshCredits'],
      ],
      [
        { kind: 'outOfCredits', last: reading },
        /\*\*Out of credits\*\*.*\n.*Reset: 2026-12-01 00:00 UTC/,
        ['refreshCredits'],
      ],
      [{ kind: 'error', message: 'HTTP 500' }, /could not be read: HTTP 500/, ['refreshCredits']],
    ];
    for (const [state, pattern, actions] of cases) {
      const answer = quotaMarkdown(state, spend, now);
      assert.match(answer.markdown, pattern, state.kind);
      assert.deepEqual(answer.actions, actions, state.kind);
    }
  });
});

describe('@unified participant: followups', () => {
  it('offers the next useful step after a completed response only', () => {
    assert.deepEqual(
      followupsFor({ command: '', outcome: 'done' }).map((f) => f.command),
      ['speak'],
    );
    assert.deepEqual(
      followupsFor({ command: 'research', outcome: 'done' }).map((f) => f.command),
      ['speak'],
    );
    assert.deepEqual(
      followupsFor({ command: 'models', outcome: 'done' }).map((f) => [f.label, f.command]),
      [['Show my balance', 'quota']],
    );
    assert.deepEqual(
      followupsFor({ command: 'quota', outcome: 'done' }).map((f) => f.command),
      ['models'],
    );
    assert.deepEqual(
      followupsFor({ command: '', outcome: 'outOfCredits' }).map((f) => f.command),
      ['quota'],
    );
    assert.deepEqual(followupsFor({ command: '', outcome: 'error' }), []);
    assert.deepEqual(followupsFor(undefined), []);
    assert.deepEqual(followupsFor({ something: 'else' }), []);
  });
});
