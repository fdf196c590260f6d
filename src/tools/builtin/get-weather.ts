import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { fetchOpenMeteoWeather } from './open-meteo-weather.ts';
import { fetchOpenWeatherCurrent } from './openweather-current.ts';

/**
 * `get_weather`: current weather and a short daily forecast for a place named in
 * Korean or English. Open-Meteo by default (no key); OpenWeather when its key is set.
 * @example
 * await executor.execute({ id: 'c1', name: 'get_weather', args: { location: '서울', days: 2 } });
 */
export const getWeatherTool = defineTool({
  name: 'get_weather',
  description:
    'Current weather and a daily forecast for a city or place, named in Korean or English ' +
    '("서울", "부산", "Seoul", "London"). Returns temperature (°C), feels-like, humidity, ' +
    'precipitation, wind and conditions in Korean and English, plus daily highs and lows.',
  inputSchema: z.object({
    location: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('City or place name, Korean or English, e.g. "서울" or "Busan"'),
    days: z
      .number()
      .int()
      .min(1)
      .max(7)
      .default(3)
      .describe('Days of daily forecast including today, 1–7'),
  }),
  execute: async ({ location, days }, context) =>
    context.env.keys.openWeather
      ? fetchOpenWeatherCurrent(location, days, context)
      : fetchOpenMeteoWeather(location, days, context),
});
