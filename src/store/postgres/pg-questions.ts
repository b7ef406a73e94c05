import { QuestionTable } from '../question-store.ts';
import type { PgDatabase } from './pg-database.ts';

/** Questions in PostgreSQL: the one question table (question-store.ts), its `?` placeholders numbered as `$1, $2, …`. */
export function pgQuestions(db: PgDatabase): QuestionTable {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return new QuestionTable({
    rows: (sql, params) => db.rows(numbered(sql), params),
    run: (sql, params) => db.run(numbered(sql), params),
  });
}
