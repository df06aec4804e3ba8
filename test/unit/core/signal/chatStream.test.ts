import { strict as assert } from 'node:assert';
import { ChatStreamReader } from '../../../../src/core/signal/chatStream';

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  event({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
const STREAM = [
  delta({ role: 'assistant', content: '' }),
  delta({ reasoning_content: 'Two words fit. ' }),
  delta({ reasoning_content: 'Guessing crane.' }),
  delta({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'guess_word', arguments: '' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"guess": ' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '"cranë"}' } }] }),
  delta({}, 'tool_calls'),
  event({ choices: [], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } }),
  'data: [DONE]\n\n',
].join('');

describe('chat stream reader', () => {
  it('reads events split anywhere (even inside a character) into the same events and the completion they spell', () => {
    const whole = new ChatStreamReader();
    const events = whole.push(STREAM);
    assert.equal(events.length, 9);
    assert.deepEqual(
      events.map((e) => e.usageOnly),
      [false, false, false, false, false, false, false, true, false],
    );
    const bytes = Buffer.from(STREAM);
    const split = new ChatStreamReader();
    const decoder = new TextDecoder();
    const raws: string[] = [];
    for (let i = 0; i < bytes.length; i += 3)
      raws.push(...split.push(decoder.decode(bytes.subarray(i, i + 3), { stream: true })).map((e) => e.raw));
    raws.push(...split.end().map((e) => e.raw));
    assert.equal(raws.join(''), STREAM, 'every byte is handed on, in order');
    assert.deepEqual(split.completion(), whole.completion());
    assert.deepEqual(split.completion(), {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'Two words fit. Guessing crane.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'guess_word', arguments: '{"guess": "cranë"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    });
  });

  it('keeps a last event that the stream ended without a blank line, and lets text that is not JSON pass', () => {
    const reader = new ChatStreamReader();
    assert.deepEqual(reader.push(': keep-alive\n\ndata: {"choices":[{"delta":{"content":"hi"}}]}'), [
      { raw: ': keep-alive\n\n', usageOnly: false },
    ]);
    const [last] = reader.end();
    assert.equal(last.usageOnly, false);
    assert.equal(reader.completion().choices[0].message.content, 'hi');
  });
});

describe('ChatStreamReader: linear in what it reads', () => {
  it('finds an event end split across chunks at any point, \n\n or \r\n\r\n', () => {
    const parts = [
      'data: {"choices":[{"delta":{"content":"a"}}]}\r\n\r\n',
      'data: {"choices":[{"delta":{"content":"b"}}]}\n\n',
      'data: [DONE]\n\n',
    ];
    const text = parts.join('');
    for (let size = 1; size <= 7; size++) {
      const reader = new ChatStreamReader();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...reader.push(text.slice(i, i + size)));
      assert.deepEqual(
        events.map((e) => e.raw),
        parts,
        `chunks of ${size}`,
      );
      assert.equal(reader.completion().choices[0].message.content, 'ab');
      assert.equal(reader.pendingLength, 0);
    }
  });

  it('a line that never ends (64 MB in 16 KB chunks) is never rescanned: read within seconds, its length counted', () => {
    const reader = new ChatStreamReader();
    const chunk = `data: ${'x'.repeat(16 * 1024 - 6)}`.slice(0, 16 * 1024);
    const started = Date.now();
    for (let i = 0; i < 4096; i++) assert.deepEqual(reader.push(i ? chunk.replace('data: ', 'xxxxxx') : chunk), []);
    // Rescanning the pending line on every chunk took minutes for this (4,096 scans of up to 64 MB each).
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    assert.equal(reader.pendingLength, 4096 * 16 * 1024);
  });
});
