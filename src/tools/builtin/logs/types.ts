/** One log event as every source returns it; fields other than these are kept as they were. */
export interface LogEvent {
  /** ISO 8601 time; absent for a plain-text line with no leading timestamp. */
  timestamp?: string;
  level?: string;
  service?: string;
  /** The HTTP status the event records, when it records one. */
  status?: number;
  message: string;
  [field: string]: unknown;
}

/** An HTTP status filter: one code (`from === to`) or a class such as 5xx (500–599). */
export interface StatusRange {
  from: number;
  to: number;
}

/** What to look for; every field given must match (AND). */
export interface LogQuery {
  /** Service name, matched case-insensitively. */
  service?: string;
  /** Level (`error`, `warn`, …), matched case-insensitively; `warning` and `warn` are one level. */
  level?: string;
  status?: StatusRange;
  /** Text the message (for plain-text lines: the line) contains, case-insensitively. */
  contains?: string;
  /** Events at or after this time. */
  since?: Date;
  /** Events before this time. */
  until?: Date;
  /** Most events to return (the count is never limited). */
  limit: number;
}

/** What a source found: the number of all matching events and the newest `limit` of them. */
export interface LogQueryResult {
  count: number;
  /** Newest first, at most `limit`. */
  events: LogEvent[];
}

/** Where `query_logs` reads: a folder of files, Loki, CloudWatch Logs or Datadog. */
export interface LogSource {
  /** Names the back end in tool output and errors (`files in ./data/logs`, `Loki`). */
  readonly name: string;
  /** Counts every matching event and returns the newest `limit`; rejects when the back end fails. */
  query(query: LogQuery, options: { signal: AbortSignal }): Promise<LogQueryResult>;
}
