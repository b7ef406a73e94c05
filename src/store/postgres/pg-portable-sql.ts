import type { PortableSql } from '../portable-sql.ts';
import type { PgDatabase } from './pg-database.ts';

/** A table of SQLite's and PostgreSQL's alike (questions, a task's input requests) on PostgreSQL: its `?` placeholders numbered as `$1, $2, …`. */
export function pgPortableSql(db: PgDatabase): PortableSql {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    rows: (sql, params) => db.rows(numbered(sql), params),
    run: (sql, params) => db.run(numbered(sql), params),
  };
}
