import {
  BaseTool,
  safeFetch,
  SafeFetchError,
  safeFetchSettings,
  ToolResult,
  type ToolContext,
  type ToolManifest,
} from 'riverse';

type Params = { url: string; image?: boolean };

/** The largest main picture returned as an image part (`tools.web_fetch.image_max_bytes`; a result's parts hold 6 MiB in all). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)\b/;

/** What is said of the page's main picture, in the person's language (the text the model reads beside the part). */
const MAIN_IMAGE = {
  en: {
    attached: (url: string, type: string, bytes: string) =>
      `Main image: ${url} (${type}, ${bytes} bytes); it is attached.`,
    none: 'Main image: the page names none (no og:image, no <img> of at least 200×200).',
    failed: (url: string, why: string) => `Main image: ${url} could not be fetched (${why}).`,
  },
  zh: {
    attached: (url: string, type: string, bytes: string) => `主图：${url}（${type}，${bytes} 字节），已附上。`,
    none: '主图：网页没有指明（没有 og:image，也没有至少 200×200 的 <img>）。',
    failed: (url: string, why: string) => `主图：无法获取 ${url}（${why}）。`,
  },
  ja: {
    attached: (url: string, type: string, bytes: string) =>
      `メイン画像：${url}（${type}、${bytes} バイト）。添付しました。`,
    none: 'メイン画像：ページに指定がありません（og:image も、200×200 以上の <img> もありません）。',
    failed: (url: string, why: string) => `メイン画像：${url} を取得できませんでした（${why}）。`,
  },
};

/** An HTTP error, in the person's language: the dashboard and `tools run` show it as it is. */
const HTTP_FAILED = {
  en: (url: string, status: string) => `${url} answered HTTP ${status}.`,
  zh: (url: string, status: string) => `${url} 返回了 HTTP ${status}。`,
  ja: (url: string, status: string) => `${url} が HTTP ${status} を返しました。`,
};

/**
 * The readable text of a web page (http and https only). Private, loopback, link-local and cloud
 * metadata addresses are refused on every hop, redirects included, unless allowed. Config
 * (tools.web_fetch): allow_private (false), allow_hosts ([]: names, `*.lan`, addresses or CIDRs),
 * hosts ({ name: address }), max_bytes (2097152), timeout_ms (15000), max_redirects (5),
 * user_agent, image_max_bytes (5242880: the main picture, returned only when `image: true` asks for it).
 */
