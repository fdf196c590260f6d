import { appendFileSync } from 'node:fs';
import {
  type Checkpointer,
  defineState,
  END,
  increment,
  messages,
  START,
  StateGraph,
} from '../graph/index.ts';

/** The state of the pipeline fixture: a log of notes and a running total. */
export const pipelineSchema = defineState({
  notes: messages<{ id?: string; node: string; text: string }>(),
  total: increment(),
});

/** The nodes of the pipeline fixture, in order. */
export const pipelineNodes = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'] as const;

/**
 * Six nodes in a row, each adding a note and to the total, and appending its name to
 * `executionLog` (a file) when it starts, so a test can tell which steps ran and how often.
 * When `hangAt` names a node, that node prints `ready` and never returns.
 */
export function buildPipelineGraph(options: {
  checkpointer: Checkpointer;
  executionLog: string;
  hangAt?: string;
}) {
  const builder = new StateGraph(pipelineSchema);
  pipelineNodes.forEach((name, index) => {
    builder.addNode(name, async (state) => {
      appendFileSync(options.executionLog, `${name}\n`);
      if (name === options.hangAt) {
        process.stdout.write('ready\n');
        await new Promise(() => setInterval(() => undefined, 60_000));
      }
      return {
        notes: { node: name, text: `${name} saw total ${state.total}` },
        total: index + 1,
      };
    });
  });
  builder.addEdge(START, 'n1');
  pipelineNodes.forEach((name, index) => {
    builder.addEdge(name, pipelineNodes[index + 1] ?? END);
  });
  return builder.compile({ checkpointer: options.checkpointer });
}
