import { join } from 'node:path';
import type { ToolEndpoints, ToolEnvironment } from './types.ts';

/** The public services the HTTP tools call when nothing else is configured. */
export const publicEndpoints: ToolEndpoints = {
  openMeteoGeocoding: 'https://geocoding-api.open-meteo.com/v1/search',
  openMeteoForecast: 'https://api.open-meteo.com/v1/forecast',
  openWeather: 'https://api.openweathermap.org/data/2.5/weather',
  wikipedia: 'https://{lang}.wikipedia.org/w/api.php',
  tavily: 'https://api.tavily.com/search',
};

/** A tool environment under `dataDir`, with the public endpoints unless overridden. */
export function createToolEnvironment(
  options: { dataDir: string } & Partial<Omit<ToolEnvironment, 'endpoints'>> & {
      endpoints?: Partial<ToolEndpoints>;
    },
): ToolEnvironment {
  return {
    workspaceDir: options.workspaceDir ?? join(options.dataDir, 'workspace'),
    sqlDatabasePath: options.sqlDatabasePath ?? join(options.dataDir, 'demo.sqlite'),
    endpoints: { ...publicEndpoints, ...options.endpoints },
    keys: options.keys ?? {},
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? (() => new Date()),
    ...(options.workspaceOf ? { workspaceOf: options.workspaceOf } : {}),
    ...(options.knowledge ? { knowledge: options.knowledge } : {}),
    ...(options.logs ? { logs: options.logs } : {}),
    ...(options.prometheusUrl ? { prometheusUrl: options.prometheusUrl } : {}),
  };
}
