import { jsonText } from '../models/json-text.ts';
import type { TaskRecord, TaskStatus } from '../tasks/task-types.ts';
import { partsAsJson } from '../tools/result-content.ts';
import type { CheckedToolResult } from '../tools/tool-result.ts';

// A task as a `tasks` row and back, the same in SQLite and PostgreSQL (their tables have the same
// columns): the values are written in TASK_COLUMNS' order.

export const TASK_COLUMNS =
  'id, tool, call_id, session_id, origin, status, status_message, error_code, arguments, created_at, updated_at, ttl_ms, poll_interval_ms, progress, result, delivered_at, runner, logs, remote';

export interface TaskRow {
  id: string;
  tool: string;
  call_id: string;
  session_id: string | null;
  origin: TaskRecord['origin'];
  status: TaskStatus;
  status_message: string | null;
  error_code: string | null;
  arguments: string;
  created_at: number;
  updated_at: number;
  ttl_ms: number | null;
  poll_interval_ms: number | null;
  progress: string | null;
  result: string | null;
  delivered_at: number | null;
  runner: string | null;
  logs: string | null;
  remote: string | null;
}

/** The row's values in TASK_COLUMNS' order; `runner` names the process running it. */
export function taskValues(record: TaskRecord, runner: string | undefined): (string | number | null)[] {
  return [
    record.id,
    record.tool,
    record.callId,
    record.sessionId ?? null,
    record.origin,
    record.status,
    record.statusMessage ?? null,
    record.errorCode ?? null,
    jsonText(record.arguments),
    record.createdAt,
    record.updatedAt,
    record.ttlMs ?? null,
    record.pollIntervalMs ?? null,
    record.progress === undefined ? null : jsonText(record.progress),
    record.result === undefined ? null : resultJson(record.result),
    record.deliveredAt ?? null,
    runner ?? null,
    record.logs === undefined || record.logs.length === 0 ? null : jsonText(record.logs),
    record.remote === undefined ? null : jsonText(record.remote),
  ];
}

/** The result as JSON: its parts' bytes as base64 (JSON has no bytes). */
function resultJson(result: CheckedToolResult): string {
  return jsonText(result.content === undefined ? result : { ...result, content: partsAsJson(result.content) });
}

export function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    tool: row.tool,
    callId: row.call_id,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    origin: row.origin,
    status: row.status,
    ...(row.status_message === null ? {} : { statusMessage: row.status_message }),
    ...(row.error_code === null ? {} : { errorCode: row.error_code }),
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.ttl_ms === null ? {} : { ttlMs: row.ttl_ms }),
    ...(row.poll_interval_ms === null ? {} : { pollIntervalMs: row.poll_interval_ms }),
    ...(row.progress === null ? {} : { progress: JSON.parse(row.progress) as TaskRecord['progress'] }),
    ...(row.logs === null ? {} : { logs: JSON.parse(row.logs) as TaskRecord['logs'] }),
    ...(row.remote === null ? {} : { remote: JSON.parse(row.remote) as NonNullable<TaskRecord['remote']> }),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as CheckedToolResult }),
    ...(row.delivered_at === null ? {} : { deliveredAt: row.delivered_at }),
  };
}
