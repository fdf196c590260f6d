import type { ScheduleBody, ScheduleView } from '../../schedules/index.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import type { CliIo } from '../io.ts';
import { withRuntime } from '../open-runtime.ts';
import {
  ownerChoice,
  ownerDetails,
  ownerOptions,
  ownerSynopsis,
  resolveOwner,
} from '../owner-options.ts';
import { choiceOption, dataOption, parseCommandArgs } from '../parse-command-args.ts';

const actions = ['list', 'add', 'delete', 'pause', 'resume'] as const;
const previewLength = 60;

/**
 * `yeoul schedules list|add|delete|pause|resume …`: one owner's schedules, in the store a
 * `yeoul serve` fires them from (it picks up these changes within seconds). Never fires one.
 */
export const schedulesCommand = defineCommand({
  name: 'schedules',
  summary: 'list, add, delete, pause or resume schedules (one owner)',
  usage: [
    `schedules [list] [--json] ${ownerSynopsis} [--data DIR]`,
    'schedules add --cron EXPR --message TEXT [--timezone TZ] [--graph NAME] [--session ID]',
    '              [--webhook URL] [--on-busy MODE] [--name NAME] [--paused] [--json]',
    `schedules delete|pause|resume ID ${ownerSynopsis}`,
  ],
  details: [
    'list         one line per schedule: id, enabled or paused, cron, timezone, next run, message',
    'add          a new schedule; prints its id (--json: the schedule)',
    'delete ID    remove a schedule (its runs stay listed)',
    'pause ID     stop firing it (nothing is caught up on resume)',
    'resume ID    fire it again from its next slot',
    '--cron       5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first)',
    '--timezone   an IANA time zone (default UTC)',
    '--on-busy    enqueue (default), reject, interrupt or rollback',
    ...ownerDetails,
    'An unknown id (or another owner’s) exits 1; a bad cron, timezone, session id or webhook',
    'exits 2. It may run beside a `yeoul serve` on the same data (or DATABASE_URL).',
  ],
  example:
    "schedules add --cron '0 9 * * MON-FRI' --timezone Asia/Seoul --message 'the daily report'",
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'schedules',
      args,
      {
        ...dataOption,
        ...ownerOptions,
        json: { type: 'boolean' },
        cron: { type: 'string' },
        message: { type: 'string' },
        timezone: { type: 'string' },
        graph: { type: 'string' },
        session: { type: 'string' },
        webhook: { type: 'string' },
        'on-busy': { type: 'string' },
        name: { type: 'string' },
        paused: { type: 'boolean' },
      },
      { min: 0, max: 2, names: 'ID' },
    );
    const action = choiceOption('schedules', 'the action', positionals[0], actions) ?? 'list';
    const id = positionals[1];
    if ((action === 'list' || action === 'add') && id !== undefined) {
      throw new UsageError({ problem: `unexpected argument "${id}"`, command: 'schedules' });
    }
    if (action !== 'list' && action !== 'add' && id === undefined) {
      throw new UsageError({
        problem: `missing ID (schedules ${action} ID)`,
        command: 'schedules',
      });
    }
    const body = action === 'add' ? await addBody(values) : undefined;
    const acting = await ownerChoice('schedules', values);
    const json = values.json === true;
    return withRuntime(
      io.env,
      { dataDir: values.data },
      async (runtime) => {
        const owner = await resolveOwner(
          runtime,
          acting,
          action === 'list' ? 'yeoul:read' : 'yeoul:write',
        );
        const { newScheduleOf, scheduleUpdateOf, scheduleView } = await import(
          '../../schedules/index.ts'
        );
        const store = runtime.schedules;
        if (action === 'list') {
          const schedules = (await store.list(owner)).map(scheduleView);
          if (json) io.stdout.write(`${JSON.stringify({ schedules }, null, 2)}\n`);
          else if (schedules.length === 0) io.stdout.write('No schedules.\n');
          else for (const schedule of schedules) io.stdout.write(`${scheduleLine(schedule)}\n`);
          return 0;
        }
        if (action === 'add' && body !== undefined) {
          if (body.sessionId !== undefined) {
            const holder = await runtime.sessions.ownerOf(body.sessionId);
            if (holder !== undefined && holder !== owner) {
              io.stderr.write(`yeoul: there is no session "${body.sessionId}"\n`);
              return 1;
            }
          }
          const { defaultGraphName } = await import('../../agents/index.ts');
          const made = await store.create(
            newScheduleOf(owner, body, { now: Date.now(), defaultGraph: defaultGraphName }),
          );
          io.stdout.write(
            json ? `${JSON.stringify(scheduleView(made), null, 2)}\n` : `${made.id}\n`,
          );
          return 0;
        }
        const scheduleId = id as string;
        const existing = await store.get(scheduleId, owner);
        if (existing === undefined) return unknown(io, scheduleId);
        if (action === 'delete') {
          if (!(await store.delete(scheduleId, owner))) return unknown(io, scheduleId);
          io.stdout.write(`deleted schedule ${scheduleId}\n`);
          return 0;
        }
        const outcome = scheduleUpdateOf(existing, { enabled: action === 'resume' }, Date.now());
        if ('problems' in outcome) {
          throw new UsageError({ problem: outcome.problems.join('; '), command: 'schedules' });
        }
        const changed = await store.update(scheduleId, owner, outcome.update);
        if (changed === undefined) return unknown(io, scheduleId);
        io.stdout.write(`${action === 'pause' ? 'paused' : 'resumed'} schedule ${scheduleId}\n`);
        return 0;
      },
      { agents: false },
    );
  },
});

