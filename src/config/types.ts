import {
  type BuiltinGraphName,
  builtinGraphNames,
  type GraphKit,
  type MemorySettings,
} from '../agents/index.ts';
import type { Scorer } from '../evals/index.ts';
import type { StateGraph } from '../graph/index.ts';
import type { GuardrailsConfig } from '../guardrails/index.ts';
import type { AuthSettings } from '../identity/index.ts';
import type { ModelChainSpec } from '../models/index.ts';
import type { Permission, ToolDefinition } from '../tools/index.ts';

/** The built-in agents a config file may configure (its `agents` keys): the graph registry's. */
export const builtinAgentNames = builtinGraphNames;

/** A built-in agent's name. */
export type BuiltinAgentName = BuiltinGraphName;

/** How a config file configures one built-in agent. */
export interface AgentSettings {
  /** Replaces the first paragraph of the agent's system prompt (up to its first blank line). */
  persona?: string;
  /** Exactly the tools the agent is offered, by name (built-in, MCP or the config's own). */
  tools?: string[];
  /**
   * `provider:model id`, or any AI SDK language model object; an array of them is a fallback
   * chain, the primary first.
   */
  model?: ModelChainSpec;
  /** The conversation memory's limits (default: summary at 10 messages, 5 kept, 3 summaries). */
  memory?: Partial<MemorySettings>;
}

/** A graph a config file serves: a StateGraph (uncompiled), or a factory that builds one from the kit. */
export type UserGraph =
  // biome-ignore lint/suspicious/noExplicitAny: user graphs have states of their own
  | StateGraph<any, any>
  // biome-ignore lint/suspicious/noExplicitAny: user graphs have states of their own
  | ((kit: GraphKit) => StateGraph<any, any> | Promise<StateGraph<any, any>>);

/** What the environment sets about models, in a config file (the environment still wins). */
export interface ModelsSettings {
  /**
   * The default model of every agent (`YEOUL_MODEL`), or an AI SDK model object; an array of
   * them is a fallback chain, the primary first.
   */
  default?: ModelChainSpec;
  /** `YEOUL_MODEL_COOLDOWN_MS`: how long a model whose call moved on is skipped (0: never). */
  cooldownMs?: number;
  /** `YEOUL_EMBEDDING_MODEL`. */
  embedding?: string;
  /** `YEOUL_MODEL_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** `YEOUL_MAX_INPUT_TOKENS`. */
  maxInputTokens?: number;
  /** `YEOUL_MAX_OUTPUT_TOKENS`. */
  maxOutputTokens?: number;
}

/** The knowledge base's settings (`YEOUL_SEARCH_URL`, `YEOUL_SAMPLE_KNOWLEDGE`). */
export interface KnowledgeSettings {
  searchUrl?: string;
  /** Ingest the bundled sample documents on the first start (default true). */
  sampleDocuments?: boolean;
}

/**
 * Per-owner limits (`YEOUL_REQUESTS_PER_MINUTE`, `YEOUL_TOKENS_PER_DAY`,
 * `YEOUL_TOKENS_PER_MONTH`); unset = no limit, and the environment wins.
 */
export interface LimitsSettings {
  /** Run requests an owner may start in any 60 seconds (a sliding window). */
  requestsPerMinute?: number;
  /** Model tokens (input + output) an owner's runs may use per UTC day. */
  tokensPerDay?: number;
  /** The same per UTC calendar month. */
  tokensPerMonth?: number;
}

/**
 * What `yeoul.config.ts` default-exports (docs/reference/config-file.md). Every key is
 * optional; the environment still works alone, and where both set a value the
 * environment wins.
 */
export interface YeoulConfig {
  // biome-ignore lint/suspicious/noExplicitAny: tools take inputs of their own types
  tools?: ToolDefinition<any>[];
  agents?: Partial<Record<BuiltinAgentName, AgentSettings>>;
  graphs?: Record<string, UserGraph>;
  /** Evaluation scorers made with `defineScorer` (`yeoul eval --scorers NAME`). */
  scorers?: Scorer[];
  models?: ModelsSettings;
  /** Servers in the `YEOUL_MCP_CONFIG` format (`{NAME: {command, args?, env?} | {url, headers?}}`). */
  mcpServers?: Record<string, Record<string, unknown>>;
  /** Tool permissions by name (`YEOUL_TOOL_PERMISSIONS` overrides them). */
  permissions?: Record<string, Permission>;
  knowledge?: KnowledgeSettings;
  /** Where `query_logs` reads (`YEOUL_LOGS`). */
  logs?: string;
  /** Prometheus HTTP API base for `query_metrics` (`YEOUL_PROMETHEUS_URL`). */
  prometheusUrl?: string;
  /** Who may call: end-user tokens (`auth.jwt`, the `YEOUL_JWT_*` variables win) and a hook of its own. */
  auth?: AuthSettings;
  /** Per-owner limits of run requests and tokens. */
  limits?: LimitsSettings;
  /**
   * Checks on what users send, what the model answers and every tool call: lists per stage
   * (`input`, `output`, `tools`) and per chat graph (`graphs`).
   */
  guardrails?: GuardrailsConfig;
}

/** A config file, read and checked. */
export interface LoadedConfig {
  /** The file it came from (absolute). */
  path: string;
  config: YeoulConfig;
  /** Every local file the config imported (itself included), for `yeoul dev` to watch. */
  files: string[];
  loadedAt: Date;
}
