import type { Migration } from '../core/index.ts';

const memorySql = `
-- The long-term memory store: one row per (owner, namespace, key); value is the JSON text
-- as given; embedding the item's vector (float32 bytes) when an embedding model is set.
CREATE TABLE memory_items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner text COLLATE "C" NOT NULL,
  namespace text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value text NOT NULL,
  updated_at bigint NOT NULL,
  token_count integer NOT NULL,
  embedding bytea,
  UNIQUE (owner, namespace, key)
);
CREATE INDEX memory_items_recent ON memory_items (owner, updated_at DESC);
CREATE INDEX memory_items_lengths ON memory_items (owner, token_count);
-- Keyword tokens of each item (the knowledge base's analysis), with their counts.
CREATE TABLE memory_terms (
  owner text COLLATE "C" NOT NULL,
  token text COLLATE "C" NOT NULL,
  item_id bigint NOT NULL REFERENCES memory_items (id) ON DELETE CASCADE,
  count integer NOT NULL,
  PRIMARY KEY (owner, token, item_id)
);
CREATE INDEX memory_terms_item ON memory_terms (item_id);
`;

/** The memory store's schema in PostgreSQL (versions 700–799). */
export const memoryMigrations: readonly Migration[] = [
  { version: 700, name: 'memory_items', sql: memorySql },
];
