import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { ToolRequestError } from '../errors/tool-request-error.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';
import { capText } from './fit-to-size.ts';
import { InvalidTimeRangeError } from './logs/errors/invalid-time-range-error.ts';
import { parseDuration, readTime, timeInputSchema } from './logs/parse-time.ts';
import { baseUrlWithAuth } from './logs/remote-context.ts';
import {
  prometheusAnswerSchema,
  summarisePrometheusAnswer,
} from './metrics/summarise-prometheus-answer.ts';
import { parseAnswer } from './parse-answer.ts';
import { statusError } from './status-error.ts';

const service = 'Prometheus';
const targetPoints = 200;
/** Prometheus refuses range queries of more points per series than this. */
const maxPoints = 11_000;
const defaultRangeMs = 3_600_000;
const maxResultChars = 6_000;

const stepSchema = z.union([
  z.number().positive().max(31_536_000),
  z
    .string()
    .trim()
    .superRefine((text, context) => {
      const parsed = parseDuration(text);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.problem });
    }),
]);

/**
 * `query_metrics` (an ops tool): a PromQL query against `YEOUL_PROMETHEUS_URL` — instant
 * without `start`/`end`, a range query otherwise (step chosen for about 200 points unless
 * given) — summarised for the model: the result type, each series' labels and its value (or
 * last, min and max over the range), at most 20 series with the rest counted.
 * @example
 * await executor.execute({ id: 'c1', name: 'query_metrics', args: { query: 'up', start: '1h' } });
 */
export const queryMetricsTool = defineTool({
  name: 'query_metrics',
  description:
    'Runs a PromQL query on Prometheus. Without start/end it is an instant query (the value now); ' +
    'with them a range query, summarised per series as last, min and max. start/end: ISO time or ' +
    'a duration ago (1h, 30m); step: a duration such as 1m (chosen for you by default).',
  inputSchema: z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(4_000)
      .describe('PromQL, e.g. rate(http_requests_total{status="500"}[5m])'),
    start: timeInputSchema
      .optional()
      .describe('Range start: ISO 8601 or a duration ago such as 1h'),
    end: timeInputSchema.optional().describe('Range end: ISO 8601 or a duration ago (default now)'),
    step: stepSchema
      .optional()
      .describe('Range resolution: a duration such as 30s or 1m, or seconds'),
  }),
  maxResultChars,
  timeoutMs: 20_000,
  isAvailable: (env) => Boolean(env.prometheusUrl),
  execute: async (input, context) => {
    const { root, headers, secrets } = baseUrlWithAuth(context.env.prometheusUrl ?? '');
    const now = context.env.now();
    const isRange = input.start !== undefined || input.end !== undefined;
    let params: Record<string, string> = { query: input.query };
    let range: { start: string; end: string; step: string } | undefined;
    if (isRange) {
      const end = input.end === undefined ? now : readTime(input.end, now);
      const start =
        input.start === undefined
          ? new Date(end.getTime() - defaultRangeMs)
          : readTime(input.start, now);
      if (start.getTime() >= end.getTime()) {
        throw new InvalidTimeRangeError({ fromName: 'start', from: start, toName: 'end', to: end });
      }
      const stepSeconds = chooseStep(input.step, end.getTime() - start.getTime());
      params = { ...params, start: seconds(start), end: seconds(end), step: String(stepSeconds) };
      range = { start: start.toISOString(), end: end.toISOString(), step: `${stepSeconds}s` };
    }
    const path = isRange ? '/api/v1/query_range' : '/api/v1/query';
    const url = endpointUrl(service, `${root}${path}`, params);
    const raw = await fetchJson(
      { service, url, headers, secrets, maxBytes: 16 * 1024 * 1024, explainStatus },
      context,
    );
    const answer = parseAnswer(service, prometheusAnswerSchema, raw);
    return summarisePrometheusAnswer(answer, range, maxResultChars - 200);
  },
});

function chooseStep(step: number | string | undefined, rangeMs: number): number {
  if (step === undefined) return Math.max(1, Math.ceil(rangeMs / 1000 / targetPoints));
  const stepSeconds =
    typeof step === 'number' ? step : (parseDuration(step) as { value: number }).value / 1000;
  const points = Math.floor(rangeMs / 1000 / stepSeconds) + 1;
  if (points > maxPoints) {
    throw new ToolRequestError({
      service,
      problem: `would return ${points} points per series, more than the ${maxPoints} it allows`,
      hint: 'use a larger step, or leave it out to have one chosen',
    });
  }
  return stepSeconds;
}

const seconds = (time: Date) => String(time.getTime() / 1000);

/** Prometheus errors are `{status: "error", errorType, error}`: bad_data, execution, timeout, … */
function explainStatus(status: number, body: unknown): ToolRequestError {
  const { errorType, error } = (body ?? {}) as { errorType?: unknown; error?: unknown };
  const detail = typeof error === 'string' ? capText(error, 300) : '';
  if (errorType === 'bad_data') {
    const hint = 'fix the PromQL (metric names, label matchers, brackets) and try again';
    return new ToolRequestError({ service, problem: 'rejected the query', status, detail, hint });
  }
  if (errorType === 'timeout' || errorType === 'canceled') {
    const hint = 'narrow the query (fewer series, a shorter range, a larger step)';
    return new ToolRequestError({
      service,
      problem: 'gave up on the query (timeout)',
      status,
      detail,
      hint,
    });
  }
  if (errorType === 'execution') {
    const hint = 'narrow or rewrite the query';
    return new ToolRequestError({
      service,
      problem: 'could not run the query',
      status,
      detail,
      hint,
    });
  }
  return statusError(service, status, detail);
}
