import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTokens } from '../models/index.ts';
import { type Block, chunkBlocks } from './chunk-blocks.ts';

const sentence = (index: number) =>
  `Sentence number ${index} talks about the policy in some detail.`;

describe('chunking', () => {
  it('keeps a short document in one chunk with stable ids', () => {
    const chunks = chunkBlocks('doc', [{ kind: 'text', text: 'One short paragraph.' }]);
    assert.deepEqual(chunks, [
      {
        id: 'doc#0',
        documentId: 'doc',
        position: 0,
        heading: '',
        text: 'One short paragraph.',
        tokenCount: 4,
      },
    ]);
  });

  it('never lets a chunk span two sections, and carries the heading path', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'Handbook' },
      { kind: 'heading', level: 2, text: 'Vacation' },
      { kind: 'text', text: 'Fifteen days a year.' },
      { kind: 'heading', level: 2, text: 'Sick leave' },
      { kind: 'text', text: 'Ten days a year.' },
      { kind: 'heading', level: 1, text: 'Other' },
      { kind: 'text', text: 'Misc.' },
    ];
    assert.deepEqual(
      chunkBlocks('h', blocks).map((chunk) => [chunk.heading, chunk.text]),
      [
        ['Handbook > Vacation', 'Fifteen days a year.'],
        ['Handbook > Sick leave', 'Ten days a year.'],
        ['Other', 'Misc.'],
      ],
    );
  });

  it('cuts long sections at the token limit, overlapping the previous chunk', () => {
    const text = Array.from({ length: 60 }, (_, index) => sentence(index)).join(' ');
    const chunks = chunkBlocks('long', [{ kind: 'text', text }], {
      maxTokens: 100,
      overlapTokens: 20,
    });
    assert.ok(chunks.length >= 6);
    for (const chunk of chunks)
      assert.ok(chunk.tokenCount <= 100 + 5, `${chunk.tokenCount} tokens`);
    for (let index = 1; index < chunks.length; index += 1) {
      const previousLast = (chunks[index - 1]?.text ?? '').split(/(?<=\.)\s+/).at(-1) ?? '';
      assert.ok(
        chunks[index]?.text.startsWith(previousLast),
        'starts with the end of the previous chunk',
      );
    }
    const covered = chunks.map((chunk) => chunk.text).join(' ');
    for (let index = 0; index < 60; index += 1) assert.ok(covered.includes(sentence(index)));
  });

  it('splits a single sentence longer than the limit by tokens', () => {
    const chunks = chunkBlocks('w', [{ kind: 'text', text: 'word '.repeat(1000).trim() }], {
      maxTokens: 120,
      overlapTokens: 0,
    });
    assert.ok(chunks.length >= 8);
    for (const chunk of chunks) assert.ok(countTokens(chunk.text) <= 120);
  });
});
