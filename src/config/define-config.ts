import type { YeoulConfig } from './types.ts';

/**
 * Declares a Yeoul config (a typed identity function): what `yeoul.config.ts` default-exports.
 * @example
 * export default defineConfig({
 *   tools: [defineTool({ name: 'order_status', description: 'An order's state', inputSchema: z.object({ id: z.string() }),
 *                        execute: async ({ id }) => ({ id, state: 'shipped' }) })],
 *   agents: { chat: { persona: 'You answer questions about orders.', tools: ['order_status', 'calculator'] } },
 * });
 */
export function defineConfig(config: YeoulConfig): YeoulConfig {
  return config;
}
