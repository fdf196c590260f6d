import { z } from 'zod';
import { PlaceNotFoundError } from '../errors/place-not-found-error.ts';
import { ToolRequestError } from '../errors/tool-request-error.ts';
import type { ToolContext } from '../types.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';
import { hasHangul } from './has-hangul.ts';
import { parseAnswer } from './parse-answer.ts';
import { serviceMessage } from './status-error.ts';

const currentSchema = z.object({
  name: z.string(),
  sys: z.object({ country: z.string().optional() }).optional(),
  main: z.object({
    temp: z.number(),
    feels_like: z.number().optional(),
    humidity: z.number().optional(),
  }),
  weather: z.array(z.object({ description: z.string() })),
  wind: z.object({ speed: z.number().optional() }).optional(),
  dt: z.number().optional(),
  timezone: z.number().optional(),
});

/**
 * Current weather from OpenWeather (used when a key is configured): one request by place
 * name, metric units, descriptions in Korean for Korean queries. It has no daily forecast.
 */
export async function fetchOpenWeatherCurrent(
  location: string,
  days: number,
  context: ToolContext,
) {
  const key = context.env.keys.openWeather ?? '';
  const url = endpointUrl('OpenWeather', context.env.endpoints.openWeather, {
    q: location,
    appid: key,
    units: 'metric',
    lang: hasHangul(location) ? 'kr' : 'en',
  });
  const explainStatus = (status: number, body: unknown) => explain(status, body, location);
  const answer = await fetchJson(
    { service: 'OpenWeather', url, secrets: [key], explainStatus },
    context,
  );
  // OpenWeather repeats the status as `cod` in the body; trust it when it disagrees with HTTP.
  const cod = Number((answer as { cod?: unknown } | null)?.cod ?? 200);
  if (cod !== 200) throw explain(cod, answer, location) ?? unexpectedCod(cod, answer);
  const weather = parseAnswer('OpenWeather', currentSchema, answer);
  const localTime =
    weather.dt === undefined
      ? undefined
      : new Date((weather.dt + (weather.timezone ?? 0)) * 1000).toISOString().slice(0, 16);
  return {
    source: 'OpenWeather',
    location: [weather.name, weather.sys?.country].filter(Boolean).join(', '),
    current: {
      time: localTime,
      conditions: weather.weather.map((entry) => entry.description).join(', ') || 'n/a',
      temperature: `${oneDecimal(weather.main.temp)}°C`,
      feelsLike:
        weather.main.feels_like === undefined ? 'n/a' : `${oneDecimal(weather.main.feels_like)}°C`,
      humidity: weather.main.humidity === undefined ? 'n/a' : `${weather.main.humidity}%`,
      wind: weather.wind?.speed === undefined ? 'n/a' : `${weather.wind.speed} m/s`,
    },
    ...(days > 1 ? { note: 'OpenWeather gives current conditions only; no daily forecast' } : {}),
  };
}

function explain(status: number, body: unknown, location: string): Error | undefined {
  if (status === 404) return new PlaceNotFoundError({ place: location, service: 'OpenWeather' });
  if (status === 401) {
    return new ToolRequestError({
      service: 'OpenWeather',
      problem: 'refused the configured API key',
      status,
      detail: serviceMessage(body)?.slice(0, 200),
      hint: 'the server administrator must fix OPENWEATHER_API_KEY (or unset it to use Open-Meteo)',
    });
  }
  return undefined;
}

function unexpectedCod(cod: number, body: unknown): ToolRequestError {
  return new ToolRequestError({
    service: 'OpenWeather',
    problem: 'reported an error',
    status: Number.isFinite(cod) ? cod : undefined,
    detail: serviceMessage(body)?.slice(0, 200),
    hint: cod === 429 ? 'wait a little before trying again' : 'try again later',
  });
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}
