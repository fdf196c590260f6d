import type pg from 'pg';
import type { PostgresPool } from '../../core/index.ts';

type Handler = (payload: string) => void;

/** How long to wait before connecting again after the listening connection broke. */
const retryDelaysMs = [250, 1000, 2000, 5000];

/**
 * One connection per instance that LISTENs to Yeoul's channels and hands each NOTIFY to the
 * handlers of its channel. A broken connection is opened again (250 ms, then up to every
 * 5 s) and `onReconnect` handlers run, since notifications sent meanwhile are lost: whoever
 * waits on one checks the database again then (and polls anyway, as a fallback).
 */
export class PostgresNotifications {
  #pool: PostgresPool;
  #handlers = new Map<string, Set<Handler>>();
  #reconnectHandlers = new Set<() => void>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  /** Whether the listening connection is up (notifications arrive). */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Starts listening; resolves once connected, or at once if the database cannot be reached. */
  async start(): Promise<void> {
    await this.#connect();
  }

  /** Calls `handler` with the payload of every NOTIFY on `channel`; returns the unsubscribe. */
  on(channel: string, handler: Handler): () => void {
    let handlers = this.#handlers.get(channel);
    if (handlers === undefined) {
      handlers = new Set();
      this.#handlers.set(channel, handlers);
      this.#client?.query(`LISTEN ${channel}`).catch(() => undefined);
    }
    handlers.add(handler);
    return () => handlers.delete(handler);
  }

  /** Calls `handler` after each reconnection (notifications may have been missed). */
  onReconnect(handler: () => void): () => void {
    this.#reconnectHandlers.add(handler);
    return () => this.#reconnectHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const { default: driver } = await import('pg');
    const client = new driver.Client({
      ...(this.#pool.options as pg.ClientConfig),
      statement_timeout: 0,
      query_timeout: undefined,
      idle_in_transaction_session_timeout: 0,
      application_name: 'yeoul-listen',
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => {
      for (const handler of this.#handlers.get(message.channel) ?? []) {
        handler(message.payload ?? '');
      }
    });
    try {
      await client.connect();
      for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      await client.end().catch(() => undefined);
      this.#scheduleRetry();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const reconnected = this.#attempt > 0;
    this.#attempt = 0;
    this.#client = client;
    if (reconnected) for (const handler of this.#reconnectHandlers) handler();
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry !== undefined) return;
    const delay = retryDelaysMs[Math.min(this.#attempt, retryDelaysMs.length - 1)] as number;
    this.#attempt += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect();
    }, delay);
    this.#retry.unref();
  }
}
