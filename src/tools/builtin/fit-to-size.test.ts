import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capText, fitToSize } from './fit-to-size.ts';

const render = (kept: string[], omitted: number) => ({ kept, omitted });

describe('fitToSize', () => {
  it('keeps every item when they fit', () => {
    assert.deepEqual(fitToSize(['a', 'b'], render, 100), { kept: ['a', 'b'], omitted: 0 });
  });

  it('drops items from the end until the JSON fits', () => {
    const items = ['x'.repeat(40), 'y'.repeat(40), 'z'.repeat(40)];
    const output = fitToSize(items, render, 120);
    assert.deepEqual(output, { kept: [items[0], items[1]], omitted: 1 });
    assert.ok(JSON.stringify(output).length <= 120);
  });

  it('keeps the first item even when it alone is too large', () => {
    assert.deepEqual(fitToSize(['x'.repeat(500), 'y'], render, 100).omitted, 1);
  });
});

describe('capText', () => {
  it('cuts long text and marks the cut', () => {
    assert.equal(capText('abcdef', 3), 'abc…');
    assert.equal(capText('abc', 3), 'abc');
  });
});
