import type { StateSchema } from '../state.ts';
import { type Edge, END, type Join, START } from '../types.ts';

/** What drawing a subgraph needs of it: its compiled graph's nodes, edges, joins and subgraphs. */
export interface MermaidSubgraph {
  readonly graph: {
    readonly nodes: ReadonlyMap<string, unknown>;
    readonly edges: ReadonlyMap<string, readonly Edge<StateSchema>[]>;
    readonly joins: readonly Join[];
    readonly subgraphs: ReadonlyMap<string, MermaidSubgraph>;
  };
}

/**
 * Draws a graph as a Mermaid flowchart: plain edges solid (several out of one node fan
 * out), conditional edges dashed, joins as thick arrows from each source, START and END
 * as rounded terminals, and a subgraph as a `subgraph … end` block holding its own
 * drawing (nested as deep as the subgraphs go; its ids prefixed with its node's id).
 */
export function toMermaid<Schema extends StateSchema>(
  nodeNames: Iterable<string>,
  edges: ReadonlyMap<string, readonly Edge<Schema>[]>,
  joins: readonly Join[] = [],
  subgraphs: ReadonlyMap<string, MermaidSubgraph> = new Map(),
): string {
  const lines = ['flowchart TD'];
  drawGraph(lines, '  ', '', nodeNames, edges, joins, subgraphs);
  return `${lines.join('\n')}\n`;
}

function drawGraph<Schema extends StateSchema>(
  lines: string[],
  indent: string,
  prefix: string,
  nodeNames: Iterable<string>,
  edges: ReadonlyMap<string, readonly Edge<Schema>[]>,
  joins: readonly Join[],
  subgraphs: ReadonlyMap<string, MermaidSubgraph>,
): void {
  const id = (name: string) => prefix + mermaidId(name);
  lines.push(`${indent}${id(START)}([start])`);
  for (const name of nodeNames) {
    const subgraph = subgraphs.get(name);
    if (subgraph === undefined) {
      lines.push(`${indent}${id(name)}["${escapeLabel(name)}"]`);
      continue;
    }
    const { graph } = subgraph;
    lines.push(`${indent}subgraph ${id(name)}["${escapeLabel(name)}"]`);
    drawGraph(
      lines,
      `${indent}  `,
      `${id(name)}__`,
      graph.nodes.keys(),
      graph.edges,
      graph.joins,
      graph.subgraphs,
    );
    lines.push(`${indent}end`);
  }
  lines.push(`${indent}${id(END)}([end])`);
  for (const [from, list] of edges) {
    for (const edge of list) {
      if (edge.kind === 'plain') {
        lines.push(`${indent}${id(from)} --> ${id(edge.to)}`);
      } else {
        for (const to of edge.destinations) lines.push(`${indent}${id(from)} -.-> ${id(to)}`);
      }
    }
  }
  for (const join of joins) {
    for (const source of join.sources) lines.push(`${indent}${id(source)} ==> ${id(join.to)}`);
  }
}

function mermaidId(name: string): string {
  if (name === START) return '__start__';
  if (name === END) return '__end__';
  return `n_${name.replace(/[^A-Za-z0-9_]/g, (char) => `_${char.codePointAt(0)?.toString(16)}_`)}`;
}

function escapeLabel(name: string): string {
  return name.replace(/"/g, '#quot;');
}
