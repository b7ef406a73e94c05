import type { DatabaseSync } from 'node:sqlite';

/**
 * The schema as a list of steps: step N takes a database from version N to N + 1 (`PRAGMA
 * user_version`). To change the schema, append a step; never edit one that has shipped.
 */
const MIGRATIONS: readonly string[] = [
  // 1: sessions, their messages, and traces of the tool calls made in them.
  `
  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    language   TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,  -- insertion order, which is conversation order
    session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id      TEXT,
    role         TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    content      TEXT NOT NULL,
    tool_calls   TEXT,                 -- assistant: JSON array of ToolCallRequest
    tool_call_id TEXT,                 -- tool: the call answered
    tool_name    TEXT,                 -- tool
    is_error     INTEGER,              -- tool: NULL when not given
    created_at   TEXT NOT NULL
  );
  CREATE INDEX messages_by_session ON messages (session_id, id);
  CREATE TABLE tool_calls (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id     TEXT NOT NULL,
    call_id     TEXT NOT NULL,
    tool        TEXT NOT NULL,
    params      TEXT,                  -- JSON; NULL when the params were undefined
    success     INTEGER NOT NULL,
    data        TEXT NOT NULL,
    error       TEXT,
    code        TEXT,
    duration_ms REAL NOT NULL,
    started_at  TEXT NOT NULL
  );
  CREATE INDEX tool_calls_by_session ON tool_calls (session_id, id);
  CREATE INDEX tool_calls_by_turn ON tool_calls (session_id, turn_id, id);
  `,
  // 2: the traces of one tool across sessions, newest first (the service's trace list filters by tool).
  `
  CREATE INDEX tool_calls_by_tool ON tool_calls (tool, id);
  `,
  // 3: approvals a person gives or refuses, bound to one call (src/store/approval-store.ts), and the
  // tools a session approved "always".
  `
  CREATE TABLE approvals (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id    TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    tool       TEXT NOT NULL,
    params     TEXT NOT NULL,          -- JSON: the checked parameters the person is shown
    status     TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'timed-out')),
    always     INTEGER NOT NULL,
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
  `,
  // 4: responses of /v1/responses kept for previous_response_id (src/store/response-store.ts): each
  // with what it added to the conversation, gone with its session.
  `
  CREATE TABLE responses (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    previous_id TEXT,                  -- the response it continued; no foreign key: deleting one ends its chain there
    messages    TEXT NOT NULL,         -- JSON array of ChatMessage
    body        TEXT NOT NULL,         -- JSON: the response object as answered
    created_at  TEXT NOT NULL
  );
  CREATE INDEX responses_by_session ON responses (session_id);
  `,
  // 5: one trace per turn, a tree of spans as JSON (src/store/trace-store.ts), gone with its session.
  `
  CREATE TABLE turn_traces (
    id          TEXT PRIMARY KEY,      -- the turn's id
    trace_id    TEXT NOT NULL,
    session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    by_hand     TEXT,                  -- cli or api for a tool run by hand; NULL for a turn
    started_at  TEXT NOT NULL,
    duration_ms REAL NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
    stop_reason TEXT NOT NULL,
    tools       TEXT NOT NULL,         -- JSON array of the tools called
    spans       TEXT NOT NULL          -- JSON array of TraceSpan
  );
  CREATE INDEX turn_traces_by_time ON turn_traces (started_at);
  CREATE INDEX turn_traces_by_session ON turn_traces (session_id, started_at);
  `,
  // 6: tool calls that run apart from their turn (src/store/task-store.ts): a `long_running` tool's,
  // or an MCP client's task. No foreign key to sessions: an MCP task has none, and a task whose
  // session was deleted stays listed (undelivered) until its retention ends.
  `
  CREATE TABLE tasks (
    id               TEXT PRIMARY KEY,
    tool             TEXT NOT NULL,
    call_id          TEXT NOT NULL,
    session_id       TEXT,
    origin           TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled', 'interrupted')),
    status_message   TEXT,
    error_code       TEXT,
    arguments        TEXT NOT NULL,      -- JSON
    created_at       INTEGER NOT NULL,   -- epoch milliseconds, as MCP's tasks count them
    updated_at       INTEGER NOT NULL,
    ttl_ms           INTEGER,
    poll_interval_ms INTEGER,
    progress         TEXT,               -- JSON TaskProgress
    result           TEXT,               -- JSON CheckedToolResult, bytes as base64
    delivered_at     INTEGER,
    runner           TEXT                -- the process running it (host:pid:start), so that a start interrupts only the dead's
  );
  CREATE INDEX tasks_by_status ON tasks (status, updated_at);
  CREATE INDEX tasks_by_session ON tasks (session_id, created_at);
  `,
  // 7: what the store keeps for the whole assistant (decision 037): the dashboard's tool switches
  // (they win over riverse.yaml's `tools:` entries), and MCP servers' OAuth sign-ins (they were
  // files in <data>/mcp-oauth/).
  `
  CREATE TABLE tool_switches (
    name       TEXT PRIMARY KEY,
    enabled    INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE oauth_clients (
    issuer TEXT PRIMARY KEY,
    client TEXT NOT NULL                 -- JSON: the client registered with the issuer
  );
  CREATE TABLE oauth_tokens (
    issuer     TEXT NOT NULL,
    resource   TEXT NOT NULL,            -- the MCP server's URL
    tokens     TEXT NOT NULL,            -- JSON: the server's tokens
    saved_at   INTEGER NOT NULL,         -- epoch milliseconds, strictly rising per process
    expires_at INTEGER,
    PRIMARY KEY (issuer, resource)
  );
  CREATE INDEX oauth_tokens_by_resource ON oauth_tokens (resource, saved_at);
  `,
  // 8: a task's log lines (JSON TaskLogLine[], the latest ones), read after its turn (riverse tasks show, the tasks page),
  // and the remote MCP server's task its call waits on (JSON RemoteTaskRef), picked up again after a restart.
  `
  ALTER TABLE tasks ADD COLUMN logs TEXT;
  ALTER TABLE tasks ADD COLUMN remote TEXT;
  `,
  // 9: the turn each session has in progress and the replica running it (src/store/running-turns.ts),
  // its heartbeat kept fresh while it runs, so that another replica can tell a dead one's turn; and
  // the keys every replica shares.
  `
  CREATE TABLE running_turns (
    session_id   TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    replica      TEXT NOT NULL,        -- the replica id (host:pid:random)
    started_at   INTEGER NOT NULL,     -- epoch milliseconds
    heartbeat_at INTEGER NOT NULL
  );
  CREATE INDEX running_turns_by_replica ON running_turns (replica);
  -- Keys made once and shared by every process of the store (src/store/shared-secret.ts).
  CREATE TABLE shared_secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
  );
  `,
  // 10: the questions tools ask the person (src/store/question-store.ts), kept as approvals are, so
  // that a question asked in a turn on one replica is shown and answered on any (decision 039's addendum).
  `
  CREATE TABLE questions (
    id            TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id       TEXT NOT NULL,
    call_id       TEXT NOT NULL,
    tool          TEXT NOT NULL,
    question      TEXT NOT NULL,
    choices       TEXT,                -- JSON string[]
    fields        TEXT,                -- JSON: a form's fields
    required      TEXT,                -- JSON string[]
    status        TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'declined', 'ended')),
    answer        TEXT,
    answer_values TEXT,                -- JSON: a form's values
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    decided_at    TEXT
  );
  CREATE INDEX questions_by_status ON questions (status, created_at);
  `,
  // 11: the input requests of a task an MCP client started (src/store/task-input-store.ts), so that
  // tasks/get and tasks/update on any replica see and answer them (decision 039's addendum). Its own
  // table, not `questions`: an MCP task has no session, and only its client answers it.
  `
  CREATE TABLE task_inputs (
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    request    TEXT NOT NULL,        -- JSON: the input request as MCP carries it
    status     TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'ended')),
    response   TEXT,                 -- JSON: the client's response
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    decided_at TEXT,
    PRIMARY KEY (task_id, key)
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database up to SCHEMA_VERSION; safe when another process migrates at the same time. */
export function migrate(db: DatabaseSync): void {
  if (userVersion(db) === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock first, so a second process waits and then sees our version.
  db.exec('BEGIN IMMEDIATE');
  try {
    const from = userVersion(db);
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `The session database is at schema version ${from}, newer than this riverse understands (${SCHEMA_VERSION}); upgrade riverse.`,
      );
    }
    for (const step of MIGRATIONS.slice(from)) db.exec(step);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function userVersion(db: DatabaseSync): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}
