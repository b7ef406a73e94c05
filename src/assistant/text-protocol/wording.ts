import type { Language } from '../../core/language.ts';

/** What the text protocol says to the model, per language; the instructions, the repair message and the results share it. */
export interface Wording {
  heading: string;
  howTo: string;
  after: string;
  parameters: string;
  repairLead: string;
  repairFormat: string;
  results: string;
  succeeded: string;
  failed: string;
  resultsAfter: string;
}

export const CALL_EXAMPLE = {
  en: '{"tool": "<tool name>", "arguments": {"<parameter>": <value>}}',
  zh: '{"tool": "<工具名>", "arguments": {"<参数名>": <值>}}',
  ja: '{"tool": "<ツール名>", "arguments": {"<パラメータ名>": <値>}}',
} as const;

export const WORDING: Record<Language, Wording> = {
  en: {
    heading: '## Tools',
    howTo:
      'To call a tool, reply with ONLY a fenced JSON block and nothing else. To call several tools at once, put an array of such objects in the one block.',
    after:
      'Tool results come back as a message; then answer the user normally, without a block (or call another tool if you still need one). Use only the tools and parameters listed below; never invent tool names. If no tool is needed, just answer.',
    parameters: 'parameters',
    repairLead: 'Your tool call could not be used:',
    repairFormat:
      'To call a tool, reply with only a ```json block holding {"tool": "<tool name>", "arguments": {...}} (or an array of them). To answer without a tool, reply in plain text with no block.',
    results: 'Tool results',
    succeeded: 'succeeded',
    failed: 'FAILED',
    resultsAfter:
      'Answer the user with these results, in plain text without a block — or call another tool if you still need one.',
  },
  zh: {
    heading: '## 工具',
    howTo:
      '需要调用工具时，只回复一个 JSON 代码块，不要写任何其他内容。要同时调用多个工具，就在这一个代码块里放这些对象组成的数组。',
    after:
      '工具结果会以消息的形式返回；之后请用正常的文字回答用户，不要再写代码块（如果还需要别的工具，可以继续调用）。只能使用下面列出的工具和参数，不要编造工具名。不需要工具时直接回答即可。',
    parameters: '参数',
    repairLead: '你的工具调用无法使用：',
    repairFormat:
      '调用工具时，只回复一个 ```json 代码块，内容为 {"tool": "<工具名>", "arguments": {...}}（或由这样的对象组成的数组）。不用工具回答时，直接用文字回复，不要写代码块。',
    results: '工具结果',
    succeeded: '成功',
    failed: '失败',
    resultsAfter: '请根据这些结果用文字回答用户，不要写代码块；如果还需要别的工具，也可以继续调用。',
  },
  ja: {
    heading: '## ツール',
    howTo:
      'ツールを呼び出すときは、JSON のコードブロックだけを返信し、ほかには何も書かないでください。複数のツールを同時に呼び出すときは、それらのオブジェクトの配列を一つのブロックに入れてください。',
    after:
      'ツールの結果はメッセージとして届きます。その後はブロックを付けずに、普通の文章でユーザーに回答してください（まだ別のツールが必要なら、続けて呼び出してもかまいません）。下に挙げたツールとパラメータだけを使い、ツール名を作り出さないでください。ツールが不要なら、そのまま回答してください。',
    parameters: 'パラメータ',
    repairLead: 'ツール呼び出しを使用できませんでした：',
    repairFormat:
      'ツールを呼び出すときは、{"tool": "<ツール名>", "arguments": {...}}（またはその配列）を入れた ```json ブロックだけを返信してください。ツールを使わずに回答するときは、ブロックなしの普通の文章で返信してください。',
    results: 'ツールの結果',
    succeeded: '成功',
    failed: '失敗',
    resultsAfter:
      'これらの結果をもとに、ブロックを付けずに文章でユーザーに回答してください。まだ別のツールが必要なら、続けて呼び出してもかまいません。',
  },
};
