import type { Migration } from '../core/index.ts';

const deliveriesSql = `
-- The webhook outbox (WebhookOutbox): one row per event of a run to deliver, stored with the
-- run's end and kept until its session is deleted. Times are epoch milliseconds of the
-- instances' clocks; headers is the webhook's own headers (JSON text, in their order, never
-- shown); body the exact bytes every attempt sends. An instance leases a due row (lease_owner,
-- lease_until) for the length of one attempt, so each attempt is made by exactly one instance.
CREATE TABLE webhook_deliveries (
  id text COLLATE "C" PRIMARY KEY,
  run_id text COLLATE "C" NOT NULL,
  event text NOT NULL,
  url text NOT NULL,
  headers text NOT NULL,
  body text NOT NULL,
  created_at bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  next_attempt_at bigint,
  delivered_at bigint,
  lease_owner text,
  lease_until bigint
);
CREATE INDEX webhook_deliveries_run ON webhook_deliveries (run_id, created_at);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
`;

/** The webhooks' schema in PostgreSQL (version 901, after the guardrails' 900): the delivery outbox. */
export const webhookMigrations: readonly Migration[] = [
  { version: 901, name: 'webhook_deliveries', sql: deliveriesSql },
];
