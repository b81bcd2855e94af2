import * as assert from 'node:assert/strict';
import { presentConnectionTest } from '../../../../src/core/account/connectionTestPresentation';

describe('Test Connection in the credits item', () => {
  const at = Date.parse('2026-11-27T04:40:00Z');

  it('says a passed test with the model count, in the text, the spoken label and the tooltip', () => {
    const shown = presentConnectionTest({ ok: true, modelCount: 24, at });
    assert.equal(shown.text, '$(check) Connected: 24 models');
    assert.equal(shown.label, 'Unified Inference: the connection test passed; the gateway lists 24 models.');
    assert.match(shown.tooltipLine, /^Connection tested at .+: it works, 24 models\.$/);
  });

  it("says a failed test with the failure's title, and never reads as a balance", () => {
    const shown = presentConnectionTest({ ok: false, problem: 'Connection refused', at });
    assert.equal(shown.text, '$(error) Connection failed');
    assert.doesNotMatch(shown.text, /\$\d/);
    assert.equal(shown.label, 'Unified Inference: the connection test failed: Connection refused.');
    assert.match(shown.tooltipLine, /failed \(Connection refused\)\.$/);
    assert.match(presentConnectionTest({ ok: false, at }).label, /the gateway did not answer/);
  });
});
