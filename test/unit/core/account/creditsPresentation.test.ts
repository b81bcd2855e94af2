import * as assert from 'node:assert/strict';
import { presentCredits, severityOf, type CreditsState } from '../../../../src/core/account/creditsPresentation';
import { ENGLISH, type Translator } from '../../../../src/shared/translator';

const thresholds = { refreshIntervalMinutes: 5, warningThreshold: 5, errorThreshold: 1 };
const now = Date.parse('2026-11-22T10:00:00.000Z');
const spend = { session: 1.25, lastHour: 0.5, burnRatePerHour: 0.5 };
const reading = { credits: 12.34, reset: '2026-11-22T12:10:00.000Z', at: now - 30_000 };

describe('credits in the status bar', () => {
  it('shows the balance with reset time and spend in the tooltip', () => {
    const shown = presentCredits({ kind: 'ok', reading }, thresholds, spend, now);
    assert.equal(shown.text, '$(credit-card) $12.34');
    assert.equal(shown.severity, 'normal');
    assert.match(shown.tooltip, /Balance: \$12\.34/);
    assert.match(shown.tooltip, /resets in 2 h 10 min/);
    assert.match(shown.tooltip, /Spent this session: \$1\.25/);
    assert.match(shown.tooltip, /Spent in the last hour: \$0\.50/);
    assert.match(shown.tooltip, /Burn rate: \$0\.50 per hour/);
    assert.equal(shown.command, 'unifiedInference.showCreditsMenu');
  });

  it('colours by threshold', () => {
    assert.equal(severityOf(5, thresholds), 'normal');
    assert.equal(severityOf(4.99, thresholds), 'warning');
    assert.equal(severityOf(0.99, thresholds), 'error');
    assert.equal(severityOf(0, { ...thresholds, errorThreshold: 0 }), 'error', 'nothing left is always an error');
  });

  it('points at the missing step when not configured', () => {
    assert.deepEqual(
      [
        presentCredits({ kind: 'noBaseUrl' }, thresholds, spend, now),
        presentCredits({ kind: 'noKey' }, thresholds, spend, now),
      ].map((p) => [p.text, p.command]),
      [
        ['$(gear) Configure gateway', 'unifiedInference.setBaseUrl'],
        ['$(key) Set API key', 'unifiedInference.setApiKey'],
      ],
    );
  });

  it('never shows an unknown balance as a number', () => {
    const states: CreditsState[] = [
      { kind: 'loading' },
      { kind: 'badKey', message: 'Invalid API key' },
      { kind: 'outOfCredits' },
      { kind: 'offline', message: 'connect ECONNREFUSED 127.0.0.1:9' },
      { kind: 'error', message: 'HTTP 500' },
    ];
    for (const state of states)
      assert.doesNotMatch(presentCredits(state, thresholds, spend, now).text, /\$\d/, state.kind);
  });

  it('keeps the last known balance when offline, marked stale with its age', () => {
    const shown = presentCredits(
      { kind: 'offline', message: 'connect ECONNREFUSED', last: { ...reading, at: now - 10 * 60_000 } },
      thresholds,
      spend,
      now,
    );
    // The word, not only an icon: a bare yellow "$12.34" reads as a low balance.
    assert.equal(shown.text, '$(debug-disconnect) Offline: $12.34');
    assert.equal(shown.severity, 'warning');
    assert.equal(
      shown.label,
      'Unified Inference: the gateway is unreachable; last known balance $12.34, read 10 min ago.',
    );
    assert.match(shown.tooltip, /Gateway unreachable/);
    assert.match(shown.tooltip, /last known, read 10 min ago/);
  });

  it('gives every state an accessible sentence that says the state in words, not only the amount', () => {
    const states: CreditsState[] = [
      { kind: 'noBaseUrl' },
      { kind: 'noKey' },
      { kind: 'loading' },
      { kind: 'loading', last: reading },
      { kind: 'ok', reading },
      { kind: 'badKey', message: 'Invalid API key' },
      { kind: 'outOfCredits' },
      { kind: 'offline', message: 'down' },
      { kind: 'offline', message: 'down', last: reading },
      { kind: 'error', message: 'HTTP 500' },
      { kind: 'error', message: 'HTTP 500', last: reading },
    ];
    const labels = states.map((state) => presentCredits(state, thresholds, spend, now).label);
    for (const [i, label] of labels.entries()) {
      assert.match(label, /^Unified Inference: .+\.$/, states[i]?.kind);
      assert.doesNotMatch(label, /\$\(/, 'no icon syntax is read out');
    }
    assert.equal(new Set(labels).size, labels.length, 'no two states sound alike');
    const low = presentCredits({ kind: 'ok', reading: { ...reading, credits: 0.5 } }, thresholds, spend, now);
    assert.match(low.label, /balance \$0\.50, below the (error|warning) threshold\.$/);
  });

  it('escapes server text in the markdown tooltip', () => {
    const shown = presentCredits({ kind: 'error', message: '[click](command:evil) **x**' }, thresholds, spend, now);
    assert.ok(!shown.tooltip.includes('[click](command:evil)'));
    assert.match(shown.tooltip, /\\\[click\\\]\(command:evil\) \\\*\\\*x/); // the brackets escaped: no link can form
  });

  it('adds a connection setup problem (an unreadable CA file) to the tooltip in every state', () => {
    const problem =
      'The CA certificate file /etc/corp-ca.pem could not be read (ENOENT); the default certificate authorities are used.';
    const states: CreditsState[] = [
      { kind: 'ok', reading },
      { kind: 'offline', message: 'down' },
      { kind: 'noKey' },
      { kind: 'loading' },
    ];
    for (const state of states) {
      const shown = presentCredits(state, thresholds, spend, now, problem);
      // Markdown-escaped in the tooltip (it is a file name): compared without the escapes.
      const unescaped = shown.tooltip.replace(/\\(.)/g, '$1');
      assert.match(
        unescaped,
        /\$\(warning\) \*\*Connection setup:\*\* The CA certificate file \/etc\/corp-ca\.pem could not be read \(ENOENT\)/,
        state.kind,
      );
      assert.equal(shown.text, presentCredits(state, thresholds, spend, now).text, 'the text itself is unchanged');
    }
    assert.doesNotMatch(presentCredits({ kind: 'ok', reading }, thresholds, spend, now).tooltip, /Connection setup/);
  });

  it('says every word through the translator it is given (vscode.l10n in the extension)', () => {
    // A pseudo-translation marks each message: a line without the mark was not translated.
    const marked: Translator = { t: (message, ...args) => `«${ENGLISH.t(message, ...args)}»` };
    const states: CreditsState[] = [
      { kind: 'noBaseUrl' },
      { kind: 'noKey' },
      { kind: 'loading' },
      { kind: 'loading', last: reading },
      { kind: 'ok', reading },
      { kind: 'badKey', message: 'bad' },
      { kind: 'outOfCredits', last: reading },
      { kind: 'offline', message: 'down' },
      { kind: 'offline', message: 'down', last: reading },
      { kind: 'error', message: 'x' },
      { kind: 'error', message: 'x', last: reading },
    ];
    for (const state of states) {
      const shown = presentCredits(state, thresholds, spend, now, 'CA file unreadable', marked);
      const words = shown.text.replace(/^\$\([^)]*\)\s*/, '');
      if (/[a-z]/i.test(words)) assert.match(words, /^«.*»$/, `${state.kind}: status bar text`);
      assert.match(shown.label, /^«.*»/, `${state.kind}: the spoken label`);
      for (const line of shown.tooltip
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean))
        assert.match(line, /«.*»/, `${state.kind}: tooltip line ${line}`);
      assert.equal(presentCredits(state, thresholds, spend, now).text.includes('«'), false, 'English by default');
    }
  });

  it('fills {n} placeholders in English as vscode.l10n.t does, leaving one without a value as written', () => {
    assert.equal(ENGLISH.t('Spent {0} of {1}', '$1.00', 3), 'Spent $1.00 of 3');
    assert.equal(ENGLISH.t('{0} and {1}', 'a'), 'a and {1}');
    assert.equal(ENGLISH.t('{0}', '$&'), '$&', 'a value is inserted as is, never as a replacement pattern');
  });
});
