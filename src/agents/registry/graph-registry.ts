import type { Checkpointer, Durability } from '../../graph/index.ts';
import type { buildChatGraph } from '../chat/build-chat-graph.ts';
import { UnknownGraphError } from '../errors/unknown-graph-error.ts';
import type { AgentDependencies } from '../types.ts';
import { resumeUserGraph, type UserGraphEntry, userInnerAgent } from '../user-graph-run.ts';
import { buildBuiltinEntries } from './builtin-entries.ts';
import { type BuiltinGraphName, defaultGraphName } from './builtin-graphs.ts';
import type { GraphEntry } from './graph-entry.ts';

/** What a registry is built from besides the default dependencies. */
export interface RegistryOptions {
  /** Dependencies of each built-in agent (persona, tools, model, memory), default `deps`. */
  agents?: Partial<Record<BuiltinGraphName, AgentDependencies>>;
  /** The graphs of the config file, compiled on the registry's checkpointer. */
  userGraphs?: readonly UserGraphEntry[];
  /** Where the built-in agents keep their threads (none: graphs only to look at). */
  checkpointer?: Checkpointer;
  /** How much durability the built-in agents' runs pay for (default `sync`). */
  durability?: Durability;
}

/** The evaluation loop's compiled graph. */
type EvaluationLoop = ReturnType<typeof buildBuiltinEntries>['loop'];

/**
 * Every graph of one configuration, by name: the built-in agents (the default first), then
 * the config file's graphs in its order. Listings, lookups, the unknown-graph error and the
 * runner all go through it; a built-in's name wins over a config graph of the same name.
 * @example
 * const registry = buildGraphRegistry(deps, { checkpointer, userGraphs });
 * registry.chatNames(); // ['chat', 'react', 'ops', …the config file's chat graphs]
 */
export class GraphRegistry {
  /** Every graph, built-in agents first. */
  readonly entries: readonly GraphEntry[];
  /** The loop any message asking for evaluation runs in (the evaluating built-in's graph). */
  readonly evaluationLoop: EvaluationLoop;
  readonly #byName: ReadonlyMap<string, GraphEntry>;

  constructor(entries: readonly GraphEntry[], evaluationLoop: EvaluationLoop) {
    const byName = new Map<string, GraphEntry>();
    for (const entry of entries) if (!byName.has(entry.name)) byName.set(entry.name, entry);
    this.entries = [...byName.values()];
    this.evaluationLoop = evaluationLoop;
    this.#byName = byName;
  }

  /** The graph a request runs on when it names none. */
  get default(): GraphEntry {
    return this.#byName.get(defaultGraphName) as GraphEntry;
  }

  /** The conversation graph: the default agent's, which reads any session's conversation. */
  get conversation(): ReturnType<typeof buildChatGraph> {
    return this.default.handoff.thread as unknown as ReturnType<typeof buildChatGraph>;
  }

  /** The graph of that name, if there is one. */
  get(name: string): GraphEntry | undefined {
    return this.#byName.get(name);
  }

  /** The graph of that name; an unknown name is an `UnknownGraphError` listing the graphs. */
  require(name: string): GraphEntry {
    const entry = this.#byName.get(name);
    if (entry === undefined) throw new UnknownGraphError({ graph: name, known: this.names() });
    return entry;
  }

  /** Every graph's name, built-in agents first. */
  names(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** The names of the graphs that answer messages: the built-in agents, then the config file's. */
  chatNames(): string[] {
    return this.entries.filter((entry) => entry.chat).map((entry) => entry.name);
  }
}

/** The registry of one configuration: the built-in agents built from `deps`, and the config file's graphs. */
export function buildGraphRegistry(
  deps: AgentDependencies,
  options: RegistryOptions = {},
): GraphRegistry {
  const { entries, loop } = buildBuiltinEntries({
    deps,
    ...(options.agents ? { agents: options.agents } : {}),
    compile: {
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
      ...(options.durability ? { durability: options.durability } : {}),
    },
  });
  return new GraphRegistry([...entries, ...(options.userGraphs ?? []).map(userEntry)], loop);
}

/** A config file's graph as an entry: its messages run through it, never in the loop's agent. */
function userEntry(declared: UserGraphEntry): GraphEntry {
  return {
    name: declared.name,
    builtin: false,
    chat: declared.chat,
    graph: declared.graph,
    handoff: {
      evaluate: false,
      thread: declared.graph,
      agent: (setup) => userInnerAgent(declared, setup),
      resume: (sessionId, run) => resumeUserGraph(declared, sessionId, run),
    },
  };
}
