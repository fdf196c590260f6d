import { buildGraphRegistry, defaultGraphName, isBuiltinGraph } from '../../agents/index.ts';
import { END, START } from '../../graph/index.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import { builtinGraphChoices, builtinGraphList } from '../graph-choices.ts';
import { withRuntime } from '../open-runtime.ts';
import { dataOption, parseCommandArgs } from '../parse-command-args.ts';

/** The shape of a compiled graph this command reads. */
interface GraphShape {
  nodes: ReadonlyMap<string, unknown>;
  edges: ReadonlyMap<
    string,
    ReadonlyArray<
      { kind: 'plain'; to: string } | { kind: 'conditional'; destinations: readonly string[] }
    >
  >;
  toMermaid(): string;
}

/** `yeoul graph AGENT|NAME`: prints a built-in agent's graph or a config file's, nodes and edges or Mermaid. */
export const graphCommand = defineCommand({
  name: 'graph',
  summary: 'print a graph: an agent or one of the config file (nodes and edges, or Mermaid)',
  usage: [`graph ${builtinGraphChoices()}|NAME [--mermaid] [--config FILE]`],
  details: [
    '--mermaid       print a Mermaid flowchart (paste into Markdown, mermaid.live, …)',
    '--config FILE   the config file whose graph NAME is (default yeoul.config.{ts,mjs,js} here)',
  ],
  example: `graph ${defaultGraphName} --mermaid`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'graph',
      args,
      { mermaid: { type: 'boolean' }, ...dataOption },
      { min: 1, max: 1, names: `GRAPH (${builtinGraphList()} or a graph of the config file)` },
    );
    const name = positionals[0] as string;
    const print = (graph: GraphShape) =>
      io.stdout.write(values.mermaid ? graph.toMermaid() : describeGraph(name, graph));
    if (isBuiltinGraph(name)) {
      print(await builtinGraph(name));
      return 0;
    }
    // A graph of the config file: built as `serve` builds it (its factory gets the kit).
    await withRuntime(
      io.env,
      { dataDir: values.data, config: values.config },
      async (runtime) => {
        const entry = runtime.graphs.get(name);
        if (entry === undefined) {
          const known = runtime.graphs.names().join(', ');
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

/** Builds a built-in agent's graph only to look at it: nothing runs, so no store is needed. */
async function builtinGraph(name: string): Promise<GraphShape> {
  const { readModelConfig, resolveModel } = await import('../../models/index.ts');
  const { createToolEnvironment, ToolRegistry } = await import('../../tools/index.ts');
  const registry = buildGraphRegistry({
    model: resolveModel(readModelConfig({})),
    tools: new ToolRegistry(),
    toolEnvironment: createToolEnvironment({ dataDir: '.' }),
  });
  return registry.get(name)?.graph as unknown as GraphShape;
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
  for (const [from, list] of graph.edges) {
    for (const edge of list) {
      const arrow = edge.kind === 'plain' ? '→' : '⇢';
      const to = edge.kind === 'plain' ? [edge.to] : edge.destinations;
      lines.push(`  ${label(from).padEnd(width)} ${arrow} ${to.map(label).join(' | ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
