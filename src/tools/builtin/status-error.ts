import { ToolRequestError } from '../errors/tool-request-error.ts';

/**
 * The error for a non-2xx answer: what the status means and what the model can do next
 * (wait on 429, try later on 5xx, give up on a refused key), with the service's `detail`.
 * @example statusError('Wikipedia', 429, 'Too many requests').message
 * // 'Wikipedia is rate limiting requests (HTTP 429): "Too many requests"; wait a little …'
 */
export function statusError(service: string, status: number, detail: string): ToolRequestError {
  const fields = { service, status, detail };
  if (status === 429) {
    const hint = 'wait a little before trying again, or answer without it';
    return new ToolRequestError({ ...fields, problem: 'is rate limiting requests', hint });
  }
  if (status === 401) {
    const hint = 'the server administrator must fix the key; answer without this tool';
    return new ToolRequestError({ ...fields, problem: 'refused the configured API key', hint });
  }
  if (status === 403) {
    const hint = 'answer without this tool';
    return new ToolRequestError({ ...fields, problem: 'refused access', hint });
  }
  if (status === 400 || status === 422) {
    const hint = 'check the arguments';
    return new ToolRequestError({ ...fields, problem: 'rejected the request', hint });
  }
  if (status === 404) {
    const hint = 'the endpoint may be misconfigured; answer without this tool';
    return new ToolRequestError({ ...fields, problem: 'has no such resource', hint });
  }
  if (status === 408 || status === 504) {
    return new ToolRequestError({ ...fields, problem: 'timed out', hint: 'try again later' });
  }
  if (status >= 500) {
    const hint = 'try again later';
    return new ToolRequestError({ ...fields, problem: 'is having problems', hint });
  }
  return new ToolRequestError({ ...fields, problem: 'answered with an unexpected status' });
}

/** The service's own short explanation of an error, from the usual fields of error bodies. */
export function serviceMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'reason', 'info', 'error', 'detail']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'object' && value !== null) {
      const inner = serviceMessage(value);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}