export class WebFetchTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'web_fetch',
      description: {
        en: 'Fetch a web page by its URL and return its readable text',
        zh: '按网址获取网页并返回其正文文本',
        ja: 'URL を指定してウェブページを取得し、本文のテキストを返す',
      },
      parameters: {
        url: {
          type: 'string',
          required: true,
          description: {
            en: 'The page address, starting with http:// or https://',
            zh: '网页地址，以 http:// 或 https:// 开头',
            ja: 'ページのアドレス（http:// または https:// で始まる）',
          },
        },
        image: {
          type: 'boolean',
          default: false,
          description: {
            en: "Also return the page's main picture (its og:image, or the first large <img>) as an image",
            zh: '同时以图片形式返回网页的主图（其 og:image，或第一张大图 <img>）',
            ja: 'ページのメイン画像（og:image、または最初の大きな <img>）も画像として返す',
          },
        },
      },
      examples: {
        en: [
          'Read https://example.com/article and summarize it',
          'What does this page say: https://nodejs.org/en/about',
        ],
        zh: ['读一下 https://example.com/article 并总结', '这个网页写了什么：https://nodejs.org/zh-cn/about'],
        ja: [
          'https://example.com/article を読んで要約して',
          'このページには何が書いてある？ https://nodejs.org/ja/about',
        ],
      },
      timeoutMs: 30_000,
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const section = context.config;
    const fetchOptions = (maxBytes: number, accept: string) => ({
      ...safeFetchSettings(section, 'tools.web_fetch'),
      signal: context.signal,
      timeoutMs: Number(section.timeout_ms ?? 15_000),
      maxBytes,
      maxRedirects: Number(section.max_redirects ?? 5),
      headers: { 'user-agent': String(section.user_agent ?? 'Riverse/0.1 (+web_fetch)'), accept },
    });
    let response;
    try {
      response = await safeFetch(
        params.url.trim(),
        fetchOptions(
          Number(section.max_bytes ?? 2 * 1024 * 1024),
          'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1',
        ),
      );
    } catch (error) {
      if (error instanceof SafeFetchError) return ToolResult.fail(error.in(context.language));
      throw error;
    }
    if (response.status >= 400)
      return ToolResult.fail(
        (HTTP_FAILED[context.language] ?? HTTP_FAILED.en)(
          response.url,
          `${response.status} ${response.statusText}`.trim(),
        ),
      );
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    const cut = response.truncated
      ? `\n…[the page is longer than ${response.body.length.toLocaleString('en')} bytes; the rest was not read]`
      : '';
    // An address that is a picture gives the picture: a model that can see is shown it.
    const image = IMAGE_TYPE.exec(type)?.[0];
    if (image !== undefined && !response.truncated)
      return {
        success: true,
        data: `${response.url} is an image (${image}, ${response.body.length.toLocaleString('en')} bytes); it is attached.`,
        content: [{ type: 'image', data: response.body, mimeType: image }],
      };
    const text = decode(response.body, type);
    if (text === undefined)
      return ToolResult.ok(
        `${response.url} is ${type || 'binary data'} (${response.body.length.toLocaleString('en')} bytes${response.truncated ? ' or more' : ''}), not text; it is not shown.`,
      );
    if (!/html|xml/.test(type) && !/^\s*<(!doctype html|html)/i.test(text))
      return ToolResult.ok(`URL: ${response.url}\n\n${text}${cut}`);
    // Readability and linkedom load with the first page read, not with the tool (issue 25).
    const { readableText, mainImageUrl } = await import('./_readable-text.ts');
    const page = readableText(text);
    const read = `${page.title === '' ? '' : `Title: ${page.title}\n`}URL: ${response.url}\n\n${page.text}${cut}`;
    if (params.image !== true) return ToolResult.ok(read);
    // Asked for: the main picture, fetched as the page was (every hop checked), within its own cap.
    const said = MAIN_IMAGE[context.language] ?? MAIN_IMAGE.en;
    const address = mainImageUrl(text, response.url);
    if (address === undefined) return ToolResult.ok(`${read}\n\n${said.none}`);
    const maxImage = Number(section.image_max_bytes ?? MAX_IMAGE_BYTES);
    let picture;
    try {
      picture = await safeFetch(address, fetchOptions(maxImage, 'image/png,image/jpeg,image/webp,image/gif;q=0.9'));
    } catch (error) {
      if (error instanceof SafeFetchError)
        return ToolResult.ok(`${read}\n\n${said.failed(address, error.in(context.language))}`);
      throw error;
    }
    const pictureType = IMAGE_TYPE.exec(String(picture.headers['content-type'] ?? '').toLowerCase())?.[0];
    const why =
      picture.status >= 400
        ? `HTTP ${picture.status}`
        : pictureType === undefined
          ? `${String(picture.headers['content-type'] ?? 'no type')}, not png, jpeg, gif or webp`
          : picture.truncated
            ? `more than ${maxImage.toLocaleString('en')} bytes`
            : undefined;
    if (why !== undefined || pictureType === undefined)
      return ToolResult.ok(`${read}\n\n${said.failed(picture.url, why ?? '')}`);
    return {
      success: true,
      data: `${read}\n\n${said.attached(picture.url, pictureType, picture.body.length.toLocaleString('en'))}`,
      content: [{ type: 'image', data: picture.body, mimeType: pictureType }],
    };
  }
}

/** The body as text in its declared charset, or undefined when it is not text. */
function decode(body: Buffer, type: string): string | undefined {
  const textual = type === '' || /^text\/|json|xml|javascript|html/.test(type);
  if (!textual || body.subarray(0, 8192).includes(0)) return undefined;
  const charset = /charset="?([\w-]+)/.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
