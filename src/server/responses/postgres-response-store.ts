import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { ResponseStore, StoredConversation, StoredResponse } from './response-store.ts';

interface ResponseRow extends Record<string, unknown> {
  response_id: string;
  session_id: string;
  owner: string;
  run_id: string;
  step: number;
  created_at: string;
  body: Record<string, unknown>;
}

/**
 * The responses and conversations' metadata in PostgreSQL (`server_responses`,
 * `server_conversations`, from `responseMigrations`): a response made through one instance
 * is fetched, continued or deleted through any other. Same rules as the SQLite store.
 * @example
 * const responses = new PostgresResponseStore(pool);
 */
export class PostgresResponseStore implements ResponseStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async save(response: StoredResponse): Promise<void> {
    await queryPostgres(
      this.#pool,
      `INSERT INTO server_responses
         (response_id, session_id, owner, run_id, step, created_at, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (response_id) DO UPDATE SET session_id = $2, owner = $3, run_id = $4,
         step = $5, created_at = $6, body = $7::jsonb`,
      [
        response.id,
        response.sessionId,
        response.owner,
        response.runId,
        response.step,
        response.createdAt,
        JSON.stringify(response.body),
      ],
    );
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const { rows } = await queryPostgres<ResponseRow>(
      this.#pool,
      'SELECT * FROM server_responses WHERE response_id = $1',
      [id],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      id: row.response_id,
      owner: row.owner,
      sessionId: row.session_id,
      runId: row.run_id,
      step: Number(row.step),
      createdAt: Number(row.created_at),
      body: row.body,
    };
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      'DELETE FROM server_responses WHERE response_id = $1',
      [id],
    );
    return rowCount === 1;
  }

  async saveConversation(conversation: StoredConversation): Promise<void> {
    await queryPostgres(
      this.#pool,
      `INSERT INTO server_conversations (session_id, owner, created_at, metadata)
       VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (session_id) DO UPDATE SET owner = $2, created_at = $3, metadata = $4::jsonb`,
      [
        conversation.sessionId,
        conversation.owner,
        conversation.createdAt,
        JSON.stringify(conversation.metadata),
      ],
    );
  }

  async conversation(sessionId: string): Promise<StoredConversation | undefined> {
    const { rows } = await queryPostgres<{
      session_id: string;
      owner: string;
      created_at: string;
      metadata: Record<string, string>;
    }>(this.#pool, 'SELECT * FROM server_conversations WHERE session_id = $1', [sessionId]);
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      sessionId: row.session_id,
      owner: row.owner,
      createdAt: Number(row.created_at),
      metadata: row.metadata,
    };
  }

  async deleteSession(sessionId: string): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM server_responses WHERE session_id = $1', [
      sessionId,
    ]);
    await queryPostgres(this.#pool, 'DELETE FROM server_conversations WHERE session_id = $1', [
      sessionId,
    ]);
  }
}
