import * as assert from 'node:assert/strict';
import {
  arr,
  asRecord,
  bool,
  isFiniteNumber,
  isRecord,
  num,
  str,
  strOrNum,
  tryParseJson,
} from '../../../src/core/parse/json';

// The one kit for unknown JSON: the gateway's answers (src/core/parse), stored conversations
// (conversationShape) and language model tool input (toolSupport) all read through it.
describe('the readers for unknown JSON', () => {
  it('isRecord: a plain object, never null, an array or a primitive', () => {
    assert.equal(isRecord({ a: 1 }), true);
    assert.equal(isRecord(Object.create(null)), true);
    for (const value of [null, undefined, [], [1], 'text', 3, true])
      assert.equal(isRecord(value), false, JSON.stringify(value));
  });

  it('asRecord: the object itself, else an empty one to read fields from', () => {
    const object = { a: 1 };
    assert.equal(asRecord(object), object);
    assert.deepEqual(asRecord(['a']), {});
    assert.deepEqual(asRecord(null), {});
    assert.equal(asRecord('text')['length'], undefined, 'a string is not read as an object');
  });

  it('isFiniteNumber: numbers only, without NaN and the infinities, and no numeric strings', () => {
    assert.equal(isFiniteNumber(0), true);
    assert.equal(isFiniteNumber(-1.5), true);
    for (const value of [NaN, Infinity, -Infinity, '3', null, undefined])
      assert.equal(isFiniteNumber(value), false, String(value));
  });

  it('str, num, strOrNum, arr, bool: the value of that type, else nothing', () => {
    assert.equal(str('a'), 'a');
    assert.equal(str(1), undefined);
    assert.equal(num(2), 2);
    assert.equal(num('2.5'), 2.5, 'numbers that arrive as strings');
    assert.equal(num(' '), undefined);
    assert.equal(num(NaN), undefined);
    assert.equal(strOrNum(7), '7');
    assert.equal(strOrNum('id-1'), 'id-1');
    assert.equal(strOrNum(Infinity), undefined);
    assert.deepEqual(arr([1]), [1]);
    assert.deepEqual(arr({ length: 1 }), []);
    assert.equal(bool(false), false);
    assert.equal(bool('false'), undefined);
  });

  it('tryParseJson: the value, or undefined for text that is not JSON', () => {
    assert.deepEqual(tryParseJson('{"a":[1]}'), { a: [1] });
    assert.equal(tryParseJson('{"a":'), undefined);
  });
});
