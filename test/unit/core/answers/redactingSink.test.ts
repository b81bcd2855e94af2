// The sink every streamed answer goes through: a key split around a tool event (a server tool's
// step, a tool call between two text blocks) is still caught, and nothing that arrived is lost.
import * as assert from 'node:assert/strict';
import { redactingSink } from '../../../../src/core/answers/redactingSink';

const KEY = 'sk-live-0123456789abcdef';

describe('redactingSink: a key split around a tool event', () => {
  for (const event of ['toolsExecuted', 'toolCall'] as const) {
    it(`holds the start of the key across ${event}, so the joined text never spells it`, () => {
      const text: string[] = [];
      const steps: string[] = [];
      const { sink, flush } = redactingSink(
        {
          text: (delta) => text.push(delta),
          toolCall: (call) => steps.push(call.name),
          toolsExecuted: (tools) => steps.push(...tools.map((t) => (typeof t === 'string' ? t : String(t.name)))),
        },
        [KEY],
      );
      sink.text(`Here it is: ${KEY.slice(0, 9)}`);
      if (event === 'toolsExecuted')
        sink.toolsExecuted?.([{ name: 'lookup', server: 'https://tools.example/mcp', arguments: {}, result: 'ok' }]);
      else sink.toolCall?.({ id: 'c1', name: 'lookup', input: {}, arguments: '{}' });
      sink.text(`${KEY.slice(9)} and more.`);
      flush();
      const joined = text.join('');
      assert.equal(joined, 'Here it is: [redacted] and more.', 'the key replaced whole, nothing else lost');
      assert.deepEqual(steps, ['lookup']);
    });
  }
});
