import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatasetError } from './errors/dataset-error.ts';
import { parseDataset } from './read-dataset.ts';

function problemsOf(text: string, format: 'jsonl' | 'csv'): string[] {
  try {
    parseDataset(text, format);
  } catch (error) {
    assert.ok(error instanceof DatasetError);
    return error.problems;
  }
  assert.fail('the dataset was accepted');
}

describe('datasets', () => {
  it('reads JSONL items, single- and multi-turn, skipping blank lines and numbering from 1', () => {
    const items = parseDataset(
      [
        '{"input": "123 * 456 계산해줘", "expected": "56088", "expectedTools": ["calculator"]}',
        '',
        '{"id": "memory", "input": ["내 이름은 철수야", "내 이름이 뭐라고 했지?"], "expected": "철수", "tags": ["memory"]}',
      ].join('\n'),
      'jsonl',
    );
    assert.deepEqual(items, [
      {
        id: 'line-1',
        input: ['123 * 456 계산해줘'],
        expected: '56088',
        expectedTools: ['calculator'],
      },
      {
        id: 'memory',
        input: ['내 이름은 철수야', '내 이름이 뭐라고 했지?'],
        expected: '철수',
        tags: ['memory'],
      },
    ]);
  });

  it('names every bad JSONL line with its number', () => {
    const problems = problemsOf(
      [
        '{"input": "ok"}',
        '{not json',
        '',
        '{"input": ""}',
        '{"input": "x", "expectedTool": ["calculator"]}',
        '[1, 2]',
        '{"expected": "no input"}',
      ].join('\n'),
      'jsonl',
    );
    assert.equal(problems.length, 5);
    assert.match(problems[0] ?? '', /^line 2: not valid JSON/);
    assert.match(problems[1] ?? '', /^line 4: input/);
    assert.match(problems[2] ?? '', /^line 5: .*expectedTool/);
    assert.match(problems[3] ?? '', /^line 6: expected a JSON object/);
    assert.match(problems[4] ?? '', /^line 7: input/);
  });

  it('refuses a repeated id and an empty dataset', () => {
    assert.deepEqual(problemsOf('{"id":"a","input":"x"}\n{"id":"a","input":"y"}', 'jsonl'), [
      'line 2: id "a" is already used by line 1',
    ]);
    assert.deepEqual(problemsOf('\n\n', 'jsonl'), ['the dataset has no items']);
  });

  it('reads CSV with the same columns: lists as JSON arrays or separated by |', () => {
    const items = parseDataset(
      [
        'id,input,expected,expectedTools,tags,maxLatencyMs',
        'calc,123 * 456 계산해줘,"56,088",calculator,math|tools,5000',
        'turns,"[""내 이름은 철수야"", ""내 이름이 뭐라고 했지?""]",철수,,,',
        '',
        'multi,"first line',
        'second line",,"[""a"",""b""]",,',
      ].join('\n'),
      'csv',
    );
    assert.deepEqual(items, [
      {
        id: 'calc',
        input: ['123 * 456 계산해줘'],
        expected: '56,088',
        expectedTools: ['calculator'],
        tags: ['math', 'tools'],
        maxLatencyMs: 5000,
      },
      { id: 'turns', input: ['내 이름은 철수야', '내 이름이 뭐라고 했지?'], expected: '철수' },
      { id: 'multi', input: ['first line\nsecond line'], expectedTools: ['a', 'b'] },
    ]);
  });

  it('names bad CSV rows by the line they start on', () => {
    const problems = problemsOf(
      ['input,maxTokens,colour', 'hello,10,', '"two', 'lines",many,', ',5,red'].join('\n'),
      'csv',
    );
    assert.deepEqual(problems, [
      'line 3: maxTokens: "many" is not a number',
      'line 5: input: is required: a message, or an array of messages (one per turn)',
      'line 5: Unrecognized key: "colour"',
    ]);
  });
});
