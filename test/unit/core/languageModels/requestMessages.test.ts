import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { encodePng } from '../../../gateway/png';
import { IMAGE_CHARS } from '../../../../src/core/context/tokenEstimate';
import { toChatMessages, toMessagesParams } from '../../../../src/core/answers/gatewayMessages';
import {
  countableText,
  toGatewayModelOptions,
  toGatewayRequest,
  toGatewayTools,
  type LanguageModelKit,
} from '../../../../src/core/languageModels/requestMessages';

// Stand-ins for the vscode classes (same fields and constructors as VS Code 1.139's).
class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  readonly isError: boolean;
  constructor(
    readonly callId: string,
    readonly content: unknown[],
    isError?: boolean,
  ) {
    this.isError = isError ?? false;
  }
}
class DataPart {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}
/** A tool result part as VS Code 1.104 builds it: no isError field at all. */
class OldToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}

const User = 1;
const Assistant = 2;
const System = 3;
const kit: LanguageModelKit = { TextPart, ToolCallPart, ToolResultPart, roles: { Assistant, System } };
/** A VS Code without the System role (1.104's enum). */
const oldKit: LanguageModelKit = { TextPart, ToolCallPart, ToolResultPart: OldToolResultPart, roles: { Assistant } };

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('VS Code language model requests to the neutral conversation', () => {
  it("maps System messages to the request's system text, not to user turns (both endpoints)", () => {
    const mapped = toGatewayRequest(
      [
        { role: System, content: [new TextPart('You are terse.')] },
        { role: User, content: [new TextPart('Hi')] },
        { role: Assistant, content: [new TextPart('Hello.')] },
        { role: System, content: [new TextPart('Answer in French.')] },
        { role: User, content: [new TextPart('Bye')] },
      ],
      kit,
    );
    assert.equal(mapped.system, 'You are terse.\n\nAnswer in French.');
    assert.deepEqual(
      mapped.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.ok(!JSON.stringify(mapped.messages).includes('terse'), 'no system text inside the turns');
    const chat = toChatMessages(mapped);
    assert.deepEqual(chat[0], { role: 'system', content: 'You are terse.\n\nAnswer in French.' });
    assert.equal(chat.filter((m) => m.role === 'system').length, 1);
    assert.deepEqual(toMessagesParams(mapped.messages)[0], { role: 'user', content: [{ type: 'text', text: 'Hi' }] });
  });

  it('leaves out an empty system message, and treats role 3 as a user turn where VS Code has no System role', () => {
    assert.equal(
      toGatewayRequest(
        [
          { role: System, content: [new TextPart('  ')] },
          { role: User, content: [new TextPart('Hi')] },
        ],
        kit,
      ).system,
      undefined,
    );
    const old = toGatewayRequest([{ role: 3, content: [new TextPart('Be brief.')] }], oldKit);
    assert.equal(old.system, undefined);
    assert.deepEqual(old.messages, [{ role: 'user', parts: [{ kind: 'text', text: 'Be brief.' }] }]);
  });

  it("maps tool calls and results, and a result's isError to is_error on /messages (an Error: prefix on chat completions)", () => {
    const mapped = toGatewayRequest(
      [
        { role: User, content: [new TextPart('Read two files')] },
        {
          role: Assistant,
          content: [
            new ToolCallPart('c1', 'read_file', { path: 'a' }),
            new ToolCallPart('c2', 'read_file', { path: 'b' }),
          ],
        },
        {
          role: User,
          content: [
            new ToolResultPart('c1', [new TextPart('A!')]),
            new ToolResultPart('c2', [new TextPart('ENOENT: b')], true),
          ],
        },
      ],
      kit,
    );
    assert.deepEqual(mapped.messages[2], {
      role: 'user',
      parts: [
        { kind: 'toolResult', callId: 'c1', content: 'A!' },
        { kind: 'toolResult', callId: 'c2', content: 'ENOENT: b', isError: true },
      ],
    });
    assert.deepEqual(toMessagesParams(mapped.messages)[2]?.content, [
      { type: 'tool_result', tool_use_id: 'c1', content: 'A!' },
      { type: 'tool_result', tool_use_id: 'c2', content: 'ENOENT: b', is_error: true },
    ]);
    assert.deepEqual(
      toChatMessages(mapped).filter((m) => m.role === 'tool'),
      [
        { role: 'tool', tool_call_id: 'c1', content: 'A!' },
        { role: 'tool', tool_call_id: 'c2', content: 'Error: ENOENT: b' },
      ],
    );
    // A result part without the field (VS Code 1.104) is not an error.
    const old = toGatewayRequest(
      [{ role: User, content: [new OldToolResultPart('c1', [new TextPart('ok')])] }],
      oldKit,
    );
    assert.deepEqual(old.messages[0]?.parts, [{ kind: 'toolResult', callId: 'c1', content: 'ok' }]);
  });

  it('decodes textual data in tool results and names binary data instead of dumping its bytes', () => {
    const mapped = toGatewayRequest(
      [
        {
          role: User,
          content: [
            new ToolResultPart('c1', [
              new TextPart('size: '),
              new DataPart(bytes('{"n":1}'), 'application/json'),
              new DataPart(new Uint8Array(4), 'image/png'),
            ]),
          ],
        },
      ],
      kit,
    );
    assert.deepEqual(mapped.messages[0]?.parts, [
      { kind: 'toolResult', callId: 'c1', content: 'size: {"n":1}[image/png data, 4 bytes, not sent]' },
    ]);
    assert.deepEqual(mapped.images, [], 'an image inside a tool result is named, not refused');
  });

  it('maps image data parts to image parts of both wire formats, typed by their bytes, and skips other data parts', () => {
    const png = encodePng(2, 1, new Uint8Array([255, 0, 0, 0, 0, 255]));
    const mapped = toGatewayRequest(
      [
        {
          role: User,
          content: [
            new TextPart('What is in this picture?'),
            // The caller's MIME type is not trusted: the bytes say PNG.
            new DataPart(new Uint8Array(png), 'image/jpeg'),
            new DataPart(bytes('{}'), 'cache_control'),
          ],
        },
      ],
      kit,
    );
    const data = png.toString('base64');
    assert.deepEqual(mapped.images, ['image/png']);
    assert.deepEqual(mapped.refusedImages, []);
    assert.deepEqual(mapped.messages[0]?.parts, [
      { kind: 'text', text: 'What is in this picture?' },
      { kind: 'image', mediaType: 'image/png', data },
    ]);
    assert.deepEqual(toChatMessages({ messages: mapped.messages }), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
        ],
      },
    ]);
    assert.deepEqual(toMessagesParams(mapped.messages), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        ],
      },
    ]);
    assert.deepEqual(toGatewayRequest([{ role: User, content: [new TextPart('hi')] }], kit).images, []);
  });

  it('refuses image parts that are not the image they claim, or too large, instead of sending them', () => {
    const svg = bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const mapped = toGatewayRequest(
      [
        {
          role: User,
          content: [
            new DataPart(new Uint8Array([137, 80, 78, 71]), 'image/png'),
            new DataPart(svg, 'image/svg+xml'),
            new DataPart(huge, 'image/png'),
          ],
        },
      ],
      kit,
    );
    assert.deepEqual(mapped.images, []);
    assert.equal(mapped.refusedImages.length, 3);
    assert.match(mapped.refusedImages[1] ?? '', /SVG/);
    assert.match(mapped.refusedImages[2] ?? '', /5 MB/);
    assert.deepEqual(mapped.messages[0]?.parts, []);
  });

  it('passes max_tokens and temperature from modelOptions when they are valid, and nothing else', () => {
    assert.deepEqual(toGatewayModelOptions(undefined), {});
    assert.deepEqual(toGatewayModelOptions({ max_tokens: 300, temperature: 0.2 }), {
      maxTokens: 300,
      temperature: 0.2,
    });
    assert.deepEqual(
      toGatewayModelOptions({ temperature: 0 }),
      { temperature: 0 },
      'zero is a temperature, not "unset"',
    );
    assert.deepEqual(toGatewayModelOptions({ temperature: 2 }), { temperature: 2 });
    for (const temperature of [-0.1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null]) {
      assert.deepEqual(toGatewayModelOptions({ temperature }), {}, `temperature ${String(temperature)} is ignored`);
    }
    for (const max_tokens of [0, -5, 1.5, '100'])
      assert.deepEqual(toGatewayModelOptions({ max_tokens }), {}, `max_tokens ${String(max_tokens)} is ignored`);
    assert.deepEqual(toGatewayModelOptions({ top_p: 0.9, stop: ['x'] }), {});
  });

  it('maps tools, keeping object schemas', () => {
    assert.equal(toGatewayTools([]), undefined);
    assert.deepEqual(
      toGatewayTools([
        { name: 'a', description: 'A', inputSchema: { type: 'object' } },
        { name: 'b', description: 'B' },
      ]),
      [
        { name: 'a', description: 'A', inputSchema: { type: 'object' } },
        { name: 'b', description: 'B' },
      ],
    );
  });

  it('counts the text a message holds for the token estimate, system text included', () => {
    assert.equal(countableText({ role: System, content: [new TextPart('Be brief.')] }, kit), 'Be brief.');
    assert.equal(
      countableText({ role: User, content: [new TextPart('Hi'), new DataPart(new Uint8Array(9), 'image/png')] }, kit),
      'Hi',
      'bytes that are no image are not sent, so not counted',
    );
    const image = new DataPart(new Uint8Array(encodePng(1, 1, new Uint8Array(3))), 'image/png');
    assert.equal(
      countableText({ role: User, content: [new TextPart('Hi'), image] }, kit).length,
      2 + IMAGE_CHARS,
      'an image counts as what the estimate gives an image',
    );
    assert.match(
      countableText({ role: Assistant, content: [new ToolCallPart('c1', 'read_file', { path: 'a' })] }, kit),
      /read_file/,
    );
  });

  it('counts an image without hashing it (VS Code asks for counts often; hashing megabytes each time is waste)', () => {
    const image = new DataPart(new Uint8Array(encodePng(1, 1, new Uint8Array(3))), 'image/png');
    // The module object itself (an ES import would be a copy): chatImage.ts looks createHash up on it.
    const crypto = createRequire(__filename)('node:crypto') as { createHash: (...args: unknown[]) => unknown };
    const createHash = crypto.createHash;
    let hashes = 0;
    crypto.createHash = (...args: unknown[]) => {
      hashes++;
      return createHash(...args);
    };
    try {
      assert.equal(countableText({ role: User, content: [image] }, kit).length, IMAGE_CHARS);
    } finally {
      crypto.createHash = createHash;
    }
    assert.equal(hashes, 0);
  });
});
