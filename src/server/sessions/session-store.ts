import { defaultGraphName, isBuiltinGraph } from '../../agents/index.ts';
import { HttpError } from '../http/http-error.ts';

/** One session as listings show it. */
export interface SessionSummary {
  sessionId: string;
  /** The first user message, shortened: what the session is about. */
  title: string;
  createdAt: number;
  /** The user graph the session runs on; the default graph's name for the built-in agents' sessions. */
  graph: string;
  /** The session and step it was forked from, when it is a fork. */
  forkedFrom?: ForkOrigin;
}

/** Where a fork came from: its original session and the step it was taken after. */
export interface ForkOrigin {
  sessionId: string;
  step: number;
}

/**
 * The one registry of sessions, shared by the HTTP API and the CLI: who owns each (a hash
 * of the API key that created it, or `anonymous`), when it was made and what it is about.
 * Every store (SQLite here, PostgreSQL for several instances) implements it.
 */
export interface SessionStore {
  /**
   * Registers a new session for `owner` (titled by its first message, on the graph the
   * request names), or checks that an existing one is theirs: another owner's session is a
   * 404, as if it did not exist. A session stays with the user graph that started it (or
   * with the built-in agents): a request naming another one is a 409 `graph_mismatch`.
   * A fork is registered with where it came from (`forkedFrom`), listed with the session.
   * Resolves true when this call registered the session, false when it was there already.
   */
  claim(
    sessionId: string,
    owner: string,
    firstMessage?: string,
    graph?: string,
    forkedFrom?: ForkOrigin,
  ): Promise<boolean>;
  /**
   * Titles a registered session by its first message when it has no title yet (one write;
   * nothing for an unknown or titled session): a title that waited for the input guardrails.
   */
  title(sessionId: string, firstMessage: string): Promise<void>;
  /** The user graph a session runs on; undefined for the built-in agents' (and unknown) sessions. */
  graphOf(sessionId: string): Promise<string | undefined>;
  /** Throws 404 unless the session is `owner`'s (an unregistered one counts as anonymous). */
  check(sessionId: string, owner: string): Promise<void>;
  /** The session's owner; undefined when it is not registered. */
  ownerOf(sessionId: string): Promise<string | undefined>;
  /** Whether the session is registered (to anyone). */
  has(sessionId: string): Promise<boolean>;
  /** Which of these sessions are registered (to anyone), in one lookup. */
  registered(sessionIds: string[]): Promise<Set<string>>;
  /** The sessions `owner` may see, newest first. */
  owned(owner: string): Promise<SessionSummary[]>;
  /** Removes the session from the registry. */
  forget(sessionId: string): Promise<void>;
}

/** A registry row as both stores read it. */
export interface SessionRow extends Record<string, unknown> {
  session_id: string;
  title: string;
  created_at: number | string;
  graph: string;
  forked_from: string | null;
  forked_at_step: number | null;
}

/** A listing's summary of a registry row. */
export function summaryOf(row: SessionRow): SessionSummary {
  return {
    sessionId: row.session_id,
    title: row.title,
    createdAt: Number(row.created_at),
    graph: row.graph || defaultGraphName,
    ...(row.forked_from === null || row.forked_at_step === null
      ? {}
      : { forkedFrom: { sessionId: row.forked_from, step: Number(row.forked_at_step) } }),
  };
}

/** A session's title from its first message: one line, at most 80 characters. */
export function titleOf(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** What a session's row records of the graph a request names: a user graph's name, or '' for the built-ins. */
export function storedGraph(graph: string | undefined): string {
  return graph === undefined || isBuiltinGraph(graph) ? '' : graph;
}

/**
 * Refuses a request that names another graph than the one its session runs on (a user
 * graph's session stays with it; a built-in agents' session takes no user graph).
 */
export function checkGraph(sessionId: string, stored: string, requested: string | undefined): void {
  if (requested === undefined || storedGraph(requested) === stored) return;
  throw new HttpError({
    status: 409,
    code: 'graph_mismatch',
    message: `session "${sessionId}" runs on the graph "${stored || defaultGraphName}", not "${requested}"; start a new session for "${requested}"`,
  });
}

/** The 404 of a session that does not exist, or is another owner's. */
export function notFound(sessionId: string): HttpError {
  return new HttpError({ status: 404, code: 'not_found', message: `no session "${sessionId}"` });
}
