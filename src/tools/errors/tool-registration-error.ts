import { YeoulError } from '../../core/index.ts';

/** A tool could not be registered (a duplicate or malformed name). */
export class ToolRegistrationError extends YeoulError {
  readonly toolName: string;

  constructor(fields: { toolName: string; reason: string }) {
    super('tool_registration', `Tool "${fields.toolName}" cannot be registered: ${fields.reason}`);
    this.toolName = fields.toolName;
  }
}
