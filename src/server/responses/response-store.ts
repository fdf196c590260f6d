/** One response of `/v1/responses` as kept: a turn of a session, with the Response object whole. */
export interface StoredResponse {
  /** `resp_…`. */
  id: string;
  owner: string;
  /** The session the response is a turn of. */
  sessionId: string;
  /** The run that answered it (a paused run's later part keeps its id). */
  runId: string;
  /** The session's last step when the response ended: where a fork taken after it starts. */
  step: number;
  /** Seconds since the epoch. */
  createdAt: number;
  /** The Response object as it was answered (plain JSON). */
  body: Record<string, unknown>;
}

/** A session's conversation fields that sessions have no room for. */
export interface StoredConversation {
  sessionId: string;
  owner: string;
  /** Seconds since the epoch. */
  createdAt: number;
  metadata: Record<string, string>;
}

/**
 * The responses of `/v1/responses` and the conversations' metadata, beside the sessions
 * (whose threads hold the conversations themselves): deleted with their session. Every
 * backend (SQLite here, PostgreSQL for several instances) implements it.
 */
export interface ResponseStore {
  /** Stores a response, replacing the one with its id. */
  save(response: StoredResponse): Promise<void>;
  /** The response with this id; undefined when unknown or deleted. */
  get(id: string): Promise<StoredResponse | undefined>;
  /** Deletes one response; false when it was not there. */
  delete(id: string): Promise<boolean>;
  /** Stores a conversation's fields, replacing those of its session. */
  saveConversation(conversation: StoredConversation): Promise<void>;
  /** A session's conversation fields; undefined when none were stored. */
  conversation(sessionId: string): Promise<StoredConversation | undefined>;
  /** Deletes the session's responses and conversation fields. */
  deleteSession(sessionId: string): Promise<void>;
}