type AddValues = Record<string, string | boolean | undefined>;

/** The `add` options as a schedule body, checked as the API checks it (a problem is bad usage). */
async function addBody(values: AddValues): Promise<ScheduleBody> {
  const text = (name: string) => values[name] as string | undefined;
  const missing = ['cron', 'message'].filter((name) => text(name) === undefined);
  if (missing.length > 0) {
    const names = missing.map((name) => `--${name}`).join(' and ');
    throw new UsageError({ problem: `schedules add needs ${names}`, command: 'schedules' });
  }
  const webhook = text('webhook');
  if (webhook !== undefined && !/^https?:$/.test(URL.parse(webhook)?.protocol ?? '')) {
    throw new UsageError({
      problem: `--webhook must be an http: or https: URL, not "${webhook}"`,
      command: 'schedules',
    });
  }
  const candidate = Object.fromEntries(
    Object.entries({
      cron: text('cron'),
      message: text('message'),
      timezone: text('timezone'),
      graph: text('graph'),
      sessionId: text('session'),
      webhook,
      onBusy: text('on-busy'),
      name: text('name'),
      enabled: values.paused === true ? false : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  const { scheduleBody } = await import('../../schedules/index.ts');
  const parsed = scheduleBody.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const option: Record<string, string> = { sessionId: 'session', onBusy: 'on-busy' };
  const problems = parsed.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    return `--${option[field] ?? field}: ${issue.message}`;
  });
  throw new UsageError({ problem: problems.join('; '), command: 'schedules' });
}

/** One schedule in a line: id, enabled or paused, cron, timezone, next run, message. */
function scheduleLine(schedule: ScheduleView): string {
  const message = schedule.message.replace(/\s+/g, ' ');
  const preview =
    message.length > previewLength ? `${message.slice(0, previewLength - 1)}…` : message;
  return [
    schedule.id,
    schedule.enabled ? 'enabled' : 'paused',
    schedule.cron,
    schedule.timezone,
    schedule.nextRunAt ?? '-',
    preview,
  ].join('  ');
}

function unknown(io: CliIo, id: string): number {
  io.stderr.write(`yeoul: there is no schedule "${id}"\n`);
  return 1;
}
