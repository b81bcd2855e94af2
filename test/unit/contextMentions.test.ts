// The @ words the chat reads when a message goes: found as words of their own, removed for the query.
import * as assert from 'node:assert/strict';
import { mentions, mentionsStartingWith, withoutMention } from '../../src/shared/contextMentions';

describe('contextMentions: @codebase and @research in a message', () => {
  it('finds the word alone, in any case, not inside an address or a path', () => {
    assert.ok(mentions('@codebase where is the key stored?', 'codebase'));
    assert.ok(mentions('where, @CodeBase, is it', 'codebase'));
    assert.ok(!mentions('mail me at me@codebase.dev', 'codebase'));
    assert.ok(!mentions('see @codebase/readme.md', 'codebase'));
    assert.ok(!mentions('@codebases are big', 'codebase'));
    assert.ok(mentions('summarize @research', 'research'));
  });

  it('leaves the query once the mention is taken out', () => {
    assert.equal(withoutMention('@codebase where is the cache?', 'codebase'), 'where is the cache?');
    assert.equal(withoutMention('where @codebase is it @codebase', 'codebase'), 'where is it');
    assert.equal(withoutMention('@codebase', 'codebase'), '');
  });

  it('suggests the mentions a partial word could become, none for a bare @', () => {
    assert.deepEqual(
      mentionsStartingWith('co').map((m) => m.name),
      ['codebase'],
    );
    assert.deepEqual(
      mentionsStartingWith('RE').map((m) => m.name),
      ['research'],
    );
    assert.deepEqual(mentionsStartingWith(''), []);
    assert.deepEqual(mentionsStartingWith('src'), []);
  });
});
