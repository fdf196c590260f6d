import { YeoulError } from '../../core/index.ts';

/** What went wrong in a tool's request to an outside service. */
export interface ToolRequestErrorFields {
  /** The service as the model knows it (`Open-Meteo`, `Wikipedia`, `Tavily`). */
  service: string;
  /** What happened, as a phrase that follows the service name (`is rate limiting requests`). */
  problem: string;
  /** The HTTP status, when the service answered with one. */
  status?: number;
  /** The service's own short explanation, already stripped of secrets. */
  detail?: string;
  /** What to do next (`try again later`). */
  hint?: string;
}

/**
 * A tool's request to an outside service failed: unreachable, an error status, a body
 * that is not the JSON it should be. The message says what happened and what to do next,
 * in words a model can act on; it never holds a URL or an API key.
 */
export class ToolRequestError extends YeoulError {
  readonly service: string;
  readonly status: number | undefined;

  constructor(fields: ToolRequestErrorFields) {
    const status = fields.status === undefined ? '' : ` (HTTP ${fields.status})`;
    const detail = fields.detail ? `: ${JSON.stringify(fields.detail)}` : '';
    const hint = fields.hint === undefined ? '' : `; ${fields.hint}`;
    super('tool_request', `${fields.service} ${fields.problem}${status}${detail}${hint}`);
    this.service = fields.service;
    this.status = fields.status;
  }
}
