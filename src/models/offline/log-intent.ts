/** A `query_logs` request the offline model read in a question. */
export type LogQueryIntent = {
  service?: string;
  level?: string;
  status?: number | string;
  contains?: string;
  since?: string;
};

/** Service names as people write them: `payment-service`, `card_gateway`, `order-service`. */
const servicePattern = /\b([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)\b/i;
const logWords =
  /로그|에러|오류|장애|경고|예외|타임아웃|\blogs?\b|\berrors?\b|\bwarnings?\b|exceptions?|timeouts?/i;
const errorWords = /에러|오류|장애|예외|\berrors?\b|\bfail(?:ed|ures?)?\b|exceptions?/i;
const warnWords = /경고|\bwarn(?:ings?)?\b/i;

/** Whether a question asks about the logs or errors of a named service. */
export function isLogQuestion(text: string): boolean {
  return logWords.test(text) && servicePattern.test(text);
}

/**
 * Reads a log question ("payment-service에서 500 에러 로그 보여줘", "order-service 에러 몇
 * 건이야?", "card-gateway 로그에서 timeout 찾아줘", "how many errors did order-service log
 * in the last hour?"): the service it names, the HTTP status (500, 5xx), the level (error
 * when it asks for errors without a status), the text to find, and how far back to look.
 * Undefined unless the question is about logs or errors of a named service.
 */
export function findLogQuery(text: string): LogQueryIntent | undefined {
  if (!isLogQuestion(text)) return undefined;
  const service = servicePattern.exec(text)?.[1]?.toLowerCase();
  if (service === undefined) return undefined;
  const intent: LogQueryIntent = { service };
  const status = /\b([1-5](?:\d\d|xx))\b/i.exec(text.replace(servicePattern, ' '))?.[1];
  if (status) intent.status = /xx$/i.test(status) ? status.toLowerCase() : Number(status);
  else if (errorWords.test(text)) intent.level = 'error';
  else if (warnWords.test(text)) intent.level = 'warn';
  const contains = containedText(text.replace(servicePattern, ' '));
  if (contains) intent.contains = contains;
  const since = sinceOf(text);
  if (since) intent.since = since;
  return intent;
}

/** "timeout 찾아줘", "'connection reset' 검색", "find timeout", "containing refused". */
function containedText(text: string): string | undefined {
  const quoted = /["'“‘]([^"'”’]{1,100})["'”’]/.exec(text)?.[1];
  if (quoted) return quoted.trim();
  const korean = /([A-Za-z][\w.:-]*|[가-힣]{2,})\s*(?:을|를|이|가)?\s*(?:찾아|검색|포함)/.exec(
    text,
  )?.[1];
  if (korean && !/^(?:로그|에러|오류|logs?)$/i.test(korean)) return korean;
  const english =
    /\b(?:find|search(?:\s+for)?|containing|with)\s+(?!the\b|logs?\b|errors?\b)([\w.:-]+)/i.exec(
      text,
    )?.[1];
  return english ?? undefined;
}

/** "최근 1시간", "지난 30분", "last 2 hours", "past day" → `1h`, `30m`, `2h`, `1d`. */
function sinceOf(text: string): string | undefined {
  const korean = /(?:최근|지난)\s*(\d+)\s*(분|시간|일)/.exec(text);
  if (korean) return `${korean[1]}${{ 분: 'm', 시간: 'h', 일: 'd' }[korean[2] as '분']}`;
  const english = /\b(?:last|past)\s+(\d+\s+)?(minutes?|hours?|days?)\b/i.exec(text);
  if (english) {
    const amount = english[1]?.trim() ?? '1';
    return `${amount}${(english[2] as string)[0]?.toLowerCase() === 'm' ? 'm' : (english[2] as string)[0]?.toLowerCase()}`;
  }
  return undefined;
}
