import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CpuProfile, topSelfTime } from '../bench/lib/cpu-profile-top.ts';

const frame = (functionName: string, url: string, lineNumber: number) => ({
  functionName,
  url,
  lineNumber,
});

// Node 1 is the root; 2 and 3 are the same function reached by two call paths; 4 another.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '', -1) },
    { id: 2, callFrame: frame('appendEntry', 'file:///repo/src/graph/append.ts', 9) },
    { id: 3, callFrame: frame('appendEntry', 'file:///repo/src/graph/append.ts', 9) },
    { id: 4, callFrame: frame('postJsonToApi', 'file:///repo/node_modules/ai/dist/index.js', 99) },
  ],
  startTime: 1_000,
  endTime: 2_000,
  // Sample i lasts until sample i + 1: 2 → 100 µs, 3 → 300 µs, 4 → 400 µs, 2 → 200 µs.
  samples: [2, 3, 4, 2, 4],
  timeDeltas: [0, 100, 300, 400, 200],
};

describe('the CPU profile summary of bench/invoke-profile.ts', () => {
  it('sums self time per function across call paths, weighing each sample by its gap', () => {
    const top = topSelfTime(profile, 10);
    assert.deepEqual(
      top.map((entry) => [entry.functionName, entry.location, entry.selfMs, entry.percent]),
      [
        ['appendEntry', 'src/graph/append.ts:10', 0.6, 60],
        ['postJsonToApi', 'ai/dist/index.js:100', 0.4, 40],
      ],
    );
  });

  it('keeps only the samples inside the window and only the asked count', () => {
    // Timestamps: 1 000, 1 100, 1 400, 1 800, 2 000; the window holds the 2nd and 3rd.
    const top = topSelfTime(profile, 1, { fromMicroseconds: 1_050, toMicroseconds: 1_500 });
    assert.deepEqual(
      top.map((entry) => [entry.functionName, entry.selfMs, entry.percent]),
      [['postJsonToApi', 0.4, 57.14]],
    );
  });
});
