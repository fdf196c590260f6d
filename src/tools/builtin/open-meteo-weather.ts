import { z } from 'zod';
import { PlaceNotFoundError } from '../errors/place-not-found-error.ts';
import type { ToolContext } from '../types.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';
import { hasHangul } from './has-hangul.ts';
import { parseAnswer } from './parse-answer.ts';
import { describeWeatherCode } from './weather-codes.ts';

const geocodingSchema = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().optional(),
        admin1: z.string().optional(),
        timezone: z.string().optional(),
      }),
    )
    .optional(),
});

const reading = z.number().nullable().optional();
const series = z.array(z.number().nullable());
const forecastSchema = z.object({
  timezone: z.string().optional(),
  current_units: z.record(z.string(), z.string()).optional(),
  current: z.object({
    time: z.string(),
    temperature_2m: reading,
    relative_humidity_2m: reading,
    apparent_temperature: reading,
    precipitation: reading,
    weather_code: reading,
    wind_speed_10m: reading,
  }),
  daily_units: z.record(z.string(), z.string()).optional(),
  daily: z.object({
    time: z.array(z.string()),
    weather_code: series,
    temperature_2m_max: series,
    temperature_2m_min: series,
    precipitation_sum: series,
  }),
});

type Place = NonNullable<z.infer<typeof geocodingSchema>['results']>[number];

/**
 * Weather from Open-Meteo (no key): the place is geocoded in Korean or English by the
 * query's script, then its current conditions and `days` of daily forecast are fetched.
 */
export async function fetchOpenMeteoWeather(location: string, days: number, context: ToolContext) {
  const place = await geocode(location, context);
  const { endpoints } = context.env;
  const url = endpointUrl('Open-Meteo', endpoints.openMeteoForecast, {
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    current:
      'temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m',
    daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum',
    timezone: 'auto',
    forecast_days: String(days),
  });
  const answer = await fetchJson({ service: 'Open-Meteo', url }, context);
  const forecast = parseAnswer('Open-Meteo', forecastSchema, answer);
  const current = forecast.current;
  const units = forecast.current_units ?? {};
  const dailyUnits = forecast.daily_units ?? {};
  const daily = forecast.daily;
  return {
    source: 'Open-Meteo',
    location: [...new Set([place.name, place.admin1, place.country])].filter(Boolean).join(', '),
    latitude: round(place.latitude),
    longitude: round(place.longitude),
    timezone: forecast.timezone ?? place.timezone,
    current: {
      time: current.time,
      conditions: describeWeatherCode(current.weather_code),
      temperature: measure(current.temperature_2m, units.temperature_2m ?? '°C'),
      feelsLike: measure(current.apparent_temperature, units.apparent_temperature ?? '°C'),
      humidity: measure(current.relative_humidity_2m, units.relative_humidity_2m ?? '%'),
      precipitation: measure(current.precipitation, units.precipitation ?? 'mm'),
      wind: measure(current.wind_speed_10m, units.wind_speed_10m ?? 'km/h'),
    },
    daily: daily.time.slice(0, days).map((date, day) => ({
      date,
      conditions: describeWeatherCode(daily.weather_code[day]),
      high: measure(daily.temperature_2m_max[day], dailyUnits.temperature_2m_max ?? '°C'),
      low: measure(daily.temperature_2m_min[day], dailyUnits.temperature_2m_min ?? '°C'),
      precipitation: measure(daily.precipitation_sum[day], dailyUnits.precipitation_sum ?? 'mm'),
    })),
  };
}

/** The best match for `location`; "Seoul, South Korea" is retried as "Seoul", as the API matches names only. */
async function geocode(location: string, context: ToolContext): Promise<Place> {
  const language = hasHangul(location) ? 'ko' : 'en';
  const names = new Set([location, location.split(',')[0]?.trim() ?? ''].filter(Boolean));
  for (const name of names) {
    const url = endpointUrl('Open-Meteo geocoding', context.env.endpoints.openMeteoGeocoding, {
      name,
      count: '1',
      language,
      format: 'json',
    });
    const answer = await fetchJson({ service: 'Open-Meteo geocoding', url }, context);
    const place = parseAnswer('Open-Meteo geocoding', geocodingSchema, answer).results?.[0];
    if (place !== undefined) return place;
  }
  throw new PlaceNotFoundError({ place: location, service: 'Open-Meteo geocoding' });
}

function measure(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return 'n/a';
  return unit === '°C' || unit === '%' ? `${value}${unit}` : `${value} ${unit}`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
