import { z } from 'zod';
import { capText, fitToSize } from '../fit-to-size.ts';

const maxSeries = 20;
const sample = z.tuple([z.number(), z.string()]);
const histogram = z.tuple([z.number(), z.object({ count: z.string(), sum: z.string() })]);
const seriesLabels = z.record(z.string(), z.string());

/** The success body of Prometheus's `/api/v1/query` and `/api/v1/query_range`. */
export const prometheusAnswerSchema = z.object({
  status: z.literal('success'),
  data: z.discriminatedUnion('resultType', [
    z.object({
      resultType: z.literal('vector'),
      result: z.array(
        z.object({
          metric: seriesLabels,
          value: sample.optional(),
          histogram: histogram.optional(),
        }),
      ),
    }),
    z.object({
      resultType: z.literal('matrix'),
      result: z.array(
        z.object({
          metric: seriesLabels,
          values: z.array(sample).optional(),
          histograms: z.array(histogram).optional(),
        }),
      ),
    }),
    z.object({ resultType: z.literal('scalar'), result: sample }),
    z.object({ resultType: z.literal('string'), result: sample }),
  ]),
  warnings: z.array(z.string()).optional(),
});

/** A parsed Prometheus answer. */
export type PrometheusAnswer = z.infer<typeof prometheusAnswerSchema>;
type Sample = [number, string];
type HistogramSample = [number, { count: string; sum: string }];

/**
 * A query result as the model sees it: the result type; for a vector each series' labels and
 * value; for a matrix each series' labels, number of points, last (with its time), min and max;
 * at most 20 series and about `maxChars` characters, with how many were left out.
 * @example summarisePrometheusAnswer(answer, { start, end, step: '18s' }, 5_800)
 */
export function summarisePrometheusAnswer(
  answer: PrometheusAnswer,
  range: { start: string; end: string; step: string } | undefined,
  maxChars: number,
) {
  const { data } = answer;
  const warnings = answer.warnings?.length
    ? { warnings: answer.warnings.slice(0, 3).map((text) => capText(text, 200)) }
    : {};
  if (data.resultType === 'scalar' || data.resultType === 'string') {
    const [at, value] = data.result;
    return { resultType: data.resultType, time: isoOf(at), value: readValue(value), ...warnings };
  }
  const series: Array<Record<string, unknown>> =
    data.resultType === 'vector'
      ? data.result.map((entry) => ({ labels: labelsOf(entry.metric), ...instantValue(entry) }))
      : data.result.map((entry) => ({ labels: labelsOf(entry.metric), ...rangeSummary(entry) }));
  const firstSample = data.resultType === 'vector' ? data.result[0]?.value : undefined;
  const render = (kept: Array<Record<string, unknown>>, omitted: number) => ({
    resultType: data.resultType,
    ...(firstSample ? { time: isoOf(firstSample[0]) } : {}),
    ...range,
    seriesCount: series.length,
    series: kept,
    ...(omitted > 0
      ? { omitted: `${omitted} more series left out; narrow the query (e.g. topk or sum by)` }
      : {}),
    ...warnings,
  });
  const first = series.slice(0, maxSeries);
  if (first.length === 0) return render([], 0);
  const beyond = series.length - first.length;
  return fitToSize(first, (kept, omitted) => render(kept, omitted + beyond), maxChars);
}

function instantValue(entry: {
  value?: Sample | undefined;
  histogram?: HistogramSample | undefined;
}) {
  if (entry.value) return { value: readValue(entry.value[1]) };
  if (entry.histogram) {
    const [, { count, sum }] = entry.histogram;
    return { histogramCount: readValue(count), histogramSum: readValue(sum) };
  }
  return {};
}

/** Native-histogram series are summarised by their observation count. */
function rangeSummary(entry: {
  values?: Sample[] | undefined;
  histograms?: HistogramSample[] | undefined;
}) {
  const points: Sample[] =
    entry.values ?? (entry.histograms ?? []).map(([at, value]): Sample => [at, value.count]);
  const numbers = points.map(([, value]) => Number(value)).filter(Number.isFinite);
  const last = points.at(-1);
  return {
    points: points.length,
    ...(last ? { last: readValue(last[1]), lastAt: isoOf(last[0]) } : {}),
    ...(numbers.length > 0
      ? {
          min: numbers.reduce((a, b) => Math.min(a, b)),
          max: numbers.reduce((a, b) => Math.max(a, b)),
        }
      : {}),
    ...(entry.values === undefined && entry.histograms ? { of: 'histogram count' } : {}),
  };
}

/** Label values cut at 120 characters, at most 25 labels. */
function labelsOf(metric: Record<string, string>): Record<string, string> {
  const entries = Object.entries(metric).slice(0, 25);
  return Object.fromEntries(entries.map(([name, value]) => [name, capText(value, 120)]));
}

/** A sample value as a number; NaN and ±Inf, which JSON cannot hold, as Prometheus writes them. */
function readValue(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

/** A Prometheus time (Unix seconds, fractional) as ISO 8601. */
export function isoOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}
