import type { Language } from '../../core/language.ts';

// What the PostgreSQL store says to the person who started Riverse (stderr), in their language.
// The URL is always shown without its password (redactUrl).

interface PgText {
  /** The database did not answer; another try comes after `seconds`. */
  retrying: (url: string, reason: string, seconds: number) => string;
  /** The tries are over: what the start fails with. */
  unreachable: (url: string, reason: string, seconds: number) => string;
  /** The database answered but refused us: no retry helps. */
  refused: (url: string, reason: string) => string;
}

export const PG_TEXT: Record<Language, PgText> = {
  en: {
    retrying: (url, reason, seconds) =>
      `riverse: the PostgreSQL database at ${url} is not reachable (${reason}); trying again in ${seconds} s.`,
    unreachable: (url, reason, seconds) =>
      `The PostgreSQL database at ${url} was not reachable for ${seconds} s (${reason}). Start it, or correct RIVERSE_DATABASE_URL or store.url in riverse.yaml.`,
    refused: (url, reason) =>
      `The PostgreSQL database at ${url} refused the connection: ${reason}. Correct the user, password or database name in RIVERSE_DATABASE_URL or store.url in riverse.yaml.`,
  },
  zh: {
    retrying: (url, reason, seconds) =>
      `riverse：无法连接位于 ${url} 的 PostgreSQL 数据库（${reason}）；${seconds} 秒后重试。`,
    unreachable: (url, reason, seconds) =>
      `位于 ${url} 的 PostgreSQL 数据库在 ${seconds} 秒内都无法连接（${reason}）。请启动数据库，或更正 RIVERSE_DATABASE_URL 或 riverse.yaml 中的 store.url。`,
    refused: (url, reason) =>
      `位于 ${url} 的 PostgreSQL 数据库拒绝了连接：${reason}。请更正 RIVERSE_DATABASE_URL 或 riverse.yaml 中 store.url 的用户、密码或数据库名。`,
  },
  ja: {
    retrying: (url, reason, seconds) =>
      `riverse：${url} の PostgreSQL データベースに接続できません（${reason}）。${seconds} 秒後に再試行します。`,
    unreachable: (url, reason, seconds) =>
      `${url} の PostgreSQL データベースに ${seconds} 秒間接続できませんでした（${reason}）。データベースを起動するか、RIVERSE_DATABASE_URL または riverse.yaml の store.url を修正してください。`,
    refused: (url, reason) =>
      `${url} の PostgreSQL データベースが接続を拒否しました：${reason}。RIVERSE_DATABASE_URL または riverse.yaml の store.url のユーザー、パスワード、データベース名を修正してください。`,
  },
};
