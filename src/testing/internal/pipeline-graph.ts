import { appendFileSync } from 'node:fs';
import {
  type Checkpointer,
  defineState,
  END,
  increment,
  messages,
  START,
  StateGraph,
} from '../../graph/index.ts';

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

/**
 * split → pay and wait together → finish (a join) → END. `pay` is a side effect (it
 * appends `pay` to `executionLog`, like a payment or a tool call); every node appends its
 * name when it starts. With `hang`, `wait` prints `ready` once `pay` is committed as a
 * finished task, then never returns.
 */
export function buildFanOutPipelineGraph(options: {
  checkpointer: Checkpointer;
  executionLog: string;
  hang?: boolean;
}) {
  const logged = (name: string, total: number) => () => {
    appendFileSync(options.executionLog, `${name}\n`);
    return { notes: { node: name, text: name }, total };
  };
  return new StateGraph(pipelineSchema)
    .addNode('split', logged('split', 1))
    .addNode('pay', logged('pay', 10))
    .addNode('wait', async (_state, context) => {
      appendFileSync(options.executionLog, 'wait\n');
      if (options.hang) {
        const threadId = context.threadId as string;
        const committed = async () =>
          (await options.checkpointer.read(threadId)).entries.some(
            (entry) => entry.kind === 'task',
          );
        while (!(await committed())) await new Promise((resolve) => setTimeout(resolve, 5));
        process.stdout.write('ready\n');
        await new Promise(() => setInterval(() => undefined, 60_000));
      }
      return { notes: { node: 'wait', text: 'wait' }, total: 100 };
    })
    .addNode('finish', logged('finish', 1000))
    .addEdge(START, 'split')
    .addEdge('split', 'pay')
    .addEdge('split', 'wait')
    .addEdge(['pay', 'wait'], 'finish')
    .addEdge('finish', END)
    .compile({ checkpointer: options.checkpointer });
}
