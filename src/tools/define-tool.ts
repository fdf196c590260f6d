import type { ToolDefinition } from './types.ts';

/**
 * Declares a tool (a typed identity function: the input type comes from the schema).
 * @example
 * export const echoTool = defineTool({
 *   name: 'echo',
 *   description: 'Repeats the text it is given.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: async ({ text }) => text,
 * });
 */
export function defineTool<Input>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition;
}
