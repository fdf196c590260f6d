import type { NodeContext } from '../graph/index.ts';
import type { ModelTool, ToolCall } from '../models/index.ts';

/**
 * What a client-tool interrupt asks (its `value`): a tool the caller brought, which the
 * caller runs itself; the run waits for its output.
 */
export interface ClientToolRequest {
  type: 'client-tool';
  tool: string;
  args: unknown;
  toolCallId: string;
}

/** The output a caller returns for one of its own tools' calls, by the interrupt's id. */
export interface ClientToolOutput {
  id: string;
  output: string;
}

/** The tools the caller brought for this run (its run context's `clientTools`); none when unsaid. */
export function clientToolsOf(context: NodeContext): ModelTool[] {
  const tools = (context.context as { clientTools?: ModelTool[] } | undefined)?.clientTools;
  return Array.isArray(tools) ? tools : [];
}

/** The output a resumed call got from the caller, when its answer is one (`{output}`). */
export function clientOutputOf(answer: unknown): string | undefined {
  const output = (answer as { output?: unknown } | undefined)?.output;
  return typeof output === 'string' ? output : undefined;
}

/** The interrupt that hands a call of a client tool to the caller. */
export function clientToolInterrupt(call: ToolCall): { key: string; value: ClientToolRequest } {
  return {
    key: call.id,
    value: { type: 'client-tool', tool: call.name, args: call.args, toolCallId: call.id },
  };
}
