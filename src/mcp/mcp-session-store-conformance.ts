import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type McpSessionStore, mcpSessionIdleMs } from './mcp-session-store.ts';

/** An MCP session store the suite opens, and how to release it. */
export interface OpenedMcpSessionStore {
  store: McpSessionStore;
  /** Another store on the same data, as a second instance (or a restarted one) would open it. */
  another(): Promise<McpSessionStore> | McpSessionStore;
  close(): Promise<void> | void;
}

const start = Date.parse('2026-12-07T00:00:00.000Z');
const hour = 60 * 60 * 1000;

/**
 * The behaviour every McpSessionStore backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty store each time.
 */
export function mcpSessionStoreConformance(
  name: string,
  open: () => Promise<OpenedMcpSessionStore> | OpenedMcpSessionStore,
): void {
  describe(`${name} MCP session store (conformance)`, () => {
    let opened: OpenedMcpSessionStore;
    let store: McpSessionStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('gives a session back to its owner, through another store on the same data too', async () => {
      await store.create({ id: 'm1', owner: 'alice', protocolVersion: '2025-11-25' }, start);
      const expected = {
        id: 'm1',
        owner: 'alice',
        protocolVersion: '2025-11-25',
        createdAt: start,
        lastUsedAt: start,
      };
      assert.deepEqual(await store.use('m1', 'alice', start + 1000), expected);
      const other = await opened.another();
      assert.deepEqual(await other.use('m1', 'alice', start + 2000), expected);
    });

    it('refuses an unknown session and another owner’s alike', async () => {
      await store.create({ id: 'm1', owner: 'alice', protocolVersion: '2025-06-18' }, start);
      assert.equal(await store.use('never', 'alice', start), undefined);
      assert.equal(await store.use('m1', 'bob', start), undefined);
      assert.equal(await store.end('m1', 'bob', start), false);
      assert.ok(await store.use('m1', 'alice', start));
    });

    it('ends a session once: afterwards it is unknown on every store', async () => {
      await store.create({ id: 'm1', owner: 'alice', protocolVersion: '2025-03-26' }, start);
      assert.equal(await store.end('m1', 'alice', start + 1), true);
      assert.equal(await store.end('m1', 'alice', start + 2), false);
      assert.equal(await store.use('m1', 'alice', start + 3), undefined);
      assert.equal(await (await opened.another()).use('m1', 'alice', start + 4), undefined);
    });

    it('keeps a session used within 24 hours and forgets one idle longer', async () => {
      await store.create({ id: 'busy', owner: 'alice', protocolVersion: '2025-11-25' }, start);
      await store.create({ id: 'idle', owner: 'alice', protocolVersion: '2025-11-25' }, start);
      const later = start + 20 * hour;
      assert.equal((await store.use('busy', 'alice', later))?.lastUsedAt, later);
      const dayAfter = start + mcpSessionIdleMs + hour;
      assert.ok(await store.use('busy', 'alice', dayAfter));
      assert.equal(await store.use('idle', 'alice', dayAfter), undefined);
      assert.equal(await store.end('idle', 'alice', dayAfter), false);
    });

    it('records a burst of uses once a minute at most, keeping the first use’s time', async () => {
      await store.create({ id: 'm1', owner: 'alice', protocolVersion: '2025-11-25' }, start);
      assert.equal((await store.use('m1', 'alice', start + 30_000))?.lastUsedAt, start);
      assert.equal((await store.use('m1', 'alice', start + 90_000))?.lastUsedAt, start + 90_000);
      assert.equal((await store.use('m1', 'alice', start + 100_000))?.lastUsedAt, start + 90_000);
    });

    it('forgets sessions idle past the limit when a new one is created', async () => {
      await store.create({ id: 'old', owner: 'alice', protocolVersion: '2025-11-25' }, start);
      await store.create(
        { id: 'new', owner: 'alice', protocolVersion: '2025-11-25' },
        start + mcpSessionIdleMs + 1,
      );
      // Even a clock that went back finds the idle session gone.
      assert.equal(await store.use('old', 'alice', start), undefined);
      assert.ok(await store.use('new', 'alice', start + mcpSessionIdleMs + 2));
    });
  });
}
