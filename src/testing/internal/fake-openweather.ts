import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';
import { findFakePlace } from './fake-places.ts';

/** The fake OpenWeather current-weather service. */
export interface FakeOpenWeather extends FakeHttpServer {
  /** Stands in for `https://api.openweathermap.org/data/2.5/weather`. */
  weatherUrl: string;
}

/** OpenWeather's `weather` entries for the WMO codes the fake places use. */
const conditions: Record<number, { id: number; main: string; en: string; kr: string }> = {
  0: { id: 800, main: 'Clear', en: 'clear sky', kr: '맑음' },
  1: { id: 801, main: 'Clouds', en: 'few clouds', kr: '약간의 구름이 낀 하늘' },
  2: { id: 802, main: 'Clouds', en: 'scattered clouds', kr: '구름조금' },
  3: { id: 804, main: 'Clouds', en: 'overcast clouds', kr: '흐림' },
  51: { id: 300, main: 'Drizzle', en: 'light intensity drizzle', kr: '실 비' },
  61: { id: 500, main: 'Rain', en: 'light rain', kr: '실 비' },
  63: { id: 501, main: 'Rain', en: 'moderate rain', kr: '보통 비' },
};

/**
 * Starts a fake OpenWeather `/data/2.5/weather` speaking its real wire format: the
 * current-weather object for `q=` (a Korean or English city name, optionally `,country`),
 * `{cod: 401, message}` for a wrong `appid`, `{cod: "404", message: "city not found"}`.
 */
export async function startFakeOpenWeather(options: {
  apiKey: string;
  now?: Date;
}): Promise<FakeOpenWeather> {
  const now = options.now ?? new Date('2025-05-01T05:00:00Z');
  const server = await startFakeHttpServer(({ path, query }) => {
    if (path !== '/data/2.5/weather') {
      return { kind: 'json', status: 404, body: { cod: '404', message: 'Internal error' } };
    }
    return currentWeather(query, options.apiKey, now);
  });
  return { ...server, weatherUrl: `${server.url}/data/2.5/weather` };
}

function currentWeather(query: URLSearchParams, apiKey: string, now: Date): FakeReply {
  if (query.get('appid') !== apiKey) {
    const message =
      'Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.';
    return { kind: 'json', status: 401, body: { cod: 401, message } };
  }
  const q = query.get('q');
  if (q === null || q.trim() === '') {
    return { kind: 'json', status: 400, body: { cod: '400', message: 'Nothing to geocode' } };
  }
  const place = findFakePlace(q.split(',')[0] ?? '');
  if (place === undefined) {
    return { kind: 'json', status: 404, body: { cod: '404', message: 'city not found' } };
  }
  const metric = query.get('units') === 'metric';
  const celsius = place.temperature;
  const temperature = (value: number) => Math.round((metric ? value : value + 273.15) * 100) / 100;
  const condition = conditions[place.weatherCodes[0] ?? 0] ?? (conditions[0] as never);
  const korean = query.get('lang') === 'kr' || query.get('lang') === 'ko';
  const dt = Math.floor(now.getTime() / 1000);
  return {
    kind: 'json',
    body: {
      coord: { lon: place.longitude, lat: place.latitude },
      weather: [
        {
          id: condition.id,
          main: condition.main,
          description: korean ? condition.kr : condition.en,
          icon: '01d',
        },
      ],
      base: 'stations',
      main: {
        temp: temperature(celsius),
        feels_like: temperature(celsius - 0.9),
        temp_min: temperature(celsius - 1.5),
        temp_max: temperature(celsius + 1.1),
        pressure: 1016,
        humidity: 52,
        sea_level: 1016,
        grnd_level: 1011,
      },
      visibility: 10_000,
      wind: { speed: metric ? 3.6 : 8.05, deg: 270 },
      clouds: { all: 0 },
      dt,
      sys: {
        type: 1,
        id: 8105,
        country: place.countryCode,
        sunrise: dt - 30_000,
        sunset: dt + 18_000,
      },
      timezone: place.utcOffsetSeconds,
      id: place.id,
      name: place.name.en,
      cod: 200,
    },
  };
}
