import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch, toSqliteStoreError } from '../../core/index.ts';
import type { ResponseStore, StoredConversation, StoredResponse } from './response-store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS server_responses (
  response_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  owner TEXT NOT NULL,
  run_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS server_responses_session ON server_responses (session_id);
CREATE TABLE IF NOT EXISTS server_conversations (
  session_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL
);
`;

interface ResponseRow {
  response_id: string;
  session_id: string;
  owner: string;
  run_id: string;
  step: number;
  created_at: number;
  body: string;
}

/**
 * The responses and conversations' metadata in the embedded SQLite store, beside the
 * sessions and the checkpoints. Writes join the connection's group commit.
 * @example
 * const responses = new SqliteResponseStore(checkpointer.database);
 */
export class SqliteResponseStore implements ResponseStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #save: StatementSync;
  #get: StatementSync;
  #delete: StatementSync;
  #saveConversation: StatementSync;
  #conversation: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#save = database.prepare(
      `INSERT OR REPLACE INTO server_responses
         (response_id, session_id, owner, run_id, step, created_at, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#get = database.prepare('SELECT * FROM server_responses WHERE response_id = ?');
    this.#delete = database.prepare('DELETE FROM server_responses WHERE response_id = ?');
    this.#saveConversation = database.prepare(
      `INSERT OR REPLACE INTO server_conversations (session_id, owner, created_at, metadata)
       VALUES (?, ?, ?, ?)`,
    );
    this.#conversation = database.prepare(
      'SELECT * FROM server_conversations WHERE session_id = ?',
    );
  }

  async save(response: StoredResponse): Promise<void> {
    await this.#batch.run(() =>
      this.#save.run(
        response.id,
        response.sessionId,
        response.owner,
        response.runId,
        response.step,
        response.createdAt,
        JSON.stringify(response.body),
      ),
    );
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const row = this.#read(() => this.#get.get(id)) as ResponseRow | undefined;
    return row === undefined ? undefined : responseOf(row);
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.#batch.run(() => this.#delete.run(id));
    return Number(changes) === 1;
  }

  async saveConversation(conversation: StoredConversation): Promise<void> {
    await this.#batch.run(() =>
      this.#saveConversation.run(
        conversation.sessionId,
        conversation.owner,
        conversation.createdAt,
        JSON.stringify(conversation.metadata),
      ),
    );
  }

  async conversation(sessionId: string): Promise<StoredConversation | undefined> {
    const row = this.#read(() => this.#conversation.get(sessionId)) as
      | { session_id: string; owner: string; created_at: number; metadata: string }
      | undefined;
    if (row === undefined) return undefined;
    return {
      sessionId: row.session_id,
      owner: row.owner,
      createdAt: Number(row.created_at),
      metadata: JSON.parse(row.metadata) as Record<string, string>,
    };
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#batch.run(() => {
      this.#database.prepare('DELETE FROM server_responses WHERE session_id = ?').run(sessionId);
      this.#database
        .prepare('DELETE FROM server_conversations WHERE session_id = ?')
        .run(sessionId);
    });
  }

  #read<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
  }
}

function responseOf(row: ResponseRow): StoredResponse {
  return {
    id: row.response_id,
    owner: row.owner,
    sessionId: row.session_id,
    runId: row.run_id,
    step: Number(row.step),
    createdAt: Number(row.created_at),
    body: JSON.parse(row.body) as Record<string, unknown>,
  };
}
