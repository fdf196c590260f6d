import { END, START } from '../../graph/index.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

const graphNames = ['chat', 'react', 'ops'] as const;

/** The shape of a compiled graph this command reads. */
interface GraphShape {
  nodes: ReadonlyMap<string, unknown>;
  edges: ReadonlyMap<
    string,
    { kind: 'plain'; to: string } | { kind: 'conditional'; destinations: readonly string[] }
  >;
  toMermaid(): string;
}

/** `yeoul graph chat|react|ops|NAME`: prints a graph's nodes and edges, or Mermaid. */
export const graphCommand = defineCommand({
  name: 'graph',
  summary: 'print a graph: an agent or one of the config file (nodes and edges, or Mermaid)',
  usage: ['graph chat|react|ops|NAME [--mermaid] [--config FILE]'],
  details: [
    '--mermaid       print a Mermaid flowchart (paste into Markdown, mermaid.live, …)',
    '--config FILE   the config file whose graph NAME is (default yeoul.config.{ts,mjs,js} here)',
  ],
  example: 'graph chat --mermaid',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'graph',
      args,
      { mermaid: { type: 'boolean' }, ...dataOption },
      { min: 1, max: 1, names: 'GRAPH (chat, react, ops or a graph of the config file)' },
    );
    const name = positionals[0] as string;
    const print = (graph: GraphShape) =>
      io.stdout.write(values.mermaid ? graph.toMermaid() : describeGraph(name, graph));
    if ((graphNames as readonly string[]).includes(name)) {
      print(await buildGraph(name as (typeof graphNames)[number]));
      return 0;
    }
    // A graph of the config file: built as `serve` builds it (its factory gets the kit).
    await withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      async (runtime) => {
        const entry = runtime.userGraphs.get(name);
        if (entry === undefined) {
          const known = [...graphNames, ...runtime.userGraphs.keys()].join(', ');
          throw new UsageError({
            problem: `no graph "${name}" (graphs: ${known})`,
            command: 'graph',
          });
        }
        print(entry.graph as unknown as GraphShape);
      },
      { agents: false },
    );
    return 0;
  },
});

/** Builds a graph only to look at it: nothing runs, so no model, tool or store is needed. */
async function buildGraph(name: (typeof graphNames)[number]): Promise<GraphShape> {
  // Loaded here, not on import, so that the other commands start fast.
  const { buildChatGraph, buildOpsGraph, buildReactGraph } = await import('../../agents/index.ts');
  const { readModelConfig, resolveModel } = await import('../../models/index.ts');
  const { createToolEnvironment, ToolRegistry } = await import('../../tools/index.ts');
  if (name === 'ops') {
    return buildOpsGraph();
  }
  const deps = {
    model: resolveModel(readModelConfig({})),
    tools: new ToolRegistry(),
    toolEnvironment: createToolEnvironment({ dataDir: '.' }),
  };
  return name === 'chat' ? buildChatGraph(deps) : buildReactGraph(deps);
}

/** The graph as plain text: its nodes, then one line per edge. */
export function describeGraph(name: string, graph: GraphShape): string {
  const label = (node: string) => (node === START ? 'start' : node === END ? 'end' : node);
  const width = Math.max(...[START, ...graph.edges.keys()].map((node) => label(node).length));
  const lines = [
    `graph ${name}: ${graph.nodes.size} nodes`,
    `nodes: ${[...graph.nodes.keys()].join(', ')}`,
    'edges (→ always, ⇢ one of, chosen at run time):',
  ];
  for (const [from, edge] of graph.edges) {
    const arrow = edge.kind === 'plain' ? '→' : '⇢';
    const to = edge.kind === 'plain' ? [edge.to] : edge.destinations;
    lines.push(`  ${label(from).padEnd(width)} ${arrow} ${to.map(label).join(' | ')}`);
  }
  return `${lines.join('\n')}\n`;
}
