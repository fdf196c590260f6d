import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeOpenMeteo,
  type FakeOpenWeather,
  startFakeOpenMeteo,
  startFakeOpenWeather,
} from '../../testing/internal/index.ts';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolDefinition, ToolEnvironment, ToolResult } from '../types.ts';
import { getWeatherTool } from './get-weather.ts';

const openWeatherKey = 'ow-0123456789abcdef0123456789abcdef';

async function call<Input>(tool: ToolDefinition<Input>, env: ToolEnvironment, args: unknown) {
  const executor = new ToolExecutor(new ToolRegistry().register(tool), { env });
  const result: ToolResult = await executor.execute({ id: 'call-1', name: tool.name, args });
  assert.ok(!result.content.includes(openWeatherKey), 'the API key leaked into a result');
  return result;
}

describe('get_weather with OpenWeather', () => {
  let openWeather: FakeOpenWeather;
  let meteo: FakeOpenMeteo;
  const envWith = (key: string) =>
    createToolEnvironment({
      dataDir: tmpdir(),
      endpoints: {
        openWeather: openWeather.weatherUrl,
        openMeteoGeocoding: meteo.geocodingUrl,
        openMeteoForecast: meteo.forecastUrl,
      },
      keys: { openWeather: key },
    });
  before(async () => {
    openWeather = await startFakeOpenWeather({ apiKey: openWeatherKey });
    meteo = await startFakeOpenMeteo();
  });
  after(async () => {
    await openWeather.close();
    await meteo.close();
  });
  beforeEach(() => openWeather.failWith(undefined));

  it('uses OpenWeather when its key is set, in Korean for a Korean name', async () => {
    const result = await call(getWeatherTool, envWith(openWeatherKey), { location: '서울' });
    assert.equal(result.isError, false, result.content);
    assert.equal(meteo.requests.length, 0);
    const query = openWeather.requests.at(-1)?.query;
    assert.equal(query?.get('q'), '서울');
    assert.equal(query?.get('units'), 'metric');
    assert.equal(query?.get('lang'), 'kr');
    assert.deepEqual(JSON.parse(result.content), {
      source: 'OpenWeather',
      location: 'Seoul, KR',
      current: {
        time: '2025-05-01T14:00',
        conditions: '맑음',
        temperature: '18.3°C',
        feelsLike: '17.4°C',
        humidity: '52%',
        wind: '3.6 m/s',
      },
      note: 'OpenWeather gives current conditions only; no daily forecast',
    });
  });

  it('asks in English for an English name and leaves the note out for one day', async () => {
    const result = await call(getWeatherTool, envWith(openWeatherKey), {
      location: 'London',
      days: 1,
    });
    const report = JSON.parse(result.content);
    assert.equal(openWeather.requests.at(-1)?.query.get('lang'), 'en');
    assert.equal(report.current.conditions, 'overcast clouds');
    assert.equal(report.note, undefined);
  });

  it('says the configured key was refused, without showing it', async () => {
    const result = await call(getWeatherTool, envWith('wrong-key-123456'), { location: 'Seoul' });
    assert.match(result.content, /^Error: OpenWeather refused the configured API key \(HTTP 401\)/);
    assert.match(result.content, /OPENWEATHER_API_KEY/);
    assert.ok(!result.content.includes('wrong-key-123456'));
  });

  it('keeps the key out even when the service echoes it', async () => {
    const body = { cod: 401, message: `Invalid API key ${openWeatherKey}` };
    openWeather.failWith({ kind: 'json', status: 401, body });
    const result = await call(getWeatherTool, envWith(openWeatherKey), { location: 'Seoul' });
    assert.match(result.content, /Invalid API key \[redacted\]/);
  });

  it('says when the city is unknown, from the status or from `cod`', async () => {
    const env = envWith(openWeatherKey);
    assert.match(
      (await call(getWeatherTool, env, { location: 'Atlantis' })).content,
      /^Error: OpenWeather found no place named "Atlantis"/,
    );
    openWeather.failWith({ kind: 'json', body: { cod: '404', message: 'city not found' } });
    assert.match(
      (await call(getWeatherTool, env, { location: 'Seoul' })).content,
      /found no place/,
    );
  });

  it('reports rate limiting', async () => {
    const message = 'Your account is temporary blocked due to exceeding of requests limitation';
    openWeather.failWith({ kind: 'json', status: 429, body: { cod: 429, message } });
    const result = await call(getWeatherTool, envWith(openWeatherKey), { location: 'Seoul' });
    assert.match(result.content, /^Error: OpenWeather is rate limiting requests \(HTTP 429\)/);
  });

  it('times out on a service that never answers, and aborts the request', async () => {
    openWeather.failWith({ kind: 'hang' });
    const tool = { ...getWeatherTool, timeoutMs: 1000 };
    const result = await call(tool, envWith(openWeatherKey), { location: 'Seoul' });
    assert.equal(result.content, 'Error: get_weather timed out after 1 s');
    assert.deepEqual(await openWeather.requests.at(-1)?.closed, { complete: false });
  });
});
