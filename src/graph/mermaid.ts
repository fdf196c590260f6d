import type { StateSchema } from './state.ts';
import { type Edge, END, type Join, START } from './types.ts';

/**
 * Draws a graph as a Mermaid flowchart: plain edges solid (several out of one node fan
 * out), conditional edges dashed, joins as thick arrows from each source, START and END
 * as rounded terminals.
 */
export function toMermaid<Schema extends StateSchema>(
  nodeNames: Iterable<string>,
  edges: ReadonlyMap<string, readonly Edge<Schema>[]>,
  joins: readonly Join[] = [],
): string {
  const lines = ['flowchart TD', `  ${mermaidId(START)}([start])`];
  for (const name of nodeNames) lines.push(`  ${mermaidId(name)}["${escapeLabel(name)}"]`);
  lines.push(`  ${mermaidId(END)}([end])`);
  for (const [from, list] of edges) {
    for (const edge of list) {
      if (edge.kind === 'plain') {
        lines.push(`  ${mermaidId(from)} --> ${mermaidId(edge.to)}`);
      } else {
        for (const to of edge.destinations)
          lines.push(`  ${mermaidId(from)} -.-> ${mermaidId(to)}`);
      }
    }
  }
  for (const join of joins) {
    for (const source of join.sources)
      lines.push(`  ${mermaidId(source)} ==> ${mermaidId(join.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

function mermaidId(name: string): string {
  if (name === START) return '__start__';
  if (name === END) return '__end__';
  return `n_${name.replace(/[^A-Za-z0-9_]/g, (char) => `_${char.codePointAt(0)?.toString(16)}_`)}`;
}

function escapeLabel(name: string): string {
  return name.replace(/"/g, '#quot;');
}
