import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DatasetError } from './errors/dataset-error.ts';
import { parseEvalItem, repeatedIds } from './eval-item.ts';
import type { EvalItem } from './types.ts';

/** A dataset's formats: JSON lines, or CSV with the same column names. */
export type DatasetFormat = 'jsonl' | 'csv';

/** Columns that hold lists in a CSV file: a JSON array, or values separated by `|`. */
const listColumns = new Set(['input', 'expectedTools', 'expectedSources', 'tags']);
const numberColumns = new Set(['maxLatencyMs', 'maxTokens']);

/**
 * Reads a dataset file (`.csv` is CSV, anything else JSON lines). Every bad line is
 * reported at once, each with its number, as a DatasetError.
 * @example const items = await readDataset('evals/seed-scenarios.jsonl');
 */
export async function readDataset(path: string): Promise<EvalItem[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new DatasetError({ source: path, problems: [reason] });
  }
  return parseDataset(text, extname(path).toLowerCase() === '.csv' ? 'csv' : 'jsonl', path);
}

/** Parses a dataset's text (see `readDataset`). */
export function parseDataset(text: string, format: DatasetFormat, source = 'dataset'): EvalItem[] {
  const rows = format === 'csv' ? csvRows(text, source) : jsonlRows(text);
  const problems: string[] = [];
  const items: Array<{ item: EvalItem; where: string }> = [];
  for (const row of rows) {
    const where = `line ${row.line}`;
    if ('problem' in row) {
      problems.push(`${where}: ${row.problem}`);
      continue;
    }
    const parsed = parseEvalItem(row.value, `line-${row.line}`);
    if (parsed.ok) items.push({ item: parsed.item, where });
    else problems.push(...parsed.problems.map((problem) => `${where}: ${problem}`));
  }
  problems.push(...repeatedIds(items));
  if (problems.length === 0 && items.length === 0) problems.push('the dataset has no items');
  if (problems.length > 0) throw new DatasetError({ source, problems });
  return items.map(({ item }) => item);
}

type Row = { line: number; value: unknown } | { line: number; problem: string };

function jsonlRows(text: string): Row[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  return lines.flatMap((content, index): Row[] => {
    if (content.trim() === '') return [];
    const line = index + 1;
    try {
      const value: unknown = JSON.parse(content);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return [{ line, problem: 'expected a JSON object' }];
      }
      return [{ line, value }];
    } catch (error) {
      return [{ line, problem: `not valid JSON (${(error as Error).message})` }];
    }
  });
}

function csvRows(text: string, source: string): Row[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number }; raw: string }>;
  try {
    records = parse(text, {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
    }) as typeof records;
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    throw new DatasetError({
      source,
      problems: [`${lines === undefined ? '' : `line ${lines}: `}${message}`],
    });
  }
  return records.map(({ record, info, raw }) => {
    // info.lines is where the record ends; a quoted cell may span several lines.
    const line = info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0);
    const value: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [column, cell] of Object.entries(record)) {
      if (cell.trim() === '') continue;
      const read = readCell(column, cell);
      if ('problem' in read) problems.push(`${column}: ${read.problem}`);
      else value[column] = read.value;
    }
    return problems.length > 0 ? { line, problem: problems.join('; ') } : { line, value };
  });
}

function readCell(column: string, cell: string): { value: unknown } | { problem: string } {
  const trimmed = cell.trim();
  if (listColumns.has(column)) {
    if (trimmed.startsWith('[')) {
      try {
        return { value: JSON.parse(trimmed) };
      } catch {
        return { problem: 'not a valid JSON array' };
      }
    }
    const values = trimmed.split('|').map((part) => part.trim());
    // A single message stays a string: `input` of one turn.
    return { value: column === 'input' && values.length === 1 ? trimmed : values };
  }
  if (numberColumns.has(column)) {
    const number = Number(trimmed);
    return Number.isFinite(number)
      ? { value: number }
      : { problem: `"${trimmed}" is not a number` };
  }
  if (column === 'longTermMemory') {
    if (/^(true|yes|1)$/i.test(trimmed)) return { value: true };
    if (/^(false|no|0)$/i.test(trimmed)) return { value: false };
    return { problem: `"${trimmed}" is not true or false` };
  }
  if (column === 'metadata') {
    try {
      return { value: JSON.parse(trimmed) };
    } catch {
      return { problem: 'not valid JSON' };
    }
  }
  return { value: column === 'expected' ? cell : trimmed };
}
