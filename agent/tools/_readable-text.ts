// The readable text of an HTML page: Mozilla's Readability (Firefox's reader view) picks the
// article out of menus, ads and footers, on linkedom's DOM; the article is then written out as
// plain text, one block per line, so headings, paragraphs and list items stay apart.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);
const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'NAV',
  'FOOTER',
  'FORM',
  'BUTTON',
]);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** The page's title and its main text. */
export function readableText(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const fallbackTitle = String(document.title ?? '').trim();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability changes the document it reads; a page too short for it still has a body to read.
    article = new Readability(parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 200,
    }).parse();
  } catch {
    article = null;
  }
  const root = article?.content
    ? (parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document.body as unknown as DomNode)
    : (document.body as unknown as DomNode | null);
  return { title: (article?.title ?? '').trim() || fallbackTitle, text: root === null ? '' : blocksOf(root) };
}

function blocksOf(root: DomNode): string {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/[ \t\r\n\f]+/g, ' ').trim();
    if (text !== '') lines.push(text);
    line = '';
  };
  const walk = (node: DomNode): void => {
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    if (name === 'BR') {
      flush();
      return;
    }
    if (name === 'PRE') {
      flush();
      lines.push((node.textContent ?? '').replace(/\n+$/, ''));
      return;
    }
    const block = BLOCKS.has(name);
    if (block) flush();
    if (/^H[1-6]$/.test(name)) line += `${'#'.repeat(Number(name[1]))} `;
    if (name === 'LI') line += '- ';
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) flush();
  };
  walk(root);
  flush();
  return lines.join('\n');
}

/** The smallest declared width and height of an `<img>` taken as the page's main picture (icons and buttons are smaller). */
const LARGE_IMAGE_PX = 200;

interface ImgElement {
  getAttribute(name: string): string | null;
}

/**
 * The address of the page's main picture: its `og:image` (or `twitter:image`), else the first
 * `<img>` whose declared width and height are both at least 200 px; resolved against the page's
 * address, http(s) only. Undefined when it names none.
 */
export function mainImageUrl(html: string, pageUrl: string): string | undefined {
  const { document } = parseHTML(html);
  const meta = (selector: string) =>
    (document.querySelector(selector) as ImgElement | null)?.getAttribute('content')?.trim() || undefined;
  const declared =
    meta('meta[property="og:image:secure_url"]') ??
    meta('meta[property="og:image"]') ??
    meta('meta[property="og:image:url"]') ??
    meta('meta[name="twitter:image"]') ??
    meta('meta[property="twitter:image"]');
  const large = (img: ImgElement) =>
    Number.parseInt(img.getAttribute('width') ?? '', 10) >= LARGE_IMAGE_PX &&
    Number.parseInt(img.getAttribute('height') ?? '', 10) >= LARGE_IMAGE_PX;
  const img = (Array.from(document.querySelectorAll('img')) as unknown as ImgElement[]).find(
    (candidate) => large(candidate) && (candidate.getAttribute('src') ?? '').trim() !== '',
  );
  const src = declared ?? img?.getAttribute('src')?.trim();
  if (src === undefined) return undefined;
  try {
    const url = new URL(src, pageUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
