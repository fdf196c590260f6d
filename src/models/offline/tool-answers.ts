import { formatNumbersIn } from './language.ts';

/** One tool result as the offline model reads it. */
export interface ToolResultText {
  name: string;
  text: string;
}

type Json = Record<string, unknown>;

/**
 * A sentence for a tool's result, in the user's language: the calculator's equation, the
 * date and time in words, the weather, Wikipedia's first hits, the log count with the
 * newest events, a metric's series. Other tools' results are summarised field by field.
 */
export function answerForResult(result: ToolResultText, korean: boolean): string {
  // Only results that can be JSON are parsed: a failed JSON.parse throws, and throws cost.
  const data = /^\s*[{[]/.test(result.text) ? parseJson(result.text) : undefined;
  switch (result.name) {
    case 'calculator': {
      // "expression = result": only the result gets thousands separators.
      const text = result.text.trim();
      const split = text.lastIndexOf(' = ');
      const equation =
        split === -1
          ? formatNumbersIn(text)
          : `${text.slice(0, split)} = ${formatNumbersIn(text.slice(split + 3))}`;
      return `${equation}${korean ? '입니다.' : '.'}`;
    }
    case 'get_current_datetime':
      return data ? dateAnswer(data, korean) : result.text;
    case 'get_weather':
      return data ? weatherAnswer(data, korean) : result.text;
    case 'query_logs':
      return data ? logsAnswer(data, korean) : result.text;
    case 'search_wikipedia':
      return data ? wikipediaAnswer(data, korean) : result.text;
    default: {
      const summary = compact(data ?? result.text);
      return korean
        ? `${result.name} 결과입니다: ${summary}`
        : `Here is what ${result.name} found: ${summary}`;
    }
  }
}

/** "2026년 11월 24일 화요일 오후 1시 14분입니다 (Asia/Seoul)." */
function dateAnswer(data: Json, korean: boolean): string {
  const date = String(data.date ?? '');
  const time = String(data.time ?? '');
  const zone = String(data.timeZone ?? '');
  const [year, month, day] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  if (!year || !month || !day) return compact(data);
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute));
  const locale = korean ? 'ko-KR' : 'en-US';
  const words = new Intl.DateTimeFormat(locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(instant);
  return korean ? `지금은 ${words}입니다 (${zone}).` : `It is ${words} in ${zone}.`;
}

function weatherAnswer(data: Json, korean: boolean): string {
  const current = (data.current ?? {}) as Json;
  const place = String(data.location ?? '');
  const conditions = String(current.conditions ?? '');
  const temperature = String(current.temperature ?? '');
  const feels = current.feelsLike ? String(current.feelsLike) : undefined;
  const humidity = current.humidity ? String(current.humidity) : undefined;
  if (korean) {
    const details = [feels && `체감 ${feels}`, humidity && `습도 ${humidity}`].filter(Boolean);
    return `${place}의 현재 날씨는 ${conditions}, 기온 ${temperature}${details.length > 0 ? ` (${details.join(', ')})` : ''}입니다.`;
  }
  const details = [feels && `feels like ${feels}`, humidity && `humidity ${humidity}`].filter(
    Boolean,
  );
  return `In ${place} it is ${conditions.toLowerCase()}, ${temperature}${details.length > 0 ? ` (${details.join(', ')})` : ''}.`;
}

/** The count first, then the newest events quoted (the tool counts, never the model). */
function logsAnswer(data: Json, korean: boolean): string {
  const count = Number(data.count ?? 0);
  const events = (Array.isArray(data.events) ? data.events : []) as Json[];
  if (count === 0) {
    return korean ? '조건에 맞는 로그 이벤트가 없습니다 (0건).' : 'No log events match (0 events).';
  }
  const quoted = events.slice(0, 3).map((event) => `- ${eventLine(event)}`);
  const head = korean
    ? `조건에 맞는 로그 이벤트는 ${count}건입니다. 가장 최근 ${quoted.length}건:`
    : `${count} log event${count === 1 ? '' : 's'} match. The newest ${quoted.length}:`;
  return [head, ...quoted].join('\n');
}

function eventLine(event: Json): string {
  const message = String(event.message ?? event.line ?? '').replace(/\s+/g, ' ');
  const short = message.length > 160 ? `${message.slice(0, 159)}…` : message;
  // A plain-text line already starts with its own time and level.
  if (typeof event.timestamp === 'string' && message.includes(event.timestamp)) return short;
  const fields = [
    event.timestamp,
    event.service,
    event.level && String(event.level).toUpperCase(),
    event.status,
  ].filter((field) => field !== undefined && field !== null && field !== '');
  return `${fields.join(' ')} ${short}`.trim();
}

function wikipediaAnswer(data: Json, korean: boolean): string {
  const results = (Array.isArray(data.results) ? data.results : []) as Json[];
  const first = results[0];
  if (first === undefined) {
    return korean ? '위키백과에서 찾은 문서가 없습니다.' : 'Wikipedia has no matching article.';
  }
  const extract = String(first.extract ?? first.snippet ?? '');
  const title = String(first.title ?? '');
  return korean ? `위키백과 「${title}」: ${extract}` : `From Wikipedia, "${title}": ${extract}`;
}

function parseJson(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

function compact(value: unknown): string {
  const rendered =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value)
          .filter(([, field]) => field === null || typeof field !== 'object')
          .map(([key, field]) => `${key}: ${String(field)}`)
          .join(', ')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return rendered.length > 400 ? `${rendered.slice(0, 400)}…` : rendered;
}
