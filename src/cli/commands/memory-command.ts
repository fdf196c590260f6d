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
import {
  choiceOption,
  dataOption,
  integerOption,
  parseCommandArgs,
} from '../parse-command-args.ts';

const actions = ['list', 'get', 'put', 'delete'] as const;

/** How many positional arguments each action takes after its name. */
const arity: Record<(typeof actions)[number], { count: number; names: string }> = {
  list: { count: 0, names: '' },
  get: { count: 2, names: 'NAMESPACE KEY' },
  put: { count: 3, names: 'NAMESPACE KEY JSON' },
  delete: { count: 2, names: 'NAMESPACE KEY' },
};

/** `yeoul memory list|get|put|delete …`: the long-term memory store of one owner. */
export const memoryCommand = defineCommand({
  name: 'memory',
  summary: 'list, read, store or delete long-term memory items (one owner)',
  usage: [
    `memory list [--prefix P] [--query Q] [--limit N] ${ownerSynopsis} [--json] [--data DIR]`,
    `memory get NAMESPACE KEY ${ownerSynopsis} [--json]`,
    `memory put NAMESPACE KEY JSON ${ownerSynopsis} [--json]`,
    `memory delete NAMESPACE KEY ${ownerSynopsis}`,
  ],
  details: [
    'list         the items, newest first (best first with --query; --limit default 20, at most 100)',
    'get          one item (exit 1 when absent)',
    'put          store a JSON value (at most 65,536 bytes as JSON)',
    'delete       remove an item (exit 1 when absent)',
    ...ownerDetails,
    '--json       print JSON (the item, or {items})',
    'NAMESPACE is 1–8 segments of [A-Za-z0-9_.:-]{1,64} joined by /; KEY follows the session id rule.',
    'It may run beside a `yeoul serve` on the same data folder, which sees its writes at once.',
  ],
  example: 'memory put profile name \'"철수"\'',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'memory',
      args,
      {
        ...dataOption,
        ...ownerOptions,
        json: { type: 'boolean' },
        prefix: { type: 'string' },
        query: { type: 'string' },
        limit: { type: 'string' },
      },
      { min: 1, max: 4, names: 'an action (list, get, put or delete)' },
    );
    const action = choiceOption('memory', 'the action', positionals[0], actions) ?? 'list';
    const rest = positionals.slice(1);
    const expected = arity[action];
    if (rest.length !== expected.count) {
      throw new UsageError({
        problem: `memory ${action} takes ${expected.count === 0 ? 'no arguments' : expected.names}`,
        command: 'memory',
      });
    }
    const limit = integerOption('memory', '--limit', values.limit, { min: 1, max: 100 });
    const [namespace = '', key = '', text = ''] = rest;
    const value = action === 'put' ? parseJson(text) : undefined;
    const { checkMemoryNames } = await import('../../memory-store/index.ts');
    const acting = await ownerChoice('memory', values);
    const json = values.json === true;
    // Names are checked before the data folder is opened: a bad one is bad usage (exit 2).
    usageOf(() =>
      checkMemoryNames(
        action === 'list'
          ? values.prefix === undefined
            ? {}
            : { prefix: values.prefix }
          : { namespace, key },
      ),
    );
    return withRuntime(
      io.env,
      { dataDir: values.data },
      async (runtime) => {
        const reads = action === 'list' || action === 'get';
        const owner = await resolveOwner(runtime, acting, reads ? 'yeoul:read' : 'yeoul:write');
        const memory = runtime.memory;
        if (action === 'list') {
          const items = await memory.search(owner, {
            ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
            ...(values.query === undefined ? {} : { query: values.query }),
            ...(limit === undefined ? {} : { limit }),
          });
          if (json) io.stdout.write(`${JSON.stringify({ items }, null, 2)}\n`);
          else if (items.length === 0) io.stdout.write('No memory items.\n');
          else {
            for (const item of items) {
              io.stdout.write(`${item.namespace}  ${item.key}  ${JSON.stringify(item.value)}\n`);
            }
          }
          return 0;
        }
        if (action === 'put') {
          const item = await usageOfAsync(() => memory.put(owner, namespace, key, value));
          io.stdout.write(
            json ? `${JSON.stringify(item, null, 2)}\n` : `stored ${namespace} ${key}\n`,
          );
          return 0;
        }
        if (action === 'get') {
          const item = await memory.get(owner, namespace, key);
          if (item === undefined) return absent(io, namespace, key);
          io.stdout.write(`${json ? JSON.stringify(item, null, 2) : JSON.stringify(item.value)}\n`);
          return 0;
        }
        if (!(await memory.delete(owner, namespace, key))) return absent(io, namespace, key);
        io.stdout.write(`deleted ${namespace} ${key}\n`);
        return 0;
      },
      { agents: false },
    );
  },
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError({
      problem: `JSON is not valid JSON (${(error as Error).message}); quote a string as '"text"'`,
      command: 'memory',
    });
  }
}

function absent(io: CliIo, namespace: string, key: string): number {
  io.stderr.write(`yeoul: no memory item "${key}" in namespace "${namespace}"\n`);
  return 1;
}

/** A bad name or an oversized value is bad usage (exit 2), in the memory store's own words. */
function usageOf<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asUsage(error);
  }
}

async function usageOfAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asUsage(error);
  }
}

function asUsage(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'invalid_memory_name' || code === 'memory_value_too_large') {
    return new UsageError({ problem: (error as Error).message, command: 'memory' });
  }
  return error;
}
