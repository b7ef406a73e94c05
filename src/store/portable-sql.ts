import { jsonText } from '../models/json-text.ts';

/**
 * How a table kept the same on SQLite and PostgreSQL reaches its database: SQL with `?`
 * placeholders (numbered for PostgreSQL by `pgPortableSql`), rows out, or the rows changed.
 */
export interface PortableSql {
  rows(sql: string, params: readonly (string | null)[]): Promise<unknown[]>;
  run(sql: string, params: readonly (string | null)[]): Promise<number>;
}

/** A JSON column's value: the value's JSON, or NULL for none. */
export function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : jsonText(value);
}
