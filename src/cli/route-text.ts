import type { BenchProblem } from '../routing/route-benchmark.ts';
import type { Language } from '../core/language.ts';

/** What `riverse bench route` and `riverse tools eval` print, in each language. */
export interface RouteText {
  error: string;
  unreadable: (file: string, reason: string) => string;
  badK: (value: string) => string;
  problem: (where: string, problem: BenchProblem) => string;
  summary: (requests: number, tools: number, languages: string) => string;
  hit: string;
  recall: string;
  timing: (indexMs: number, p50: number, p95: number) => string;
  tokens: (catalog: number) => string;
  tokensAt: (k: number, tokens: number, share: string) => string;
  /** `tools eval`. */
  evalNoExamples: string;
  /** `reached` empty: the example shares no word with any tool. */
  evalMiss: (tool: string, example: string, reached: string[]) => string;
  evalSummary: (examples: number, tools: number, misses: number, k: number) => string;
  /** `tools eval --model`: `reached` empty, the model answered without a tool; `error`, it could not be asked. */
  evalModelMiss: (tool: string, example: string, reached: string[], error: string | undefined) => string;
  evalModelSummary: (model: string, examples: number, misses: number) => string;
  /** The embeddings endpoint failed: tools are chosen by words alone meanwhile. */
  semanticFailed: (detail: string) => string;
}

const EXPECTED_EN = {
  string: 'a string',
  'non-empty-string': 'a non-empty string',
  strings: 'a list of strings',
  names: 'a non-empty list of tool names',
} as const;
const EXPECTED_ZH = {
  string: '字符串',
  'non-empty-string': '非空字符串',
  strings: '字符串列表',
  names: '非空的工具名列表',
} as const;
const EXPECTED_JA = {
  string: '文字列',
  'non-empty-string': '空でない文字列',
  strings: '文字列のリスト',
  names: '空でないツール名のリスト',
} as const;

