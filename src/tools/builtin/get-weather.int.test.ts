import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeOpenMeteo,
  startFakeHttpServer,
  startFakeOpenMeteo,
} from '../../testing/internal/index.ts';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolDefinition, ToolEnvironment } from '../types.ts';
import { getWeatherTool } from './get-weather.ts';

async function call<Input>(tool: ToolDefinition<Input>, env: ToolEnvironment, args: unknown) {
  const executor = new ToolExecutor(new ToolRegistry().register(tool), { env });
  return executor.execute({ id: 'call-1', name: tool.name, args });
}

describe('get_weather with Open-Meteo', () => {
  let meteo: FakeOpenMeteo;
  let env: ToolEnvironment;
  before(async () => {
    meteo = await startFakeOpenMeteo();
    env = createToolEnvironment({
      dataDir: tmpdir(),
      endpoints: { openMeteoGeocoding: meteo.geocodingUrl, openMeteoForecast: meteo.forecastUrl },
    });
  });
  after(() => meteo.close());
  beforeEach(() => {
    meteo.failWith(undefined);
    meteo.requests.length = 0;
  });

  it('geocodes a Korean name in Korean and reports current weather and three days', async () => {
    const result = await call(getWeatherTool, env, { location: '서울' });
    assert.equal(result.isError, false, result.content);
    const [geocoding, forecast] = meteo.requests;
    assert.equal(geocoding?.query.get('name'), '서울');
    assert.equal(geocoding?.query.get('language'), 'ko');
    assert.equal(geocoding?.query.get('count'), '1');
    assert.equal(forecast?.query.get('timezone'), 'auto');
    assert.equal(forecast?.query.get('forecast_days'), '3');
    const report = JSON.parse(result.content);
    assert.equal(report.source, 'Open-Meteo');
    assert.equal(report.location, '서울, 서울특별시, 대한민국');
    assert.equal(report.timezone, 'Asia/Seoul');
    assert.deepEqual(report.current, {
      time: '2025-05-01T14:00',
      conditions: '맑음 / clear sky',
      temperature: '18.3°C',
      feelsLike: '17.1°C',
      humidity: '55%',
      precipitation: '0 mm',
      wind: '9.4 km/h',
    });
    assert.equal(report.daily.length, 3);
    assert.deepEqual(report.daily[1], {
      date: '2025-05-02',
      conditions: '약한 비 / slight rain',
      high: '23.3°C',
      low: '13.3°C',
      precipitation: '4.2 mm',
    });
  });

  it('geocodes an English name in English and honours days', async () => {
    const result = await call(getWeatherTool, env, { location: 'Busan', days: 1 });
    const report = JSON.parse(result.content);
    assert.equal(meteo.requests[0]?.query.get('language'), 'en');
    assert.equal(report.location, 'Busan, South Korea');
    assert.equal(report.current.conditions, '비 / moderate rain');
    assert.equal(report.daily.length, 1);
  });

  it('retries "City, Country" as the city alone, as the geocoder matches names only', async () => {
    const result = await call(getWeatherTool, env, { location: 'London, United Kingdom' });
    assert.equal(JSON.parse(result.content).location, 'London, England, United Kingdom');
    assert.deepEqual(
      meteo.requests.map((request) => request.query.get('name')),
      ['London, United Kingdom', 'London', null],
    );
  });

  it('says when no place has the name', async () => {
    const result = await call(getWeatherTool, env, { location: '아틀란티스' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^Error: Open-Meteo geocoding found no place named "아틀란티스"/);
  });

  it('refuses out-of-range days before calling anything', async () => {
    const result = await call(getWeatherTool, env, { location: '서울', days: 9 });
    assert.match(result.content, /^Error: invalid arguments for get_weather: days:/);
    assert.equal(meteo.requests.length, 0);
  });

  it('reports rate limiting with the status and a hint', async () => {
    meteo.failWith({
      kind: 'json',
      status: 429,
      body: { error: true, reason: 'Too many requests' },
    });
    const result = await call(getWeatherTool, env, { location: '서울' });
    assert.match(
      result.content,
      /^Error: Open-Meteo geocoding is rate limiting requests \(HTTP 429\)/,
    );
  });

  it('reports a forecast outage after the geocoding worked', async () => {
    const broken = await startFakeHttpServer(() => ({
      kind: 'text',
      status: 500,
      body: '<html><body>Internal Server Error</body></html>',
      contentType: 'text/html',
    }));
    const brokenEnv = { ...env, endpoints: { ...env.endpoints, openMeteoForecast: broken.url } };
    const result = await call(getWeatherTool, brokenEnv, { location: 'Seoul' });
    await broken.close();
    assert.equal(
      result.content,
      'Error: Open-Meteo is having problems (HTTP 500): "an HTML error page"; try again later',
    );
  });

  it('reports malformed and cut-off JSON', async () => {
    meteo.failWith({ kind: 'text', body: '{"results":[{"name":', contentType: 'application/json' });
    assert.match(
      (await call(getWeatherTool, env, { location: 'Seoul' })).content,
      /malformed JSON/,
    );
    meteo.failWith({ kind: 'truncated', body: '{"results":[{"name":"Seoul"' });
    assert.match(
      (await call(getWeatherTool, env, { location: 'Seoul' })).content,
      /closed the connection before its answer was complete/,
    );
  });

  it('reports an answer of the wrong shape', async () => {
    meteo.failWith({ kind: 'json', body: { results: [{ name: 'Seoul', latitude: 'north' }] } });
    const result = await call(getWeatherTool, env, { location: 'Seoul' });
    assert.match(result.content, /sent an answer in an unexpected shape: "results\.0\.latitude:/);
  });

  it('times out on a service that never answers, and aborts the request', async () => {
    meteo.failWith({ kind: 'hang' });
    const result = await call({ ...getWeatherTool, timeoutMs: 1000 }, env, { location: '서울' });
    assert.equal(result.content, 'Error: get_weather timed out after 1 s');
    assert.deepEqual(await meteo.requests[0]?.closed, { complete: false });
  });
});
