import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';
import { type FakePlace, fakePlaces, findFakePlace } from './fake-places.ts';

/** The fake Open-Meteo: geocoding and forecast on one local server. */
export interface FakeOpenMeteo extends FakeHttpServer {
  /** Stands in for `https://geocoding-api.open-meteo.com/v1/search`. */
  geocodingUrl: string;
  /** Stands in for `https://api.open-meteo.com/v1/forecast`. */
  forecastUrl: string;
}

const units: Record<string, string> = {
  time: 'iso8601',
  interval: 'seconds',
  temperature_2m: '°C',
  relative_humidity_2m: '%',
  apparent_temperature: '°C',
  precipitation: 'mm',
  weather_code: 'wmo code',
  wind_speed_10m: 'km/h',
  temperature_2m_max: '°C',
  temperature_2m_min: '°C',
  precipitation_sum: 'mm',
};
const currentVariables = new Set(Object.keys(units).slice(2, 8));
const dailyVariables = new Set(['weather_code', ...Object.keys(units).slice(8)]);

/**
 * Starts a fake Open-Meteo speaking its real wire format: `{results: [...]}` from geocoding
 * (no `results` key when nothing matches), `current`/`daily` with units from the forecast,
 * and `{error: true, reason}` with status 400 for bad parameters. It knows {@link fakePlaces}.
 */
export async function startFakeOpenMeteo(options: { now?: Date } = {}): Promise<FakeOpenMeteo> {
  const now = options.now ?? new Date('2025-05-01T05:00:00Z');
  const server = await startFakeHttpServer(({ path, query }) => {
    if (path === '/v1/search') return geocode(query);
    if (path === '/v1/forecast') return forecast(query, now);
    return {
      kind: 'text',
      status: 404,
      body: '<html><body>Not Found</body></html>',
      contentType: 'text/html',
    };
  });
  return {
    ...server,
    geocodingUrl: `${server.url}/v1/search`,
    forecastUrl: `${server.url}/v1/forecast`,
  };
}

function badRequest(reason: string): FakeReply {
  return { kind: 'json', status: 400, body: { error: true, reason } };
}

function geocode(query: URLSearchParams): FakeReply {
  const name = query.get('name');
  const count = Number(query.get('count') ?? 10);
  if (name === null) return badRequest("Parameter 'name' is required");
  if (!(count >= 1 && count <= 100))
    return badRequest('Parameter count must be between 1 and 100.');
  const language = query.get('language') === 'ko' ? 'ko' : 'en';
  const place = name.trim().length < 2 ? undefined : findFakePlace(name);
  if (place === undefined) return { kind: 'json', body: { generationtime_ms: 0.42 } };
  const result = {
    id: place.id,
    name: place.name[language],
    latitude: place.latitude,
    longitude: place.longitude,
    elevation: place.elevation,
    feature_code: 'PPLA',
    country_code: place.countryCode,
    admin1_id: place.id - 1,
    timezone: place.timezone,
    population: place.population,
    country_id: place.id - 7,
    country: place.country[language],
    admin1: place.admin1[language],
  };
  return { kind: 'json', body: { results: [result], generationtime_ms: 0.61 } };
}

function forecast(query: URLSearchParams, now: Date): FakeReply {
  const latitude = Number(query.get('latitude'));
  const longitude = Number(query.get('longitude'));
  if (!query.has('latitude') || !(Math.abs(latitude) <= 90)) {
    return badRequest(`Latitude must be in range of -90 to 90°. Given: ${query.get('latitude')}.`);
  }
  if (!query.has('longitude') || !(Math.abs(longitude) <= 180)) {
    return badRequest(
      `Longitude must be in range of -180 to 180°. Given: ${query.get('longitude')}.`,
    );
  }
  const days = Number(query.get('forecast_days') ?? 7);
  if (!(Number.isInteger(days) && days >= 0 && days <= 16)) {
    return badRequest('Forecast days is invalid. Allowed range 0 to 16.');
  }
  const current = (query.get('current') ?? '').split(',').filter(Boolean);
  const daily = (query.get('daily') ?? '').split(',').filter(Boolean);
  const unknown = [
    ...current.filter((name) => !currentVariables.has(name)),
    ...daily.filter((name) => !dailyVariables.has(name)),
  ];
  if (unknown.length > 0) {
    return badRequest(`Cannot initialize WeatherVariable from invalid String value ${unknown[0]}.`);
  }
  if (daily.length > 0 && !query.has('timezone')) {
    return badRequest("Parameter 'timezone' is required when requesting daily data.");
  }
  const place = nearestPlace(latitude, longitude);
  const local = new Date(now.getTime() + place.utcOffsetSeconds * 1000);
  const currentValues: Record<string, number> = {
    temperature_2m: place.temperature,
    relative_humidity_2m: 55,
    apparent_temperature: Math.round((place.temperature - 1.2) * 10) / 10,
    precipitation: (place.weatherCodes[0] ?? 0) >= 51 ? 1.4 : 0,
    weather_code: place.weatherCodes[0] ?? 0,
    wind_speed_10m: 9.4,
  };
  const dates = Array.from({ length: days }, (_, day) =>
    new Date(local.getTime() + day * 86_400_000).toISOString().slice(0, 10),
  );
  const code = (day: number) => place.weatherCodes[(day + 1) % place.weatherCodes.length] as number;
  const dailyValues: Record<string, number[]> = {
    weather_code: dates.map((_, day) => code(day)),
    temperature_2m_max: dates.map(
      (_, day) => Math.round((place.temperature + 4 + (day % 3)) * 10) / 10,
    ),
    temperature_2m_min: dates.map(
      (_, day) => Math.round((place.temperature - 6 + (day % 2)) * 10) / 10,
    ),
    precipitation_sum: dates.map((_, day) => (code(day) >= 51 ? 3.2 + day : 0)),
  };
  const pick = <T>(names: string[], values: Record<string, T>) =>
    Object.fromEntries(names.map((name) => [name, values[name]]));
  const timezone =
    query.get('timezone') === 'auto' ? place.timezone : (query.get('timezone') ?? 'GMT');
  return {
    kind: 'json',
    body: {
      latitude: Math.round(latitude * 40) / 40,
      longitude: Math.round(longitude * 40) / 40,
      generationtime_ms: 0.08,
      utc_offset_seconds: timezone === 'GMT' ? 0 : place.utcOffsetSeconds,
      timezone,
      timezone_abbreviation: timezone === 'GMT' ? 'GMT' : `GMT+${place.utcOffsetSeconds / 3600}`,
      elevation: place.elevation,
      ...(current.length === 0
        ? {}
        : {
            current_units: pick(['time', 'interval', ...current], units),
            current: {
              time: `${local.toISOString().slice(0, 13)}:00`,
              interval: 900,
              ...pick(current, currentValues),
            },
          }),
      ...(daily.length === 0
        ? {}
        : {
            daily_units: pick(['time', ...daily], units),
            daily: { time: dates, ...pick(daily, dailyValues) },
          }),
    },
  };
}

/** The known place nearest the coordinates; far from all of them, a mild, clear nowhere. */
function nearestPlace(latitude: number, longitude: number): FakePlace {
  const near = fakePlaces.find(
    (place) =>
      Math.abs(place.latitude - latitude) < 0.5 && Math.abs(place.longitude - longitude) < 0.5,
  );
  return (
    near ?? {
      ...(fakePlaces[0] as FakePlace),
      timezone: 'GMT',
      utcOffsetSeconds: 0,
      weatherCodes: [0],
      temperature: 15,
    }
  );
}
