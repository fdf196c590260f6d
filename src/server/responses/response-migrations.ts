import type { Migration } from '../../core/index.ts';

const responsesSql = `
-- The responses of /v1/responses (ResponseStore): each a turn of a session, the Response
-- object kept whole as JSON; step is the session's last step when it ended (a fork after
-- it starts there). Deleted with the session.
CREATE TABLE server_responses (
  response_id text COLLATE "C" PRIMARY KEY,
  session_id text COLLATE "C" NOT NULL,
  owner text NOT NULL,
  run_id text COLLATE "C" NOT NULL,
  step integer NOT NULL,
  created_at bigint NOT NULL,
  body jsonb NOT NULL
);
CREATE INDEX server_responses_session ON server_responses (session_id);

-- What an OpenAI conversation has that a session has no room for: its metadata.
CREATE TABLE server_conversations (
  session_id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  created_at bigint NOT NULL,
  metadata jsonb NOT NULL
);
`;

/** The responses' schema in PostgreSQL (versions 960–969): responses and conversations' metadata. */
export const responseMigrations: readonly Migration[] = [
  { version: 960, name: 'server_responses', sql: responsesSql },
];
