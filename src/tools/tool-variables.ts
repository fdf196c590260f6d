import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';

/** The environment variables of the tools: permissions, back-end keys, logs and metrics. */
export const toolVariables = z.object({
  YEOUL_TOOL_PERMISSIONS: environmentVariable(z.string().optional(), {
    meaning:
      '`name:allow|ask|deny,…` overriding each tool’s default permission (an MCP tool as `SERVER__tool`)',
    default: '`write_file:ask`, MCP tools `ask`, the rest `allow`',
  }),
  OPENWEATHER_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'OpenWeather’s key, for `get_weather`',
    default: 'weather from Open-Meteo',
  }),
  TAVILY_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'Tavily’s key: turns `web_search` on',
    default: 'unset = no `web_search`',
  }),
  YEOUL_PROMETHEUS_URL: environmentVariable(z.string().optional(), {
    meaning: 'Prometheus HTTP API base for `query_metrics`',
    default: 'unset = no `query_metrics`',
  }),
  YEOUL_LOGS: environmentVariable(z.string().optional(), {
    meaning:
      'where `query_logs` reads: `file:DIR` (JSON-lines or plain-text `*.log`/`*.jsonl` files), `loki:URL`, `cloudwatch:LOG_GROUP` (AWS settings from the environment), `datadog`',
    default: '`file:$YEOUL_DATA_DIR/logs`, seeded with the bundled sample logs on first start',
  }),
  DD_API_KEY: environmentVariable(z.string().optional(), {
    meaning: 'Datadog’s API key (`YEOUL_LOGS=datadog` needs it)',
  }),
  DD_APP_KEY: environmentVariable(z.string().optional(), {
    meaning: 'Datadog’s application key (`YEOUL_LOGS=datadog` needs it)',
  }),
  DD_SITE: environmentVariable(z.string().optional(), {
    meaning: 'the Datadog site',
    default: '`datadoghq.com`',
  }),
  DD_API_URL: environmentVariable(z.string().optional(), {
    meaning: 'another Datadog API base URL (a proxy)',
    default: '`https://api.` + the site',
  }),
});

/** The tools' variables as read: trimmed, an empty value unset. */
export type ToolVariables = z.output<typeof toolVariables>;
