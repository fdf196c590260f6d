import { askCommand } from './commands/ask-command.ts';
import { chatCommand } from './commands/chat-command.ts';
import { devCommand } from './commands/dev-command.ts';
import { evalCommand } from './commands/eval-command.ts';
import { graphCommand } from './commands/graph-command.ts';
import { ingestCommand } from './commands/ingest-command.ts';
import { initCommand } from './commands/init-command.ts';
import { mcpCommand } from './commands/mcp-command.ts';
import { memoryCommand } from './commands/memory-command.ts';
import { migrateCommand } from './commands/migrate-command.ts';
import { reindexCommand } from './commands/reindex-command.ts';
import { schedulesCommand } from './commands/schedules-command.ts';
import { searchCommand } from './commands/search-command.ts';
import { serveCommand } from './commands/serve-command.ts';
import { sessionsCommand } from './commands/sessions-command.ts';
import { usageCommand } from './commands/usage-command.ts';
import type { Command } from './define-command.ts';

/** Every `yeoul` command, in the order the help lists them. */
export const commands: readonly Command[] = [
  serveCommand,
  devCommand,
  chatCommand,
  askCommand,
  ingestCommand,
  searchCommand,
  reindexCommand,
  graphCommand,
  sessionsCommand,
  evalCommand,
  memoryCommand,
  usageCommand,
  schedulesCommand,
  mcpCommand,
  migrateCommand,
  initCommand,
];
