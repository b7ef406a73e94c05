import { BaseTool, SafeFetchError, ToolResult, toolSection, type ToolContext, type ToolManifest } from 'riverse';
import { chooseBackend, search } from './_search-backends.ts';

type Params = { query: string; count: number };

/** Its failures, in the person's language: the dashboard shows them as they are, and the model reads them. */
const ERRORS = {
  en: {
    noQuery: 'Give something to search for, e.g. {"query": "Kyoto tea museum"}.',
    cannot: (why: string) => `web_search cannot search: ${why}.`,
    failed: (backend: string, why: string) => `The search failed (${backend}): ${why}`,
    offline: '; without internet access, set tools.web_search.searxng.url to a SearXNG instance',
    none: (query: string, backend: string) => `No results for ${query} (${backend}).`,
  },
  zh: {
    noQuery: '请给出要搜索的内容，例如 {"query": "Kyoto tea museum"}。',
    cannot: (why: string) => `web_search 无法搜索：${why}。`,
    failed: (backend: string, why: string) => `搜索失败（${backend}）：${why}`,
    offline: '；没有互联网时，请把 tools.web_search.searxng.url 设为一个 SearXNG 实例',
    none: (query: string, backend: string) => `没有找到 ${query} 的结果（${backend}）。`,
  },
  ja: {
    noQuery: '検索する内容を指定してください（例：{"query": "Kyoto tea museum"}）。',
    cannot: (why: string) => `web_search は検索できません：${why}。`,
    failed: (backend: string, why: string) => `検索に失敗しました（${backend}）：${why}`,
    offline:
      '。インターネットに接続できない場合は tools.web_search.searxng.url に SearXNG インスタンスを設定してください',
    none: (query: string, backend: string) => `${query} の検索結果はありません（${backend}）。`,
  },
};

/**
 * Searches the web: titles, snippets and links. Config (tools.web_search): backend (auto,
 * duckduckgo, searxng, brave, tavily), duckduckgo.base_url / enabled, searxng.url,
 * brave.api_key / base_url, tavily.api_key / base_url, max_results (10), timeout_ms (15000).
 * With `auto` it uses the first configured of Tavily, Brave and SearXNG, else DuckDuckGo, which
 * needs no key: so it is available wherever DuckDuckGo is not switched off, and a machine
 * without internet learns so from the call's error, not at start-up.
 */
export class WebSearchTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'web_search',
      description: {
        en: 'Search the web and return result titles, snippets and links',
        zh: '搜索网络，返回结果的标题、摘要和链接',
        ja: 'ウェブを検索し、結果のタイトル・抜粋・リンクを返す',
      },
      parameters: {
        query: {
          type: 'string',
          required: true,
          description: { en: 'What to search for', zh: '要搜索的内容', ja: '検索する内容' },
        },
        count: {
          type: 'integer',
          default: 5,
          description: { en: 'How many results (1–10)', zh: '返回多少条结果（1–10）', ja: '結果の件数（1〜10）' },
        },
      },
      examples: {
        en: ['Search the web for the latest Node.js release', 'Look up reviews of the Kyoto tea museum'],
        zh: ['在网上搜索最新的 Node.js 版本', '查一下京都茶博物馆的评价'],
        ja: ['最新の Node.js のリリースをウェブで検索して', '京都の茶の博物館の口コミを調べて'],
      },
      timeoutMs: 30_000,
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
  }

  override isAvailable(): boolean {
    const chosen = chooseBackend(toolSection(this.config, 'web_search'));
    if ('missing' in chosen) return this.unavailable(chosen.missing);
    return true;
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const say = ERRORS[context.language] ?? ERRORS.en;
    const query = params.query.trim();
    if (query === '') return ToolResult.fail(say.noQuery);
    const chosen = chooseBackend(context.config);
    if ('missing' in chosen) return ToolResult.fail(say.cannot(chosen.missing[context.language] ?? chosen.missing.en));
    const count = Math.max(1, Math.min(params.count, Number(context.config.max_results ?? 10)));
    let results;
    try {
      results = await search(chosen, query, count, context.config, context.signal);
    } catch (error) {
      const hint = chosen.name === 'duckduckgo' ? say.offline : '';
      const message =
        error instanceof SafeFetchError
          ? error.in(context.language)
          : error instanceof Error
            ? error.message
            : String(error);
      // The hint goes on the same sentence: its own punctuation replaces the message's full stop.
      const said = hint === '' ? message : message.replace(/[.。]$/, '');
      return ToolResult.fail(`${say.failed(chosen.name, said)}${hint}`);
    }
    if (results.length === 0) return ToolResult.ok(say.none(JSON.stringify(query), chosen.name));
    return ToolResult.ok(
      results
        .map(
          (result, index) =>
            `${index + 1}. ${result.title}\n   ${result.url}${result.snippet === '' ? '' : `\n   ${result.snippet}`}`,
        )
        .join('\n'),
    );
  }
}
