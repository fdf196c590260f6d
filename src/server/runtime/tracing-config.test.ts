import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, readEnvironment } from '../../config/index.ts';
import { readTracingConfig } from './tracing-config.ts';

describe('tracing configuration', () => {
  it('is off without an OTLP endpoint (an empty value counts as unset)', () => {
    assert.deepEqual(readTracingConfig({}), { ok: true, config: undefined });
    assert.deepEqual(readTracingConfig(readEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })), {
      ok: true,
      config: undefined,
    });
  });

  it('sends to <endpoint>/v1/traces without message text by default', () => {
    assert.deepEqual(readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }), {
      ok: true,
      config: {
        url: 'http://collector:4318/v1/traces',
        headers: {},
        serviceName: 'yeoul',
        recordContent: false,
        scheduledDelayMs: 5000,
      },
    });
  });

  it('uses the traces endpoint as is, the headers, service name, delay and content flag', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/api/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b, x-team=ops',
      OTEL_SERVICE_NAME: 'yeoul-prod',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      YEOUL_TRACE_CONTENT: '1',
    };
    assert.deepEqual(readTracingConfig(readEnvironment(env)), {
      ok: true,
      config: {
        url: 'https://otlp.example.com/api/traces',
        headers: { 'api-key': 'a b', 'x-team': 'ops' },
        serviceName: 'yeoul-prod',
        recordContent: true,
        scheduledDelayMs: 200,
      },
    });
  });

  it('lists every problem at once', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'no-value',
      OTEL_BSP_SCHEDULE_DELAY: 'soon',
      YEOUL_TRACE_CONTENT: 'yes',
    };
    // The delay and the switch are the environment's schema's to refuse, both at once.
    assert.throws(
      () => readEnvironment(env),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 2 &&
        error.problems[0]?.startsWith('OTEL_BSP_SCHEDULE_DELAY:') === true &&
        error.problems[1]?.startsWith('YEOUL_TRACE_CONTENT:') === true,
    );
    const { OTEL_BSP_SCHEDULE_DELAY, YEOUL_TRACE_CONTENT, ...urls } = env;
    const result = readTracingConfig(readEnvironment(urls));
    assert.equal(result.ok, false);
    assert.equal(result.ok ? 0 : result.problems.length, 2);
  });
});
