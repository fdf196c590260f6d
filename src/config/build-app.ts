import {
  type AgentDependencies,
  createGraphKit,
  isChatSchema,
  type KitLogger,
  type RunnerOptions,
  type UserGraphEntry,
} from '../agents/index.ts';
import type { Checkpointer, Durability, StateGraph, StateSchema } from '../graph/index.ts';
import { compileGuardrails, type GuardrailSuite } from '../guardrails/index.ts';
import { chatModelFrom, type ModelVariables } from '../models/index.ts';
import type { Permission, ToolDefinition, ToolRegistry } from '../tools/index.ts';
import { type BuiltinAgentName, builtinAgentNames, type YeoulConfig } from './types.ts';

/** What a config is applied to: the server's default agent dependencies and its stores. */
export interface AppBase {
  /** The chat agent's dependencies as the environment configures them (tools: built-in + MCP). */
  deps: AgentDependencies;
  checkpointer: Checkpointer;
  /** The model variables an agent's `provider:model id` is resolved with (keys, base URLs). */
  env: ModelVariables;
  logger: KitLogger;
  /** `YEOUL_TOOL_PERMISSIONS` entries for non-MCP tools (they win over the config's). */
  envPermissions: ReadonlyArray<[string, Permission]>;
  /** Tool-name prefixes of the configured MCP servers (`NAME__`): their tools join later. */
  mcpPrefixes: readonly string[];
  /** The server's durability mode (`YEOUL_DURABILITY`), for the config's graphs too. */
  durability?: Durability;
  /** `YEOUL_GUARDRAILS` as read: `off`, or the built-ins that replace the config's global lists. */
  envGuardrails?: string[] | 'off';
}

/** What the runtime runs on for one version of the config file. */
export interface App {
  /** The built-in, MCP and config tools, with permissions applied. */
  registry: ToolRegistry;
  deps: AgentDependencies;
  runner: Omit<RunnerOptions, 'graphOfSession'>;
  /** User graphs by name, chat or not. */
  graphs: readonly UserGraphEntry[];
  /** Every chat graph's guardrails (the config's, or the environment's built-ins). */
  guardrails: GuardrailSuite;
}

/**
 * Applies a config file to the server's parts: its tools over the built-in ones, tool
 * permissions (the environment's win), each built-in agent's persona, tools, model and
 * memory, and its graphs compiled with the server's checkpointer. Returns every problem,
 * each with its path in the config, instead of an app when anything cannot work.
 */
export async function buildApp(
  config: YeoulConfig | undefined,
  base: AppBase,
): Promise<{ ok: true; app: App } | { ok: false; problems: string[] }> {
  const problems: string[] = [];
  const userTools = (config?.tools ?? []) as ToolDefinition<unknown>[];
  userTools.forEach((tool, index) => {
    if (base.deps.tools.get(tool.name) !== undefined) {
      problems.push(`tools[${index}].name: "${tool.name}" is the name of a built-in tool`);
    }
  });
  if (problems.length > 0) return { ok: false, problems };
  const registry = base.deps.tools.extend(userTools);
  const known = (name: string) =>
    registry.get(name) !== undefined || base.mcpPrefixes.some((prefix) => name.startsWith(prefix));
  for (const [name, permission] of Object.entries(config?.permissions ?? {})) {
    if (!known(name)) {
      problems.push(
        `permissions.${name}: there is no tool "${name}" (tools: ${registry.names().join(', ')})`,
      );
    } else if (registry.get(name) !== undefined) registry.setPermission(name, permission);
  }
  for (const [name, permission] of base.envPermissions) {
    if (registry.get(name) !== undefined) registry.setPermission(name, permission);
    else
      problems.push(
        `YEOUL_TOOL_PERMISSIONS: there is no tool "${name}" (tools: ${registry.names().join(', ')})`,
      );
  }
  const deps: AgentDependencies = { ...base.deps, tools: registry };
  const agents: Partial<Record<BuiltinAgentName, AgentDependencies>> = {};
  for (const name of builtinAgentNames) {
    const settings = config?.agents?.[name];
    if (settings === undefined) continue;
    const agentDeps: AgentDependencies = { ...deps };
    if (settings.persona !== undefined) agentDeps.persona = settings.persona;
    if (settings.memory !== undefined) agentDeps.memory = settings.memory;
    if (settings.tools !== undefined) {
      settings.tools.forEach((tool, index) => {
        if (!known(tool)) {
          problems.push(
            `agents.${name}.tools[${index}]: there is no tool "${tool}" (tools: ${registry.names().join(', ')})`,
          );
        }
      });
      agentDeps.tools = registry.only(settings.tools);
    }
    if (settings.model !== undefined) {
      try {
        agentDeps.model = chatModelFrom(settings.model, base.env, base.deps.model.settings);
      } catch (error) {
        problems.push(...problemsOf(error).map((problem) => `agents.${name}.model: ${problem}`));
      }
    }
    agents[name] = agentDeps;
  }
  const chatDeps = agents.chat ?? deps;
  const graphs: UserGraphEntry[] = [];
  // A graph that failed to build may be a chat graph: its guardrails are not refused for that.
  const unbuilt: string[] = [];
  for (const [name, declared] of Object.entries(config?.graphs ?? {})) {
    try {
      const built =
        typeof declared === 'function'
          ? await declared(createGraphKit(chatDeps, base.logger))
          : declared;
      if (!isStateGraph(built)) {
        problems.push(`graphs.${name}: the function returned ${describe(built)}, not a StateGraph`);
        unbuilt.push(name);
        continue;
      }
      const graph = built.compile({
        name,
        checkpointer: base.checkpointer,
        ...(base.durability ? { durability: base.durability } : {}),
      });
      graphs.push({ name, graph, chat: isChatSchema(graph.schema), source: built });
    } catch (error) {
      problems.push(...problemsOf(error).map((problem) => `graphs.${name}: ${problem}`));
      unbuilt.push(name);
    }
  }
  const compiled = compileGuardrails(config?.guardrails, {
    chatGraphs: [
      ...builtinAgentNames,
      ...graphs.filter((entry) => entry.chat).map((entry) => entry.name),
      ...unbuilt,
    ],
    configTools: userTools.map((tool) => tool.name),
    ...(base.envGuardrails === undefined ? {} : { environment: base.envGuardrails }),
  });
  if (!compiled.ok) problems.push(...compiled.problems);
  if (problems.length > 0 || !compiled.ok) return { ok: false, problems };
  return {
    ok: true,
    app: {
      registry,
      deps,
      runner: { agents, userGraphs: graphs },
      graphs,
      guardrails: compiled.suite,
    },
  };
}

function isStateGraph(value: unknown): value is StateGraph<StateSchema, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { compile?: unknown }).compile === 'function' &&
    typeof (value as { addNode?: unknown }).addNode === 'function'
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (typeof (value as { invoke?: unknown }).invoke === 'function') {
    return 'a compiled graph (return the StateGraph uncompiled: Yeoul compiles it with its checkpointer)';
  }
  return 'an object';
}

/** The problems an error lists (a GraphValidationError's, a model config's), else its message. */
function problemsOf(error: unknown): string[] {
  const listed = (error as { problems?: unknown })?.problems;
  if (Array.isArray(listed) && listed.every((item) => typeof item === 'string')) return listed;
  return [error instanceof Error ? error.message : String(error)];
}
