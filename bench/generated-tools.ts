// Realistic generated tool files for the benchmarks: distinct classes, localized manifests,
// 2–3 parameters and 2–3 examples each.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TOPICS = [
  {
    noun: 'weather',
    verb: 'Get the forecast',
    zh: '查询天气',
    ja: '天気を調べる',
    choices: ['metric', 'imperial', 'kelvin'],
  },
  {
    noun: 'stock',
    verb: 'Look up a stock quote',
    zh: '查询股票行情',
    ja: '株価を調べる',
    choices: ['price', 'chart', 'news'],
  },
  { noun: 'recipe', verb: 'Find a recipe', zh: '查找菜谱', ja: 'レシピを探す', choices: ['quick', 'vegan', 'classic'] },
  {
    noun: 'flight',
    verb: 'Check a flight',
    zh: '查询航班',
    ja: 'フライトを確認する',
    choices: ['status', 'gate', 'delay'],
  },
  { noun: 'note', verb: 'Search the notes', zh: '搜索笔记', ja: 'メモを検索する', choices: ['title', 'body', 'tag'] },
];

/** One realistic tool file: a distinct class, localized manifest, 2–3 parameters, 2–3 examples. */
export function toolSource(index: number): string {
  const topic = TOPICS[index % TOPICS.length]!;
  const id = String(index).padStart(4, '0');
  const name = `${topic.noun}_${id}`;
  const className = `${topic.noun[0]!.toUpperCase()}${topic.noun.slice(1)}${id}Tool`;
  const limit =
    index % 2 === 0 ? `\n        limit: { type: 'integer', description: 'Most results to return', default: 5 },` : '';
  const third = index % 3 === 0 ? `, '${topic.verb} #${index} once more'` : '';
  return `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

type Mode = ${topic.choices.map((choice) => `'${choice}'`).join(' | ')};

type Params = {
  query: string;
  mode?: Mode;
  limit?: number;
};

/** Generated for the loading benchmark: ${topic.verb.toLowerCase()} (#${index}). */
export class ${className} extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: '${name}',
      description: {
        en: '${topic.verb} (source #${index})',
        zh: '${topic.zh}（来源 #${index}）',
        ja: '${topic.ja}（ソース #${index}）',
      },
      parameters: {
        query: { type: 'string', required: true, description: { en: 'What to look up', zh: '要查询的内容', ja: '調べる内容' } },
        mode: { type: 'string', enum: ${JSON.stringify(topic.choices).replaceAll('"', "'")}, description: 'Which view to return' },${limit}
      },
      examples: {
        en: ['${topic.verb} for me', 'Can you ${topic.verb.toLowerCase()}?'${third}],
        zh: ['帮我${topic.zh}', '请${topic.zh}'],
        ja: ['${topic.ja}してください', '${topic.ja}のを手伝って'],
      },
    };
  }

  execute(params: Params, context: ToolContext): ToolResult {
    return ToolResult.ok(\`${name} (\${context.language}): \${params.query} as \${params.mode ?? '${topic.choices[0]}'}\`);
  }
}
`;
}

export async function writeTools(folder: string, count: number): Promise<number> {
  await mkdir(folder, { recursive: true });
  let bytes = 0;
  for (let index = 1; index <= count; index++) {
    const source = toolSource(index);
    bytes += Buffer.byteLength(source);
    await writeFile(join(folder, `tool-${String(index).padStart(4, '0')}.ts`), source);
  }
  return bytes;
}
