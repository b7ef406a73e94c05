// @ts-check
// Per tool, a small chart of its calls over time (GET /api/traces/tools): a bar per bucket, its
// failed calls in red at the bottom, and the p50 and p95 run time as two lines on their own scale;
// the figures of the whole period in words above it. SVG drawn here: no chart library (decision 031's addendum).
import { h } from './dom.js';
import { formatDuration, formatTime, language, pluralKey, t } from './i18n.js';

/**
 * What GET /api/traces/tools answers (docs/server-api.md).
 * @typedef {{ calls: number, failures: number, p50Ms?: number, p95Ms?: number }} Figures
 * @typedef {Figures & { tool: string, buckets: (Figures & { start: string })[] }} ToolSeries
 * @typedef {{ since: string, until: string, bucketMs: number, tools: ToolSeries[] }} ToolStats
 */

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 240;
const HEIGHT = 72;
/** The bars' room at the top: the lines' highest point sits below it. */
const TOP = 4;

/**
 * The charts of every tool in `stats`, or the empty state.
 * @param {ToolStats} stats
 */
export function toolCharts(stats) {
  const tools = Array.isArray(stats.tools) ? stats.tools : [];
  if (tools.length === 0) return h('p', { class: 'empty', i18n: 'noToolStats' });
  return h(
    'div',
    { class: 'tool-charts' },
    h(
      'ul',
      { class: 'chart-legend' },
      [
        ['calls', 'legendCalls'],
        ['failed', 'legendCallsFailed'],
        ['p50', 'legendP50'],
        ['p95', 'legendP95'],
      ].map(([kind, key]) =>
        h(
          'li',
          {},
          h('span', { class: `chart-swatch chart-swatch-${kind}`, 'aria-hidden': 'true' }),
          h('span', { i18n: /** @type {import('./messages.js').MessageKey} */ (key) }),
        ),
      ),
    ),
    h(
      'ul',
      { class: 'chart-grid' },
      tools.map((series) => h('li', {}, toolChart(series, stats))),
    ),
  );
}

/**
 * One tool's chart.
 * @param {ToolSeries} series
 * @param {ToolStats} stats
 */
function toolChart(series, stats) {
  const figures = figureVars(series);
  const key = pluralKey(series.calls, 'chartFiguresOne', 'chartFigures');
  const svg = chartSvg(series);
  // The picture's words, said again when the language changes (the SVG is not translated by data-i18n).
  const label = () =>
    t('chartLabel', {
      tool: series.tool,
      since: formatTime(stats.since),
      until: formatTime(stats.until),
      figures: t(key, figures),
    });
  svg.setAttribute('aria-label', label());
  const article = h(
    'article',
    { class: 'tool-chart card', 'data-tool': series.tool },
    h('h3', { class: 'tool-name', text: series.tool }),
    h('p', { class: 'chart-figures', i18n: key, i18nVars: figures }),
    h('p', {
      class: 'chart-scale muted',
      'aria-hidden': 'true',
      i18n: 'chartScale',
      i18nVars: {
        calls: Math.max(0, ...series.buckets.map((bucket) => bucket.calls)),
        time: formatDuration(slowestOf(series)),
      },
    }),
    svg,
    h(
      'p',
      { class: 'chart-axis muted', 'aria-hidden': 'true' },
      h('span', { text: shortTime(stats.since, stats) }),
      h('span', { text: shortTime(stats.until, stats) }),
    ),
  );
  return article;
}

/**
 * The slowest bucket's p95: the top of the lines' scale.
 * @param {ToolSeries} series
 */
function slowestOf(series) {
  return Math.max(0, ...series.buckets.map((bucket) => bucket.p95Ms ?? 0));
}

/**
 * A time on the axis: the time of day within a day's window, the date and time beyond it.
 * @param {string} iso
 * @param {ToolStats} stats
 */
function shortTime(iso, stats) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const window = Date.parse(stats.until) - Date.parse(stats.since);
  /** @type {Intl.DateTimeFormatOptions} */
  const style =
    window > 86_400_000
      ? { dateStyle: 'short', timeStyle: 'short' }
      : { timeStyle: window > 3_600_000 ? 'short' : 'medium' };
  return new Intl.DateTimeFormat(language(), style).format(date);
}

/** @param {Figures} figures */
function figureVars(figures) {
  const failed = figures.calls === 0 ? 0 : figures.failures / figures.calls;
  return {
    calls: figures.calls,
    p50: figures.p50Ms === undefined ? '—' : formatDuration(figures.p50Ms),
    p95: figures.p95Ms === undefined ? '—' : formatDuration(figures.p95Ms),
    failed: new Intl.NumberFormat(language(), {
      style: 'percent',
      maximumFractionDigits: 1,
    }).format(failed),
  };
}

/**
 * The bars and lines, scaled to the chart's box (stretched to the card's width; the lines keep their thickness).
 * @param {ToolSeries} series
 */
function chartSvg(series) {
  const buckets = Array.isArray(series.buckets) ? series.buckets : [];
  const svg = svgElement('svg', {
    class: 'chart',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: 'none',
    role: 'img',
  });
  const n = Math.max(1, buckets.length);
  const step = WIDTH / n;
  const most = Math.max(1, ...buckets.map((bucket) => bucket.calls));
  const slowest = Math.max(0.1, slowestOf(series));
  const room = HEIGHT - TOP;
  buckets.forEach((bucket, index) => {
    if (bucket.calls === 0) return;
    const x = index * step + step * 0.15;
    const width = step * 0.7;
    const height = (bucket.calls / most) * room;
    const failed = (bucket.failures / most) * room;
    svg.append(
      svgElement('rect', {
        class: 'chart-bar',
        x,
        y: HEIGHT - height,
        width,
        height: height - failed,
      }),
    );
    if (failed > 0)
      svg.append(svgElement('rect', { class: 'chart-bar-failed', x, y: HEIGHT - failed, width, height: failed }));
  });
  // Each line as steps, level across its bucket's bar, broken where a bucket has no calls (one
  // bucket alone is still a visible stroke).
  for (const [kind, pick] of /** @type {const} */ ([
    ['p50', 'p50Ms'],
    ['p95', 'p95Ms'],
  ])) {
    /** @type {string[][]} */
    const runs = [];
    let run = /** @type {string[] | null} */ (null);
    buckets.forEach((bucket, index) => {
      const value = bucket[pick];
      if (value === undefined) {
        run = null;
        return;
      }
      if (run === null) {
        run = [];
        runs.push(run);
      }
      const y = (HEIGHT - (value / slowest) * room).toFixed(1);
      run.push(`${(index * step + step * 0.1).toFixed(1)},${y}`, `${(index * step + step * 0.9).toFixed(1)},${y}`);
    });
    for (const points of runs)
      svg.append(svgElement('polyline', { class: `chart-line chart-${kind}`, points: points.join(' ') }));
  }
  return svg;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 */
function svgElement(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}
