import { join, resolve } from 'node:path';
import type { ToolVariables } from '../../tool-variables.ts';
import { createCloudWatchLogSource } from './cloudwatch-source.ts';
import { createDatadogLogSource } from './datadog-source.ts';
import { createFileLogSource } from './file-source.ts';
import { createLokiLogSource } from './loki-source.ts';
import type { LogSource } from './types.ts';

/** The log source `YEOUL_LOGS` names, or why the setting is not valid. */
export type LogSourceResolution =
  | {
      ok: true;
      source: LogSource;
      kind: 'file' | 'loki' | 'cloudwatch' | 'datadog';
      /** Set when the default folder is in use: seed it with {@link ensureSampleLogs} on first start. */
      sampleLogsDir?: string;
    }
  | { ok: false; problem: string };

const logGroupPattern = /^[.\-_/#A-Za-z0-9]{1,512}$/;
const expected = 'file:DIR, loki:URL, cloudwatch:LOG_GROUP or datadog';

/**
 * Reads `YEOUL_LOGS`: `file:DIR`, `loki:URL`, `cloudwatch:LOG_GROUP`
 * (AWS settings from the environment), `datadog` (`DD_API_KEY`, `DD_APP_KEY`, optional
 * `DD_SITE`, and `DD_API_URL` to point at another base URL); unset means `file:DATA_DIR/logs`.
 * @example
 * const logs = resolveLogSource({ YEOUL_LOGS: 'loki:http://127.0.0.1:3100' }, { dataDir: './data' });
 * if (logs.ok && logs.sampleLogsDir) await ensureSampleLogs(logs.sampleLogsDir);
 */
export function resolveLogSource(
  env: Pick<ToolVariables, 'YEOUL_LOGS' | 'DD_API_KEY' | 'DD_APP_KEY' | 'DD_SITE' | 'DD_API_URL'>,
  options: { dataDir: string; fetch?: typeof fetch },
): LogSourceResolution {
  const setting = env.YEOUL_LOGS;
  if (setting === undefined) {
    const directory = resolve(join(options.dataDir, 'logs'));
    const source = createFileLogSource({ directory });
    return { ok: true, source, kind: 'file', sampleLogsDir: directory };
  }
  const separator = setting.indexOf(':');
  const scheme = (separator === -1 ? setting : setting.slice(0, separator)).toLowerCase();
  const rest = separator === -1 ? '' : setting.slice(separator + 1).trim();
  const fail = (problem: string): LogSourceResolution => ({
    ok: false,
    problem: `YEOUL_LOGS ${problem}`,
  });
  if (scheme === 'file') {
    if (rest === '') return fail('file: needs a folder, as in file:./logs');
    return { ok: true, source: createFileLogSource({ directory: resolve(rest) }), kind: 'file' };
  }
  if (scheme === 'loki') {
    if (!isHttpUrl(rest))
      return fail(
        `loki: needs Loki's http(s) URL, as in loki:http://127.0.0.1:3100; got ${JSON.stringify(rest)}`,
      );
    const source = createLokiLogSource({
      url: rest,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return { ok: true, source, kind: 'loki' };
  }
  if (scheme === 'cloudwatch') {
    if (!rest.startsWith('arn:') && !logGroupPattern.test(rest)) {
      return fail(
        `cloudwatch: needs a log group name or ARN, as in cloudwatch:/ecs/payment-service; got ${JSON.stringify(rest)}`,
      );
    }
    return { ok: true, source: createCloudWatchLogSource({ logGroup: rest }), kind: 'cloudwatch' };
  }
  if (scheme === 'datadog') {
    if (rest !== '') return fail('datadog takes no value: set DD_SITE (and DD_API_URL) instead');
    const missing = (['DD_API_KEY', 'DD_APP_KEY'] as const).filter((name) => !env[name]);
    if (missing.length > 0) return fail(`datadog needs ${missing.join(' and ')} to be set`);
    const apiUrl = env.DD_API_URL;
    if (apiUrl !== undefined && !isHttpUrl(apiUrl))
      return { ok: false, problem: `DD_API_URL is not an http(s) URL: ${JSON.stringify(apiUrl)}` };
    const source = createDatadogLogSource({
      apiKey: env.DD_API_KEY ?? '',
      applicationKey: env.DD_APP_KEY ?? '',
      ...(env.DD_SITE ? { site: env.DD_SITE } : {}),
      ...(apiUrl ? { apiUrl } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return { ok: true, source, kind: 'datadog' };
  }
  return fail(`must be ${expected}; got ${JSON.stringify(setting)}`);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
