import { quantitiesIn } from './read-numbers.ts';

/** What an attempt's tool results establish, for checking the numbers an answer states. */
export interface ToolFacts {
  /** The `count` of every log search (`{count, events}`): what matched, counted by the tool. */
  counts: number[];
  /** How many events each log search listed. */
  listed: number[];
  /** Counts by status, level and service of log searches that listed all they matched. */
  tallies: number[];
  /** Every quantity the results state: fields other than times and ids, and numbers in their text. */
  quantities: Set<number>;
  /** HTTP statuses the results record. */
  statuses: Set<number>;
  /** Titles of the documents the results name (search_knowledge passages). */
  titles: string[];
  /** The results' text, for finding quoted passages. */
  texts: string[];
}

/** Keys whose values identify or date something: their digits are never quantities. */
const referenceKey =
  /(?:^|[_.-])(?:id|ids|uuid|guid|txn|trace|span|timestamp|time|ts|date|datetime|at|created|updated|port|version)$|(?:Id|Ids|At|Time|Timestamp|Date|Port|Version)$/;

type Json = unknown;

/**
 * Reads the tool results of one attempt. A result that parses as JSON is read field by
 * field — a log search's `count` and events, quantities from fields that are not times
 * or ids — so that digits inside timestamps and ids never pass for quantities; other
 * results are read as text with those references blanked out.
 * @example readToolFacts(['{"count":17,"events":[…]}']).counts // [17]
 */
export function readToolFacts(results: string[]): ToolFacts {
  const facts: ToolFacts = {
    counts: [],
    listed: [],
    tallies: [],
    quantities: new Set(),
    statuses: new Set(),
    titles: [],
    texts: results,
  };
  for (const result of results) {
    const parsed = parseJson(result);
    if (parsed === undefined) {
      for (const quantity of quantitiesIn(result)) facts.quantities.add(quantity);
    } else {
      walk(parsed, '', facts);
    }
  }
  return facts;
}

function walk(value: Json, key: string, facts: ToolFacts): void {
  if (typeof value === 'number') {
    if (referenceKey.test(key)) return;
    facts.quantities.add(value);
    if (key === 'status' && Number.isInteger(value) && value >= 100 && value < 600)
      facts.statuses.add(value);
    return;
  }
  if (typeof value === 'string') {
    if (referenceKey.test(key)) return;
    if (key === 'title' && value.trim()) facts.titles.push(value.trim());
    for (const quantity of quantitiesIn(value)) facts.quantities.add(quantity);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, key, facts);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, Json>;
  if (typeof record.count === 'number' && Array.isArray(record.events)) {
    readLogSearch(record.count, record.events, facts);
  }
  for (const [field, nested] of Object.entries(record)) walk(nested, field, facts);
}

/** A log search: its count, how many events it listed, and tallies when it listed them all. */
function readLogSearch(count: number, events: Json[], facts: ToolFacts): void {
  facts.counts.push(count);
  facts.listed.push(events.length);
  if (events.length !== count) return;
  for (const field of ['status', 'level', 'service']) {
    const tally = new Map<string, number>();
    for (const event of events) {
      const value = (event as Record<string, Json> | null)?.[field];
      if (value === undefined || value === null) continue;
      const name = String(value).toLowerCase();
      tally.set(name, (tally.get(name) ?? 0) + 1);
    }
    facts.tallies.push(...tally.values());
  }
}

function parseJson(text: string): Json | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed) as Json;
  } catch {
    return undefined;
  }
}
