import type { PoolClient } from 'pg';

/**
 * The PostgreSQL schema as numbered steps, the same tables as SQLite's (../schema.ts) in
 * PostgreSQL's dialect. Step N is recorded in `riverse_schema` once it ran; to change the schema,
 * append a step, never edit one that has shipped. Times are ISO 8601 text as in SQLite (text order
 * is time order, and both stores share their readers); a task's times are epoch milliseconds.
 * Free text that may hold a NUL character (a message, a tool's output) is `bytea`: PostgreSQL's
 * text cannot hold one. JSON stays text: jsonb would refuse `\u0000` and reorder keys.
 * `seq` columns keep insertion order where SQLite's implicit rowid did.
 */
const STEPS: readonly string[] = [
  // 1: everything SQLite's steps 1 to 7 hold.
  `
  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    language   TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE messages (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id      TEXT,
    role         TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    content      BYTEA NOT NULL,
    tool_calls   TEXT,
    tool_call_id TEXT,
    tool_name    TEXT,
    is_error     BOOLEAN,
    created_at   TEXT NOT NULL
  );
  CREATE INDEX messages_by_session ON messages (session_id, id);
  CREATE TABLE tool_calls (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id     TEXT NOT NULL,
    call_id     TEXT NOT NULL,
    tool        TEXT NOT NULL,
    params      TEXT,
    success     BOOLEAN NOT NULL,
    data        BYTEA NOT NULL,
    error       BYTEA,
    code        TEXT,
    duration_ms DOUBLE PRECISION NOT NULL,
    started_at  TEXT NOT NULL
  );
  CREATE INDEX tool_calls_by_session ON tool_calls (session_id, id);
  CREATE INDEX tool_calls_by_turn ON tool_calls (session_id, turn_id, id);
  CREATE INDEX tool_calls_by_tool ON tool_calls (tool, id);
  CREATE INDEX tool_calls_by_time ON tool_calls (started_at);
  CREATE TABLE approvals (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id    TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    tool       TEXT NOT NULL,
    params     TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'timed-out')),
    always     BOOLEAN NOT NULL,
    reason     TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    decided_at TEXT,
    run        TEXT NOT NULL CHECK (run IN ('not-started', 'started', 'done'))
  );
  CREATE INDEX approvals_by_status ON approvals (status, created_at);
  CREATE TABLE session_approvals (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, tool)
  );
  CREATE TABLE responses (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    previous_id TEXT,
    messages    TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL
  );
  CREATE INDEX responses_by_session ON responses (session_id);
  CREATE TABLE turn_traces (
    seq         BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id          TEXT PRIMARY KEY,
    trace_id    TEXT NOT NULL,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    by_hand     TEXT,
    started_at  TEXT NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
    stop_reason TEXT NOT NULL,
    tools       TEXT NOT NULL,
    spans       TEXT NOT NULL,
    model_requests INTEGER NOT NULL,
    tool_call_count INTEGER NOT NULL
  );
  CREATE INDEX turn_traces_by_time ON turn_traces (started_at);
  CREATE INDEX turn_traces_by_session ON turn_traces (session_id, started_at);
  CREATE TABLE tasks (
    seq              BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id               TEXT PRIMARY KEY,
    tool             TEXT NOT NULL,
    call_id          TEXT NOT NULL,
    session_id       TEXT,
    origin           TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled', 'interrupted')),
    status_message   TEXT,
    error_code       TEXT,
    arguments        TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    ttl_ms           BIGINT,
    poll_interval_ms BIGINT,
    progress         TEXT,
    result           TEXT,
    delivered_at     BIGINT,
    runner           TEXT
  );
  CREATE INDEX tasks_by_status ON tasks (status, updated_at);
  CREATE INDEX tasks_by_session ON tasks (session_id, created_at);
  CREATE TABLE tool_switches (
    name       TEXT PRIMARY KEY,
    enabled    BOOLEAN NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE oauth_clients (
    issuer TEXT PRIMARY KEY,
    client TEXT NOT NULL
  );
  CREATE TABLE oauth_tokens (
    issuer     TEXT NOT NULL,
    resource   TEXT NOT NULL,
    tokens     TEXT NOT NULL,
    saved_at   BIGINT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (issuer, resource)
  );
  CREATE INDEX oauth_tokens_by_resource ON oauth_tokens (resource, saved_at);
  `,
  // 2: payloads of events too large for NOTIFY (8000 bytes), read back by their id (pg-events.ts).
  `
  CREATE TABLE event_payloads (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payload    TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  `,
  // 3: as SQLite's step 9 (decision 039): the turn each session has running and its replica's
  // heartbeat; keys every replica reads alike.
  `
  CREATE TABLE running_turns (
    session_id   TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    replica      TEXT NOT NULL,
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
  );
  CREATE INDEX running_turns_by_replica ON running_turns (replica);
  CREATE TABLE shared_secrets (
    name  TEXT PRIMARY KEY,
    value BYTEA NOT NULL
  );
  `,
  // 4: as SQLite's step 8: a task's latest log lines, and the remote MCP server's task its call waits on.
  `
  ALTER TABLE tasks ADD COLUMN logs TEXT;
  ALTER TABLE tasks ADD COLUMN remote TEXT;
  `,
  // 5: as SQLite's step 10: the questions tools ask the person, shown and answered on any replica.
  `
  CREATE TABLE questions (
    id            TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id       TEXT NOT NULL,
    call_id       TEXT NOT NULL,
    tool          TEXT NOT NULL,
    question      TEXT NOT NULL,
    choices       TEXT,
    fields        TEXT,
    required      TEXT,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'declined', 'ended')),
    answer        TEXT,
    answer_values TEXT,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    decided_at    TEXT
  );
  CREATE INDEX questions_by_status ON questions (status, created_at);
  `,
  // 6: as SQLite's step 11: the input requests of a task an MCP client started, seen and answered on any replica.
  `
  CREATE TABLE task_inputs (
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    request    TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'ended')),
    response   TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    decided_at TEXT,
    PRIMARY KEY (task_id, key)
  );
  `,
];

export const PG_SCHEMA_VERSION = STEPS.length;

/** The advisory lock migrations hold: any constant of our own ("riverse" as a number). */
const MIGRATION_LOCK = 0x72697665;

/**
 * Brings the database up to PG_SCHEMA_VERSION in one transaction holding an advisory lock, so that
 * replicas starting together migrate one after the other: the second waits, then finds every step
 * recorded and runs none. A database newer than this riverse is refused, not changed.
 */
export async function migratePg(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS riverse_schema (
         step       INTEGER PRIMARY KEY,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ done: number | null }>('SELECT max(step) AS done FROM riverse_schema');
    const done = rows[0]?.done ?? 0;
    if (done > PG_SCHEMA_VERSION) {
      throw new Error(
        `The PostgreSQL database is at schema step ${done}, newer than this riverse understands (${PG_SCHEMA_VERSION}); upgrade riverse on every replica.`,
      );
    }
    for (let step = done + 1; step <= PG_SCHEMA_VERSION; step++) {
      await client.query(STEPS[step - 1]!);
      await client.query('INSERT INTO riverse_schema (step) VALUES ($1)', [step]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
