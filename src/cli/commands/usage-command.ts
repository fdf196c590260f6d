import type { EveryOwnersUsage, UsageReport, UsageTotals } from '../../identity/index.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { withRuntime } from '../open-runtime.ts';
import {
  namesOwner,
  ownerChoice,
  ownerDetails,
  ownerOptions,
  ownerSynopsis,
  resolveOwner,
} from '../owner-options.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

const columns = ['requests', 'llm calls', 'input tokens', 'output tokens'];

/** `yeoul usage`: run requests, model calls and tokens per owner and UTC day, with the limits. */
export const usageCommand = defineCommand({
  name: 'usage',
  summary: 'per-owner usage: run requests, model calls and tokens, and the limits',
  usage: [`usage [--from DATE] [--to DATE] ${ownerSynopsis} [--json] [--data DIR]`],
  details: [
    '--from DATE    first day, YYYY-MM-DD (UTC); default 29 days before --to',
    '--to DATE      last day, YYYY-MM-DD (UTC); default today (at most 366 days in all)',
    ...ownerDetails.slice(0, 3),
    '--json         print the body of GET /api/usage (without an owner: of owner=*)',
    'Without an owner option: every owner’s totals; with one, that owner’s days, limits and',
    'what is left. It may run beside a `yeoul serve` on the same data folder or DATABASE_URL.',
  ],
  example: 'usage --from 2025-03-01 --owner anonymous',
  async run(args, io) {
    const { values } = parseCommandArgs(
      'usage',
      args,
      {
        ...dataOption,
        from: { type: 'string' },
        to: { type: 'string' },
        ...ownerOptions,
        json: { type: 'boolean' },
      },
      { min: 0, max: 0, names: 'nothing' },
    );
    const choice = namesOwner(values) ? await ownerChoice('usage', values) : undefined;
    const { parseUsageRange } = await import('../../identity/index.ts');
    const range = parseUsageRange({ from: values.from, to: values.to }, new Date());
    if (!range.ok) throw new UsageError({ problem: `--${range.message}`, command: 'usage' });
    const body = await withRuntime<EveryOwnersUsage | UsageReport>(
      io.env,
      { dataDir: values.data, config: values.config },
      async (runtime) =>
        choice === undefined
          ? runtime.usage.everyOwner(range)
          : runtime.usage.report(await resolveOwner(runtime, choice, 'yeoul:read'), range),
      { agents: false },
    );
    if (values.json) io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else io.stdout.write('owners' in body ? ownersTable(body) : ownerTable(body));
    return 0;
  },
});

/** Every owner's totals, one row each. */
function ownersTable(body: EveryOwnersUsage): string {
  if (body.owners.length === 0) return `No usage from ${body.from} to ${body.to} (UTC).\n`;
  return table(
    `Usage from ${body.from} to ${body.to} (UTC)`,
    ['owner', ...columns],
    body.owners.map((entry) => [entry.owner, ...numbers(entry.total)]),
  );
}

/** One owner's days, total, limits and what is left. */
function ownerTable(body: UsageReport): string {
  const { limits, remaining } = body;
  const setting = (value: number | null, left: number | null, when: string) =>
    value === null ? 'no limit' : `${value}${left === null ? '' : ` (${left} left ${when})`}`;
  const limitLines = [
    `run requests per minute: ${setting(limits.requestsPerMinute, null, '')}`,
    `tokens per UTC day: ${setting(limits.tokensPerDay, remaining.tokensToday, 'today')}`,
    `tokens per UTC month: ${setting(limits.tokensPerMonth, remaining.tokensThisMonth, 'this month')}`,
  ];

  const title = `Usage of ${body.owner} from ${body.from} to ${body.to} (UTC)`;
  const days =
    body.days.length === 0
      ? `${title}\nNo usage.\n`
      : table(
          title,
          ['date', ...columns],
          [
            ...body.days.map((day) => [day.date, ...numbers(day)]),
            ['total', ...numbers(body.total)],
          ],
        );
  return `${days}${limitLines.join('\n')}\n`;
}

function numbers(totals: UsageTotals): string[] {
  return [totals.requests, totals.llmCalls, totals.inputTokens, totals.outputTokens].map(String);
}

/** A title, then columns padded to their widest cell (the first left-aligned, numbers right). */
function table(title: string, header: string[], rows: string[][]): string {
  const widths = header.map((name, index) =>
    Math.max(name.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return `${[title, line(header), ...rows.map(line)].join('\n')}\n`;
}
