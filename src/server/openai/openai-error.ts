import { z } from 'zod';
import { errorResponse, type RequestLimits } from '../http/http-error.ts';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().describe('invalid_request_error, authentication_error, server_error, …'),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

/** An error as OpenAI's clients expect it. */
export type OpenAiErrorBody = z.infer<typeof openAiErrorSchema>;

/** OpenAI's error types by status. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * Any error in OpenAI's shape, with the status the one code→status map gives it
 * (`errorResponse`): the code stays Yeoul's (`awaiting_approval`, `session_busy`, …)
 * except a rejected key, which is OpenAI's `invalid_api_key`.
 */
export function openAiError(
  error: unknown,
  limits: RequestLimits = {},
): { status: number; body: OpenAiErrorBody } {
  const { status, body } = errorResponse(error, limits);
  const details = body.error.details as { param?: unknown } | undefined;
  const param =
    typeof details?.param === 'string'
      ? details.param
      : Array.isArray(body.error.details) && body.error.code === 'invalid_request'
        ? paramOf(body.error.details[0])
        : null;
  return {
    status,
    body: {
      error: {
        message: body.error.message,
        type: typeOf(status),
        param,
        code: status === 401 ? 'invalid_api_key' : body.error.code,
      },
    },
  };
}

/** The field a zod problem line (`messages.0.role: …`) names. */
function paramOf(problem: unknown): string | null {
  if (typeof problem !== 'string') return null;
  const field = problem.split(':')[0] ?? '';
  return field === '' || field === '(body)' ? null : field;
}
