import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, integerOption, parseCommandArgs } from '../parse-command-args.ts';

const snippetLength = 200;

/** `yeoul search "…"`: the knowledge base's best passages, best first. */
export const searchCommand = defineCommand({
  name: 'search',
  summary: 'search the knowledge base',
  usage: ['search "QUERY" [-k N] [--json] [--data DIR]'],
  details: [
    '-k N     how many passages (1–50, default 5)',
    '--json   print {"hits": [{documentId, chunkId, title, heading, text, score, metadata}]}',
  ],
  example: 'search "연차 휴가" -k 3',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'search',
      args,
      { ...dataOption, k: { type: 'string', short: 'k' }, json: { type: 'boolean' } },
      { min: 1, names: 'QUERY' },
    );
    const query = positionals.join(' ');
    if (query.trim() === '')
      throw new UsageError({ problem: 'the query is empty', command: 'search' });
    const k = integerOption('search', '-k', values.k, { min: 1, max: 50 });
    const hits = await withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      (runtime) => runtime.knowledge.search(query, k === undefined ? {} : { k }),
      { agents: false },
    );
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ hits }, null, 2)}\n`);
      return 0;
    }
    if (hits.length === 0) {
      io.stdout.write('No passages match.\n');
      return 0;
    }
    for (const [index, hit] of hits.entries()) {
      const where =
        hit.heading && hit.heading !== hit.title ? `${hit.title} › ${hit.heading}` : hit.title;
      const text = hit.text.replace(/\s+/g, ' ').trim();
      const snippet = text.length > snippetLength ? `${text.slice(0, snippetLength - 1)}…` : text;
      io.stdout.write(`${index + 1}. ${where}  (${hit.documentId})\n   ${snippet}\n`);
    }
    return 0;
  },
});
