import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Environment } from '../../config/index.ts';
import { activeTraceIds } from '../../core/index.ts';
import { serializeError } from './serialize-error.ts';
import { serializeRequest } from './serialize-request.ts';

/** Header and body paths that never reach a log line. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.body',
  'body.message',
];

/**
 * The process's logger: `LOG_LEVEL` (default info), pretty coloured lines when standard
 * output is a terminal, JSON lines otherwise (what log collectors read). Authorization
 * headers, request bodies and credentials in a URL are never logged; an error is logged as its type, message,
 * stack, codes and causes only (`serializeError`). A line written inside a traced span
 * carries its `trace_id` and `span_id`.
 * @example
 * const logger = createLogger(readEnvironment(process.env));
 * logger.warn({ code: 'model_unreachable' }, 'model call failed');
 */
export function createLogger(
  env: Pick<Environment, 'LOG_LEVEL'>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: env.LOG_LEVEL ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    // pino merges the log's own fields into this object: a fresh one each time.
    mixin: () => activeTraceIds() ?? {},
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY) {
    return pino(
      options,
      pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }),
    );
  }
  return pino(options);
}
