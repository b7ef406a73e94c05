// The backends of web_search, each speaking its service's own format: DuckDuckGo's HTML results
// page (no key), and the JSON APIs of SearXNG, Brave and Tavily. Base URLs are settings, so each can
// be pointed at a mirror, a self-hosted instance or a local test server. linkedom (the HTML
// parser) is imported by the first search, not with the tool: loading the tool reads only the
// backend choice, for isAvailable().
import { safeFetch, safeFetchSettings, type Language, type SafeFetchOptions, type ToolSection } from 'riverse';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export type BackendName = 'duckduckgo' | 'searxng' | 'brave' | 'tavily';
export const BACKENDS: readonly BackendName[] = ['tavily', 'brave', 'searxng', 'duckduckgo'];

/** A sentence in each language: why web_search cannot serve is shown on the reader's pages and to the model. */
export type Said = Record<Language, string>;

/** A backend ready to serve, or why it cannot. */
export type Backend = { name: BackendName; base: string; key?: string } | { name: BackendName; missing: Said };

const notSet = (setting: string, what = ''): Said => ({
  en: `${setting} is not set${what === '' ? '' : ` (${what})`}`,
  zh: `未设置 ${setting}`,
  ja: `${setting} が設定されていません`,
});

function sub(section: ToolSection, name: BackendName): Record<string, unknown> {
  const value = section[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** What each backend needs from tools.web_search.<backend>. */
export function backend(section: ToolSection, name: BackendName): Backend {
  const settings = sub(section, name);
  switch (name) {
    case 'duckduckgo':
      if (settings.enabled === false)
        return {
          name,
          missing: {
            en: 'tools.web_search.duckduckgo.enabled is false',
            zh: 'tools.web_search.duckduckgo.enabled 为 false',
            ja: 'tools.web_search.duckduckgo.enabled が false です',
          },
        };
      return { name, base: text(settings.base_url) || 'https://html.duckduckgo.com' };
    case 'searxng':
      return text(settings.url) === ''
        ? {
            name,
            missing: {
              en: 'tools.web_search.searxng.url is not set (the address of a SearXNG instance with the JSON format on)',
              zh: '未设置 tools.web_search.searxng.url（一个开启了 JSON 格式的 SearXNG 实例的地址）',
              ja: 'tools.web_search.searxng.url が設定されていません（JSON 形式を有効にした SearXNG インスタンスのアドレス）',
            },
          }
        : { name, base: text(settings.url) };
    case 'brave':
    case 'tavily': {
      const key = text(settings.api_key);
      if (key === '') return { name, missing: notSet(`tools.web_search.${name}.api_key`) };
      return {
        name,
        key,
        base: text(settings.base_url) || (name === 'brave' ? 'https://api.search.brave.com' : 'https://api.tavily.com'),
      };
    }
  }
}

/**
 * The backend to use: `tools.web_search.backend`, or with `auto` (the default) the first that can
 * serve of Tavily, Brave, SearXNG (each only when configured), then DuckDuckGo.
 */
export function chooseBackend(section: ToolSection): Backend {
  const wanted = text(section.backend) || 'auto';
  if (wanted !== 'auto') {
    if (!(BACKENDS as readonly string[]).includes(wanted))
      return {
        name: 'duckduckgo',
        missing: {
          en: `tools.web_search.backend is ${JSON.stringify(wanted)}; use auto, ${BACKENDS.join(', ')}`,
          zh: `tools.web_search.backend 为 ${JSON.stringify(wanted)}；请使用 auto、${BACKENDS.join('、')}`,
          ja: `tools.web_search.backend が ${JSON.stringify(wanted)} です。auto、${BACKENDS.join('、')} のいずれかにしてください`,
        },
      };
    return backend(section, wanted as BackendName);
  }
  const candidates = BACKENDS.map((name) => backend(section, name));
  return (
    candidates.find((candidate) => !('missing' in candidate)) ?? {
      name: 'duckduckgo',
      missing: {
        en: `no backend can serve: ${reasons(candidates, 'en', '; ')}`,
        zh: `没有可用的搜索后端：${reasons(candidates, 'zh', '；')}`,
        ja: `使える検索バックエンドがありません：${reasons(candidates, 'ja', '、')}`,
      },
    }
  );
}

/** Why each candidate cannot serve, in one language. */
const reasons = (candidates: Backend[], language: Language, separator: string): string =>
  candidates.map((candidate) => ('missing' in candidate ? candidate.missing[language] : '')).join(separator);

/** Searches with one backend; throws a SafeFetchError or an Error saying what the service answered. */
export async function search(
  chosen: Extract<Backend, { base: string }>,
  query: string,
  count: number,
  section: ToolSection,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const { parseHTML } = await import('linkedom');
  const base = chosen.base.replace(/\/+$/, '');
  // The configured service is trusted to be where it is (a SearXNG at home is a private address).
  const rules = safeFetchSettings(section, 'tools.web_search');
  const fetchOptions: SafeFetchOptions = {
    ...rules,
    allowHosts: [...(rules.allowHosts ?? []), new URL(base).hostname.replace(/^\[|\]$/g, '')],
    signal,
    timeoutMs: Number(section.timeout_ms ?? 15_000),
    maxBytes: 4 * 1024 * 1024,
  };
  const get = async (url: string, options: SafeFetchOptions = {}) => {
    const response = await safeFetch(url, {
      ...fetchOptions,
      ...options,
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Riverse/0.1)', ...options.headers },
    });
    if (response.status >= 400)
      throw new Error(
        `${chosen.name} answered HTTP ${response.status} ${response.statusText}${response.status === 401 || response.status === 403 ? ' (check its api_key, or for SearXNG that search.formats includes json)' : ''}`,
      );
    return response.body.toString('utf8');
  };
  const json = (body: string): Record<string, unknown> => {
    try {
      return JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw new Error(`${chosen.name} sent an answer that is not JSON`);
    }
  };
  switch (chosen.name) {
    case 'duckduckgo':
      return duckduckgoResults(
        parseHTML,
        await get(`${base}/html/?q=${encodeURIComponent(query)}`, { headers: { accept: 'text/html' } }),
      ).slice(0, count);
    case 'searxng': {
      const body = json(
        await get(`${base}/search?q=${encodeURIComponent(query)}&format=json`, {
          headers: { accept: 'application/json' },
        }),
      );
      return list(body.results)
        .map((item) => ({ title: text(item.title), url: text(item.url), snippet: text(item.content) }))
        .slice(0, count);
    }
    case 'brave': {
      const body = json(
        await get(`${base}/res/v1/web/search?q=${encodeURIComponent(query)}&count=${count}`, {
          headers: { accept: 'application/json', 'x-subscription-token': chosen.key! },
        }),
      );
      const web = (body.web ?? {}) as Record<string, unknown>;
      return list(web.results)
        .map((item) => ({
          title: plain(parseHTML, text(item.title)),
          url: text(item.url),
          snippet: plain(parseHTML, text(item.description)),
        }))
        .slice(0, count);
    }
    case 'tavily': {
      const body = json(
        await get(`${base}/search`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Bearer ${chosen.key}`,
          },
          body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
        }),
      );
      return list(body.results)
        .map((item) => ({ title: text(item.title), url: text(item.url), snippet: text(item.content) }))
        .slice(0, count);
    }
  }
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

/** Text of a bit of HTML (Brave marks the query words with <strong>). */
type ParseHtml = typeof import('linkedom').parseHTML;

function plain(parseHTML: ParseHtml, html: string): string {
  return String(parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body.textContent ?? '').trim();
}

/** The little of linkedom's element this reads. */
interface HtmlElement {
  classList: { contains(name: string): boolean };
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): HtmlElement | null;
}

/** The organic results of DuckDuckGo's HTML page (ads left out); its links go through a redirector that carries the target in `uddg`. */
export function duckduckgoResults(parseHTML: ParseHtml, html: string): SearchResult[] {
  const { document } = parseHTML(html);
  const results: SearchResult[] = [];
  for (const result of Array.from(document.querySelectorAll('.result') as unknown as ArrayLike<HtmlElement>)) {
    if (result.classList.contains('result--ad')) continue;
    const link = result.querySelector('a.result__a');
    if (link === null) continue;
    const href = link.getAttribute('href') ?? '';
    let url = href;
    try {
      const parsed = new URL(href, 'https://duckduckgo.com');
      url = parsed.searchParams.get('uddg') ?? parsed.href;
    } catch {
      // keep the link as written
    }
    const clean = (value: string | null | undefined) =>
      String(value ?? '')
        .replace(/\s+/g, ' ')
        .trim();
    results.push({
      title: clean(link.textContent),
      url,
      snippet: clean(result.querySelector('.result__snippet')?.textContent),
    });
  }
  return results;
}
