import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What a finished run reports to the metrics. */
export interface RunReport {
  status: string;
  graph: string;
  executionTime: number;
  usage: { llmCalls: number; inputTokens: number; outputTokens: number };
  toolsUsed: string[];
  errorCode?: string;
}

/**
 * The server's Prometheus metrics, in a registry of its own (several servers may share a
 * process in tests): HTTP requests and latency per route, runs by status with their
 * duration, LLM calls, tokens, tool calls by tool, errors by code, moves to a fallback
 * model, interrupts and decisions, refused credentials by code and requests refused by a
 * limit (never by owner), webhook attempts by outcome, active runs, and the process's own
 * metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'method'>;
  readonly runs: Counter<'status' | 'graph'>;
  readonly runDuration: Histogram<'graph'>;
  readonly llmCalls: Counter;
  readonly tokens: Counter<'kind'>;
  readonly toolCalls: Counter<'tool'>;
  readonly errors: Counter<'code'>;
  readonly modelFallbacks: Counter<'from' | 'to'>;
  readonly guardrails: Counter<'name' | 'stage' | 'action'>;
  readonly interrupts: Counter<'tool'>;
  readonly decisions: Counter<'decision'>;
  readonly authFailures: Counter<'code'>;
  readonly limitedRequests: Counter<'limit'>;
  readonly webhookAttempts: Counter<'outcome'>;

  constructor(options: { activeRuns: () => number; startedAt: number }) {
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: 'yeoul_http_requests_total',
      help: 'HTTP requests answered, by route, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'yeoul_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (streams: until the stream ended)',
      labelNames: ['route', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.runs = new Counter({
      name: 'yeoul_runs_total',
      help: 'Agent runs, by graph and final status',
      labelNames: ['status', 'graph'],
      registers,
    });
    this.runDuration = new Histogram({
      name: 'yeoul_run_duration_seconds',
      help: 'Time an agent run took',
      labelNames: ['graph'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers,
    });
    this.llmCalls = new Counter({
      name: 'yeoul_llm_calls_total',
      help: 'Model calls made by agent runs',
      registers,
    });
    this.tokens = new Counter({
      name: 'yeoul_tokens_total',
      help: 'Model tokens, by kind (input, output)',
      labelNames: ['kind'],
      registers,
    });
    this.toolCalls = new Counter({
      name: 'yeoul_tool_calls_total',
      help: 'Tool calls made by agent runs, by tool',
      labelNames: ['tool'],
      registers,
    });
    this.errors = new Counter({
      name: 'yeoul_errors_total',
      help: 'Errors, by code: failed model calls (model_*) and error answers of the API',
      labelNames: ['code'],
      registers,
    });
    this.modelFallbacks = new Counter({
      name: 'yeoul_model_fallbacks_total',
      help: 'Model calls that moved on from a failed model to the next of the chain, by model',
      labelNames: ['from', 'to'],
      registers,
    });
    this.interrupts = new Counter({
      name: 'yeoul_interrupts_total',
      help: 'Tool calls that paused a run for approval, by tool',
      labelNames: ['tool'],
      registers,
    });
    this.decisions = new Counter({
      name: 'yeoul_decisions_total',
      help: 'Approval decisions applied, by decision (approve, deny)',
      labelNames: ['decision'],
      registers,
    });
    this.guardrails = new Counter({
      name: 'yeoul_guardrail_total',
      help: 'Guardrail actions (each a guardrail event), by guardrail, stage and action',
      labelNames: ['name', 'stage', 'action'],
      registers,
    });
    this.authFailures = new Counter({
      name: 'yeoul_auth_failures_total',
      help: 'Requests refused for their credentials, by code (unauthorized, invalid_token, insufficient_scope)',
      labelNames: ['code'],
      registers,
    });
    this.limitedRequests = new Counter({
      name: 'yeoul_limited_requests_total',
      help: 'Run requests refused by a per-owner limit, by limit (requests_per_minute, tokens_per_day, tokens_per_month)',
      labelNames: ['limit'],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'yeoul_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retry, failed)',
      labelNames: ['outcome'],
      registers,
    });
    // Each outcome is shown from the start, at 0 until an attempt has it.
    for (const outcome of ['delivered', 'retry', 'failed'])
      this.webhookAttempts.inc({ outcome }, 0);
    new Gauge({
      name: 'yeoul_active_runs',
      help: 'Agent runs going or waiting in this process',
      registers,
      collect() {
        this.set(options.activeRuns());
      },
    });
    new Gauge({
      name: 'yeoul_uptime_seconds',
      help: 'Seconds since the server started',
      registers,
      collect() {
        this.set(Math.round((Date.now() - options.startedAt) / 1000));
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'yeoul_' });
  }

  /** Records one answered HTTP request. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.httpRequests.inc({ route, method, status: String(status) });
    this.httpDuration.observe({ route, method }, seconds);
  }

  /** Records a finished agent run: its status, duration, model calls, tokens and tools. */
  observeRun(run: RunReport): void {
    this.runs.inc({ status: run.status, graph: run.graph });
    this.runDuration.observe({ graph: run.graph }, run.executionTime);
    this.llmCalls.inc(run.usage.llmCalls);
    this.tokens.inc({ kind: 'input' }, run.usage.inputTokens);
    this.tokens.inc({ kind: 'output' }, run.usage.outputTokens);
    for (const tool of run.toolsUsed) this.toolCalls.inc({ tool });
  }

  /** The text exposition format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
