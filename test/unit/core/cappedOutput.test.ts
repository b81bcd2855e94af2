// A terminal command's output as the model gets it: whole when small, start and end with the
// count of what was left out when large, memory bounded however much is printed.
import * as assert from 'node:assert/strict';
import { CappedOutput } from '../../../src/core/commands/cappedOutput';

describe('core/commands: capped output', () => {
  it('keeps small output whole, across chunks', () => {
    const output = new CappedOutput(64);
    for (const piece of ['hel', 'lo\n', 'world\n']) output.push(Buffer.from(piece));
    assert.equal(output.text(), 'hello\nworld\n');
    assert.equal(output.bytes, 12);
  });

  it('keeps the start and the end of large output, saying how much was left out', () => {
    const output = new CappedOutput(20);
    output.push(Buffer.from('START-----'));
    for (let i = 0; i < 1000; i++) output.push(Buffer.from('middle'));
    output.push(Buffer.from('-----END!!'));
    assert.equal(output.text(), `START-----\n[… ${10 + 6000 + 10 - 20} bytes of output left out …]\n-----END!!`);
    assert.equal(output.bytes, 6020);
  });

  it('cuts one huge chunk the same way', () => {
    const output = new CappedOutput(10);
    output.push(Buffer.from(`abcde${'x'.repeat(100)}vwxyz`));
    assert.equal(output.text(), 'abcde\n[… 100 bytes of output left out …]\nvwxyz');
  });
});
