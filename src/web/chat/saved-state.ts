import type { RunOptions } from './run-stream.ts';

const sessionKey = 'yeoul.session';
const optionsKey = 'yeoul.options';

/** A new session id, valid for the API (`[A-Za-z0-9_.:-]`), from the browser's random source. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The session a reload returns to (kept once it has a message). */
export function savedSessionId(): string | null {
  try {
    return localStorage.getItem(sessionKey);
  } catch {
    return null;
  }
}

export function saveSessionId(id: string | null): void {
  try {
    if (id) localStorage.setItem(sessionKey, id);
    else localStorage.removeItem(sessionKey);
  } catch {
    // No storage: a reload starts a new conversation.
  }
}

/** The options of a first visit: the server's default graph (no `graph`), no evaluation. */
export const defaultRunOptions: RunOptions = { evaluate: false, temperature: null };

/** The composer's last options (graph, evaluate, temperature). */
export function savedRunOptions(): RunOptions {
  try {
    const saved = JSON.parse(localStorage.getItem(optionsKey) ?? '{}') as Partial<RunOptions>;
    return {
      ...(typeof saved.graph === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(saved.graph)
        ? { graph: saved.graph }
        : {}),
      evaluate: saved.evaluate === true,
      temperature: typeof saved.temperature === 'number' ? saved.temperature : null,
    };
  } catch {
    return defaultRunOptions;
  }
}

/**
 * The options a turn on a session (a fork's) runs with: the chosen ones, on the graph the
 * session belongs to (`GET /api/sessions/:id` `graph`, when known): a user graph's session
 * stays with it, and the built-in agents' sessions take a built-in graph — the chosen one,
 * else the session's own (the server names the default graph for them).
 * `builtinGraphs`: the built-in agents' names, as GET /api/graphs lists them.
 */
export function optionsForSession(
  chosen: RunOptions,
  sessionGraph: string | undefined,
  builtinGraphs: readonly string[],
): RunOptions {
  if (sessionGraph === undefined) return chosen;
  if (!builtinGraphs.includes(sessionGraph)) return { ...chosen, graph: sessionGraph };
  return chosen.graph === undefined || builtinGraphs.includes(chosen.graph)
    ? chosen
    : { ...chosen, graph: sessionGraph };
}

export function saveRunOptions(options: RunOptions): void {
  try {
    localStorage.setItem(optionsKey, JSON.stringify(options));
  } catch {
    // Not kept: the defaults come back on reload.
  }
}
