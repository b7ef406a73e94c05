import { LANGUAGES, type Language } from '../core/language.ts';

// What safeFetch says when it refuses or fails, in each language: web_fetch, web_search and the
// declared HTTP tools show it to the person as it is (`SafeFetchError.in(language)`).

/** What kind of address is refused, when it is not a public one. */
export type Kind = 'private' | 'loopback' | 'link-local or cloud metadata' | 'reserved';

interface SafeFetchText {
  cancelled: () => string;
  timeout: (seconds: number) => string;
  unreachable: (host: string, why: string) => string;
  brokeOff: (host: string, why: string) => string;
  noAddress: (host: string) => string;
  redirects: (count: number, last: string) => string;
  notUrl: (text: string) => string;
  scheme: (scheme: string) => string;
  credentials: () => string;
  blocked: (host: string, address: string, kind: Kind, where: string) => string;
}

const KINDS: Record<Language, Record<Kind, string>> = {
  en: {
    private: 'private',
    loopback: 'loopback',
    'link-local or cloud metadata': 'link-local or cloud metadata',
    reserved: 'reserved',
  },
  zh: { private: '私有', loopback: '回环', 'link-local or cloud metadata': '链路本地或云元数据', reserved: '保留' },
  ja: {
    private: 'プライベート',
    loopback: 'ループバック',
    'link-local or cloud metadata': 'リンクローカルまたはクラウドのメタデータ',
    reserved: '予約済み',
  },
};

const TEXT: Record<Language, SafeFetchText> = {
  en: {
    cancelled: () => 'The request was cancelled.',
    timeout: (seconds) => `No complete answer within ${seconds} s.`,
    unreachable: (host, why) => `Cannot reach ${host}: ${why}.`,
    brokeOff: (host, why) => `The answer from ${host} broke off: ${why}.`,
    noAddress: (host) => `${host} has no address.`,
    redirects: (count, last) => `More than ${count} redirects, the last to ${last}.`,
    notUrl: (text) => `${text} is not a URL; give a full address such as https://example.com/page.`,
    scheme: (scheme) => `Only http and https addresses are fetched, not ${scheme}:.`,
    credentials: () => 'Addresses with a user name or password in them are not fetched.',
    blocked: (host, address, kind, where) =>
      `Refused: ${host === address ? address : `${host} resolves to ${address}, which`} is a ${KINDS.en[kind]} address. Private, loopback, link-local and metadata addresses are not fetched unless ${where}.allow_private is true (link-local and metadata: only by name in ${where}.allow_hosts) or the host is in ${where}.allow_hosts.`,
  },
  zh: {
    cancelled: () => '请求已取消。',
    timeout: (seconds) => `${seconds} 秒内没有得到完整的回应。`,
    unreachable: (host, why) => `无法连接 ${host}：${why}。`,
    brokeOff: (host, why) => `${host} 的回应中途断开：${why}。`,
    noAddress: (host) => `${host} 没有地址。`,
    redirects: (count, last) => `重定向超过 ${count} 次，最后一次指向 ${last}。`,
    notUrl: (text) => `${text} 不是网址；请给出完整地址，例如 https://example.com/page。`,
    scheme: (scheme) => `只获取 http 和 https 地址，不获取 ${scheme}:。`,
    credentials: () => '不获取带有用户名或密码的地址。',
    blocked: (host, address, kind, where) =>
      `已拒绝：${host === address ? `${address} ` : `${host} 解析为 ${address}，它`}是${KINDS.zh[kind]}地址。私有、回环、链路本地和元数据地址不会被获取，除非 ${where}.allow_private 为 true（链路本地和元数据地址：只能按名称写进 ${where}.allow_hosts），或该主机在 ${where}.allow_hosts 中。`,
  },
  ja: {
    cancelled: () => 'リクエストは取り消されました。',
    timeout: (seconds) => `${seconds} 秒以内に完全な応答がありませんでした。`,
    unreachable: (host, why) => `${host} に接続できません：${why}。`,
    brokeOff: (host, why) => `${host} からの応答が途中で切れました：${why}。`,
    noAddress: (host) => `${host} にはアドレスがありません。`,
    redirects: (count, last) => `リダイレクトが ${count} 回を超えました（最後は ${last}）。`,
    notUrl: (text) =>
      `${text} は URL ではありません。https://example.com/page のような完全なアドレスを指定してください。`,
    scheme: (scheme) => `取得するのは http と https のアドレスだけです（${scheme}: は取得しません）。`,
    credentials: () => 'ユーザー名やパスワードを含むアドレスは取得しません。',
    blocked: (host, address, kind, where) =>
      `拒否しました：${host === address ? `${address} ` : `${host} は ${address} に解決され、これ`}は${KINDS.ja[kind]}アドレスです。プライベート、ループバック、リンクローカル、メタデータのアドレスは、${where}.allow_private が true であるか（リンクローカルとメタデータは ${where}.allow_hosts に名前で書いた場合のみ）、ホストが ${where}.allow_hosts にある場合を除き取得しません。`,
  },
};

/** The same message in every language: `said((text) => text.timeout(15))`. */
export function safeFetchSaid(say: (text: SafeFetchText) => string): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, say(TEXT[language])])) as Record<Language, string>;
}
