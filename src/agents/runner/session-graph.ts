import type { GraphEntry } from '../registry/graph-entry.ts';
import type { GraphRegistry } from '../registry/graph-registry.ts';

/**
 * Which graph a session's thread belongs to: the config file's graph that started it (as the
 * session store records it), else the built-in agent that ran its last run (its state says
 * which: the built-in agents share a session's thread), the default for a new thread.
 */
export class SessionGraphs {
  readonly #graphOfSession: (sessionId: string) => Promise<string | undefined>;

  /** `graphOfSession`: the config file's graph a session belongs to (none: a built-in's). */
  constructor(graphOfSession?: (sessionId: string) => Promise<string | undefined>) {
    this.#graphOfSession = graphOfSession ?? (async () => undefined);
  }

  /** The config file's graph the session runs on, when it is one's. */
  async userEntry(registry: GraphRegistry, sessionId: string): Promise<GraphEntry | undefined> {
    const name = await this.#graphOfSession(sessionId);
    const entry = name === undefined ? undefined : registry.get(name);
    return entry?.builtin === false ? entry : undefined;
  }

  /** The built-in agent that ran the session's last run (the default for new or older threads). */
  async agentEntry(registry: GraphRegistry, sessionId: string): Promise<GraphEntry> {
    return agentEntryOf(registry, (await registry.conversation.getState(sessionId))?.values.agent);
  }

  /** The graph that runs on the session's thread: its config file graph's, else its agent's. */
  async entry(registry: GraphRegistry, sessionId: string): Promise<GraphEntry> {
    return (
      (await this.userEntry(registry, sessionId)) ?? (await this.agentEntry(registry, sessionId))
    );
  }
}

/** The built-in agent a conversation state names (its `agent`), else the default. */
export function agentEntryOf(registry: GraphRegistry, agent: string | undefined): GraphEntry {
  const named = agent === undefined ? undefined : registry.get(agent);
  return named?.builtin ? named : registry.default;
}