export const ROUTE_TEXT: Record<Language, RouteText> = {
  en: {
    error: 'error: ',
    unreadable: (file, reason) => `cannot read ${file}: ${reason}`,
    badK: (value) => `--k takes positive whole numbers separated by commas (such as 1,3,5,10,20), not "${value}"`,
    problem: (where, problem) =>
      `${where}: ${
        problem.code === 'not-json'
          ? `not JSON (${problem.detail}); each line must be one JSON object`
          : problem.code === 'not-object'
            ? 'each line must be one JSON object'
            : problem.code === 'missing'
              ? `"${problem.field}" is missing`
              : problem.code === 'wrong-type'
                ? `"${problem.field}" must be ${EXPECTED_EN[problem.expected]}`
                : 'the file has no lines; expected one JSON object a line'
      }`,
    summary: (requests, tools, languages) => `${requests} requests (${languages}) against ${tools} tools`,
    hit: 'hit',
    recall: 'recall',
    timing: (indexMs, p50, p95) => `index built in ${indexMs} ms; per request p50 ${p50} ms, p95 ${p95} ms`,
    tokens: (catalog) => `tool definitions: the whole catalog ${catalog} tokens`,
    tokensAt: (k, tokens, share) => `  top ${k}: ${tokens} tokens (${share} of the catalog)`,
    evalNoExamples: "No tool has examples to replay. Add 2–3 requests to each manifest's `examples`.",
    evalMiss: (tool, example, reached) =>
      `✗ ${tool}: "${example}" ${reached.length === 0 ? 'reached no tool' : `reached ${reached.join(', ')}`}`,
    evalSummary: (examples, tools, misses, k) =>
      misses === 0
        ? `All ${examples} examples of ${tools} tools reach their tool in the top ${k}.`
        : `${misses} of ${examples} examples do not reach their tool in the top ${k}.`,
    evalModelMiss: (tool, example, reached, error) =>
      `✗ ${tool}: "${example}" — ${error !== undefined ? `the model could not be asked: ${error}` : reached.length === 0 ? 'the model called no tool' : `the model called ${reached.join(', ')}`}`,
    semanticFailed: (detail) =>
      `warning: the embeddings for choosing tools failed (${detail}); tools are chosen by their words alone until they work (routing.embeddings in riverse.yaml).`,
    evalModelSummary: (model, examples, misses) =>
      misses === 0
        ? `${model} calls the right tool for all ${examples} examples.`
        : `${model} does not call the example's tool for ${misses} of ${examples} examples.`,
  },
  zh: {
    error: '错误：',
    unreadable: (file, reason) => `无法读取 ${file}：${reason}`,
    badK: (value) => `--k 需要用逗号分隔的正整数（例如 1,3,5,10,20），而不是 "${value}"`,
    problem: (where, problem) =>
      `${where}：${
        problem.code === 'not-json'
          ? `不是 JSON（${problem.detail}）；每行必须是一个 JSON 对象`
          : problem.code === 'not-object'
            ? '每行必须是一个 JSON 对象'
            : problem.code === 'missing'
              ? `缺少 "${problem.field}"`
              : problem.code === 'wrong-type'
                ? `"${problem.field}" 必须是${EXPECTED_ZH[problem.expected]}`
                : '文件没有内容；应为每行一个 JSON 对象'
      }`,
    summary: (requests, tools, languages) => `${requests} 条请求（${languages}），${tools} 个工具`,
    hit: '命中',
    recall: '召回',
    timing: (indexMs, p50, p95) => `建索引 ${indexMs} 毫秒；每条请求 p50 ${p50} 毫秒，p95 ${p95} 毫秒`,
    tokens: (catalog) => `工具定义：全部目录 ${catalog} 个 token`,
    tokensAt: (k, tokens, share) => `  前 ${k} 个：${tokens} 个 token（目录的 ${share}）`,
    evalNoExamples: '没有工具带有可重放的示例。请在每个清单的 `examples` 中写 2–3 条请求。',
    evalMiss: (tool, example, reached) =>
      `✗ ${tool}：“${example}” ${reached.length === 0 ? '没有到达任何工具' : `到达了 ${reached.join('、')}`}`,
    evalSummary: (examples, tools, misses, k) =>
      misses === 0
        ? `${tools} 个工具的全部 ${examples} 条示例都在前 ${k} 名内到达了自己的工具。`
        : `${examples} 条示例中有 ${misses} 条没有在前 ${k} 名内到达自己的工具。`,
    evalModelMiss: (tool, example, reached, error) =>
      `✗ ${tool}：“${example}” — ${error !== undefined ? `无法询问模型：${error}` : reached.length === 0 ? '模型没有调用工具' : `模型调用了 ${reached.join('、')}`}`,
    semanticFailed: (detail) =>
      `警告：用于挑选工具的向量嵌入失败（${detail}）；在恢复之前只按文字挑选工具（riverse.yaml 的 routing.embeddings）。`,
    evalModelSummary: (model, examples, misses) =>
      misses === 0
        ? `${model} 对全部 ${examples} 条示例都调用了正确的工具。`
        : `${examples} 条示例中有 ${misses} 条 ${model} 没有调用示例的工具。`,
  },
  ja: {
    error: 'エラー: ',
    unreadable: (file, reason) => `${file} を読めません: ${reason}`,
    badK: (value) => `--k にはカンマ区切りの正の整数（例: 1,3,5,10,20）を指定してください。"${value}" は使えません`,
    problem: (where, problem) =>
      `${where}: ${
        problem.code === 'not-json'
          ? `JSON ではありません（${problem.detail}）。各行は 1 つの JSON オブジェクトにしてください`
          : problem.code === 'not-object'
            ? '各行は 1 つの JSON オブジェクトにしてください'
            : problem.code === 'missing'
              ? `"${problem.field}" がありません`
              : problem.code === 'wrong-type'
                ? `"${problem.field}" は${EXPECTED_JA[problem.expected]}にしてください`
                : 'ファイルに行がありません。1 行に 1 つの JSON オブジェクトが必要です'
      }`,
    summary: (requests, tools, languages) => `${requests} 件のリクエスト（${languages}）、ツール ${tools} 個`,
    hit: 'ヒット',
    recall: '再現率',
    timing: (indexMs, p50, p95) => `索引の構築 ${indexMs} ms、リクエストごと p50 ${p50} ms、p95 ${p95} ms`,
    tokens: (catalog) => `ツール定義: カタログ全体で ${catalog} トークン`,
    tokensAt: (k, tokens, share) => `  上位 ${k}: ${tokens} トークン（カタログの ${share}）`,
    evalNoExamples:
      '再生できる例を持つツールがありません。各マニフェストの `examples` にリクエストを 2〜3 件書いてください。',
    evalMiss: (tool, example, reached) =>
      `✗ ${tool}: 「${example}」は${reached.length === 0 ? 'どのツールにも届きません' : ` ${reached.join('、')} に届きました`}`,
    evalSummary: (examples, tools, misses, k) =>
      misses === 0
        ? `${tools} 個のツールの例 ${examples} 件すべてが上位 ${k} 以内で自分のツールに届きます。`
        : `例 ${examples} 件のうち ${misses} 件が上位 ${k} 以内で自分のツールに届きません。`,
    evalModelMiss: (tool, example, reached, error) =>
      `✗ ${tool}: 「${example}」 — ${error !== undefined ? `モデルに問い合わせられません: ${error}` : reached.length === 0 ? 'モデルはツールを呼びませんでした' : `モデルは ${reached.join('、')} を呼びました`}`,
    semanticFailed: (detail) =>
      `警告：ツール選択用の埋め込みに失敗しました（${detail}）。復旧するまで単語だけでツールを選びます（riverse.yaml の routing.embeddings）。`,
    evalModelSummary: (model, examples, misses) =>
      misses === 0
        ? `${model} は例 ${examples} 件すべてで正しいツールを呼びます。`
        : `例 ${examples} 件のうち ${misses} 件で ${model} は例のツールを呼びません。`,
  },
};
