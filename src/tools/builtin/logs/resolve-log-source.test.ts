import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { withoutBlankValues } from '../../../core/index.ts';
import { toolVariables } from '../../tool-variables.ts';
import { resolveLogSource } from './resolve-log-source.ts';

const dataDir = '/srv/yeoul-data';
/** Reads the variables as the process reads its environment, then resolves the source. */
const resolved = (env: Record<string, string | undefined>) =>
  resolveLogSource(toolVariables.parse(withoutBlankValues(env)), { dataDir });

describe('resolveLogSource', () => {
  it('defaults to the data folder, marked for the sample logs, when YEOUL_LOGS is unset or empty', () => {
    for (const env of [{}, { YEOUL_LOGS: '' }, { YEOUL_LOGS: '  ' }]) {
      const result = resolved(env);
      assert.ok(result.ok);
      assert.equal(result.kind, 'file');
      assert.equal(result.sampleLogsDir, join(dataDir, 'logs'));
      assert.equal(result.source.name, `the log folder ${join(dataDir, 'logs')}`);
    }
  });

  it('reads file:, loki:, cloudwatch: and datadog settings', () => {
    const file = resolved({ YEOUL_LOGS: 'file:./var/log/shop' });
    assert.ok(file.ok && file.kind === 'file' && file.sampleLogsDir === undefined);
    assert.equal(file.source.name, `the log folder ${resolve('./var/log/shop')}`);
    const loki = resolved({ YEOUL_LOGS: 'loki:http://loki:3100' });
    assert.ok(loki.ok && loki.kind === 'loki');
    const cloudwatch = resolved({ YEOUL_LOGS: 'cloudwatch:/ecs/payment-service' });
    assert.ok(cloudwatch.ok && cloudwatch.kind === 'cloudwatch');
    assert.equal(cloudwatch.source.name, 'CloudWatch Logs group /ecs/payment-service');
    const datadog = resolved({
      YEOUL_LOGS: 'datadog',
      DD_API_KEY: 'k',
      DD_APP_KEY: 'a',
      DD_SITE: 'datadoghq.eu',
    });
    assert.ok(datadog.ok && datadog.kind === 'datadog');
  });

  it('says what is wrong with a bad setting', () => {
    const problem = (env: Record<string, string>) => {
      const result = resolved(env);
      return result.ok ? 'ok' : result.problem;
    };
    assert.equal(
      problem({ YEOUL_LOGS: 'elastic:http://x' }),
      'YEOUL_LOGS must be file:DIR, loki:URL, cloudwatch:LOG_GROUP or datadog; got "elastic:http://x"',
    );
    assert.equal(
      problem({ YEOUL_LOGS: 'file:' }),
      'YEOUL_LOGS file: needs a folder, as in file:./logs',
    );
    assert.match(
      problem({ YEOUL_LOGS: 'loki:loki:3100' }),
      /^YEOUL_LOGS loki: needs Loki's http\(s\) URL/,
    );
    assert.match(
      problem({ YEOUL_LOGS: 'cloudwatch:bad group!' }),
      /^YEOUL_LOGS cloudwatch: needs a log group name or ARN/,
    );
    assert.equal(
      problem({ YEOUL_LOGS: 'datadog', DD_API_KEY: 'k' }),
      'YEOUL_LOGS datadog needs DD_APP_KEY to be set',
    );
    assert.equal(
      problem({ YEOUL_LOGS: 'datadog' }),
      'YEOUL_LOGS datadog needs DD_API_KEY and DD_APP_KEY to be set',
    );
    assert.match(
      problem({ YEOUL_LOGS: 'datadog', DD_API_KEY: 'k', DD_APP_KEY: 'a', DD_API_URL: 'nope' }),
      /^DD_API_URL is not an http\(s\) URL/,
    );
  });
});
