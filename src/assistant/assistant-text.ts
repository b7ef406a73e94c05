import type { Language } from '../core/language.ts';

/** Everything the assistant itself says, in each language it speaks. */
export interface AssistantText {
  systemPrompt: (today: string) => string;
  roundLimit: (rounds: number) => string;
  repeatedCall: (tool: string, failures: number) => string;
  /** find_tools, offered when the catalog is too large to send whole: its description and parameter. */
  findToolsDescription: string;
  findToolsQuery: string;
  findToolsNeedsQuery: string;
  findToolsFound: (tools: { name: string; description: string }[]) => string;
  findToolsNone: string;
  findToolsLimit: string;
  /** A call to a tool of the catalog that was not offered this turn. */
  notOffered: (tool: string) => string;
  /** A call to a name no tool has, in a routed turn: the tools offered, not the whole catalog. */
  unknownInRoutedTurn: (tool: string, offered: string[]) => string;
  loopStopped: string;
  unparsableCall: (error: string) => string;
  modelFailed: (message: string) => string;
  cancelled: string;
  invalidArguments: (tool: string, error: string) => string;
  incomplete: string;
  /** Stands for a picture a model that cannot see is not given: `what` is its type and size (`image/png, 3.9 kB`), or its link. */
  imageNotShown: (what: string) => string;
  /** The same for a picture of a type the model's API does not take; `types` lists those it does. */
  imageTypeNotShown: (what: string, types: string) => string;
  /** The turn's deadline passed (`assistant.turn_timeout_ms`). */
  turnTimedOut: (seconds: number) => string;
  /** The model request ran into a configured limit: `timeout` (silence) or `reply-too-large`. */
  modelLimit: (code: string, setting: string, value: number) => string;
  /** Saving the conversation failed; the turn stopped there. */
  storeFailed: (detail: string) => string;
  /** The caller's event listener threw; the turn stopped there. */
  listenerFailed: (detail: string) => string;
  internalError: (detail: string) => string;
  /** Told to the model: its last reply asked for more calls than run in one round. */
  tooManyCalls: (ran: number, left: number) => string;
  /** The result of a call past the ceiling of one reply (`ran` calls): it was not run. */
  callNotRun: (tool: string, ran: number) => string;
  /** The caller's tools have names of ours. */
  clientToolClash: (names: readonly string[]) => string;
  /** The caller sent tools, but the model is used without native tool calling. */
  clientToolsNeedNative: string;
  /** The parameters of one of the caller's tools could not be compiled for the model. */
  invalidClientTool: (detail: string) => string;
  /** Replaces the part of a message cut to fit the history budget (the model and the user see it). */
  cutNote: (omittedChars: number) => string;
  /** Told to the model when the answer must be JSON: of this schema (its JSON text), or any object. */
  answerFormat: (schema: string | undefined) => string;
  /** Told to the model when its answer was not that JSON: what was wrong. */
  answerMismatch: (problems: string) => string;
  /** The answer was still not the JSON asked for after one more try. */
  invalidAnswer: (problems: string) => string;
  /** Told to the model when it must call a tool now (`tool_choice`: one named, or any). */
  mustCall: (tool: string | undefined) => string;
  /** `tool_choice` named a tool that this turn does not offer (or, undefined: `required` without any tool). */
  unknownToolChoice: (tool: string | undefined) => string;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export const ASSISTANT_TEXT: Record<Language, AssistantText> = {
  en: {
    systemPrompt: (today) =>
      `You are Riverse, a helpful personal assistant. Today is ${today}. Use the tools when they help answer the user; ` +
      'base your answer on their results, say so plainly when a tool failed, and do not invent results. Answer in English unless the user writes in another language.',
    roundLimit: (rounds) => `(Stopped after ${rounds} rounds of tool calls; answer with what you have so far.)`,
    findToolsDescription:
      'Search all available tools when none of the tools offered fits the request. The tools found are offered from your next step on.',
    findToolsQuery: 'What the tool should do, in a few words (for example "convert currency" or "book a hotel")',
    findToolsNeedsQuery: 'find_tools needs "query": what the tool should do, in a few words.',
    findToolsFound: (tools) =>
      `Found ${tools.length === 1 ? 'this tool' : 'these tools'}; ${tools.length === 1 ? 'it is' : 'they are'} offered from your next step on:\n${tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n')}`,
    findToolsNone: 'No other tool matches that. Answer with the tools you have, or without tools.',
    findToolsLimit: 'No more tools can be added in this turn. Answer with the tools you have.',
    notOffered: (tool) =>
      `${tool} is not among the tools offered in this turn. Call find_tools to look for a tool that does this; it is offered in the next step if found.`,
    unknownInRoutedTurn: (tool, offered) =>
      `There is no tool named ${tool}. The tools offered now: ${offered.join(', ')}. Call find_tools to look for another.`,
    repeatedCall: (tool, failures) =>
      `This exact call to ${tool} has already failed ${failures} times in this turn and was not run again. Change the arguments, use another tool, or answer the user without it.`,
    loopStopped:
      '(The same tool call kept failing, so no more tools will run in this turn; tell the user what failed.)',
    unparsableCall: (error) => `The model tried to call a tool but its request could not be understood: ${error}`,
    modelFailed: (message) => `The model could not answer: ${message}`,
    cancelled: 'Cancelled.',
    invalidArguments: (tool, error) => `The arguments for ${tool} are not valid JSON (${error}). Send a JSON object.`,
    incomplete: 'I could not finish this with the tools I have; please rephrase or ask again.',
    imageNotShown: (what) => `[image: ${what}, not shown: this model does not take images]`,
    imageTypeNotShown: (what, types) => `[image: ${what}, not shown: this model takes only ${types}]`,
    turnTimedOut: (s) =>
      `Stopped: this turn took longer than ${s} s (assistant.turn_timeout_ms in riverse.yaml sets this limit).`,
    modelLimit: (code, setting, value) =>
      code === 'timeout'
        ? `The model sent nothing for ${seconds(value)} s, so Riverse stopped waiting (${setting} in riverse.yaml sets this limit).`
        : `The model's reply passed the limit of ${value} characters and was stopped there (${setting} in riverse.yaml sets this limit).`,
    storeFailed: (detail) => `The conversation could not be saved, so this turn was stopped: ${detail}`,
    listenerFailed: (detail) => `This turn was stopped because the program showing it failed: ${detail}`,
    internalError: (detail) => `Riverse ran into an internal error: ${detail}`,
    tooManyCalls: (ran, left) =>
      `(Only the first ${ran} tool calls of your last reply were run; ${left} more were left out. Ask for them in another round if you still need them.)`,
    callNotRun: (tool, ran) =>
      `Riverse did not run this call of ${tool}: only the first ${ran} tool calls of one reply are run. Ask for it again in another round if you still need it.`,
    clientToolClash: (names) =>
      `The request's tools ${names.join(', ')} have the names of Riverse's own tools; rename them, or switch Riverse's off.`,
    clientToolsNeedNative:
      "The request's tools need a model with native tool calling, and this one is used through text instructions.",
    invalidClientTool: (detail) => `One of the request's tools could not be given to the model: ${detail}`,
    cutNote: (omitted) =>
      `[… ${omitted} characters cut here by Riverse: this message was longer than the history budget (assistant.history_tokens)]`,
    answerFormat: (schema) =>
      schema === undefined
        ? 'When you give your final answer (after any tool calls you need), write it as one JSON object and nothing else: no prose, no code fences.'
        : `When you give your final answer (after any tool calls you need), write it as one JSON value that matches this JSON Schema, and nothing else: no prose, no code fences.\n${schema}`,
    answerMismatch: (problems) =>
      `That answer is not the JSON asked for: ${problems}. Write the answer again as JSON only, matching the schema.`,
    invalidAnswer: (problems) =>
      `The model's answer was not the JSON the request asked for (response_format), even when asked again: ${problems}.`,
    mustCall: (tool) =>
      tool === undefined
        ? '(Answer this request with a tool call: call one of the tools now.)'
        : `(Answer this request by calling the tool "${tool}" now.)`,
    unknownToolChoice: (tool) =>
      tool === undefined
        ? 'The request\'s tool_choice is "required", and this turn has no tools to call: the request sends none, and Riverse has none switched on.'
        : `The request's tool_choice names "${tool}", which is neither one of the request's tools nor one of Riverse's tools offered in this turn.`,
  },
  zh: {
    systemPrompt: (today) =>
      `你是 Riverse，一个乐于助人的个人助理。今天是 ${today}。在工具有助于回答用户时使用工具；` +
      '根据工具结果作答，工具失败时如实说明，不要编造结果。用用户使用的语言回答（默认中文）。',
    roundLimit: (rounds) => `（已进行 ${rounds} 轮工具调用，停止调用；请根据已有信息回答。）`,
    findToolsDescription: '当提供的工具都不适合请求时，在全部可用工具中搜索。找到的工具从你的下一步起提供。',
    findToolsQuery: '用几个词说明工具要做什么（例如“货币换算”或“预订酒店”）',
    findToolsNeedsQuery: 'find_tools 需要 "query"：用几个词说明工具要做什么。',
    findToolsFound: (tools) =>
      `找到以下工具，从你的下一步起提供：\n${tools.map((tool) => `- ${tool.name}：${tool.description}`).join('\n')}`,
    findToolsNone: '没有其他工具符合。请用现有的工具回答，或不借助工具直接回答。',
    findToolsLimit: '本轮不能再添加工具了。请用现有的工具回答。',
    notOffered: (tool) =>
      `${tool} 不在本轮提供的工具中。请调用 find_tools 查找能做这件事的工具；找到后会在下一步提供。`,
    unknownInRoutedTurn: (tool, offered) =>
      `没有名为 ${tool} 的工具。当前提供的工具：${offered.join('、')}。如需其他工具，请调用 find_tools 查找。`,
    repeatedCall: (tool, failures) =>
      `对 ${tool} 的这个相同调用在本轮已失败 ${failures} 次，未再执行。请修改参数、换用其他工具，或不借助它直接回答用户。`,
    loopStopped: '（同一个工具调用反复失败，本轮不再执行工具；请告诉用户哪里失败了。）',
    unparsableCall: (error) => `模型试图调用工具，但其请求无法解析：${error}`,
    modelFailed: (message) => `模型无法回答：${message}`,
    cancelled: '已取消。',
    invalidArguments: (tool, error) => `${tool} 的参数不是有效的 JSON（${error}）。请发送一个 JSON 对象。`,
    incomplete: '我无法用现有的工具完成这个请求，请换个说法或再问一次。',
    imageNotShown: (what) => `[图片：${what}，未显示：此模型不接受图片]`,
    imageTypeNotShown: (what, types) => `[图片：${what}，未显示：此模型只接受 ${types}]`,
    turnTimedOut: (s) => `已停止：本轮用时超过 ${s} 秒（此限制由 riverse.yaml 中的 assistant.turn_timeout_ms 设置）。`,
    modelLimit: (code, setting, value) =>
      code === 'timeout'
        ? `模型 ${seconds(value)} 秒内没有任何响应，Riverse 已停止等待（此限制由 riverse.yaml 中的 ${setting} 设置）。`
        : `模型的回复超过了 ${value} 个字符的上限，已在此处停止（此限制由 riverse.yaml 中的 ${setting} 设置）。`,
    storeFailed: (detail) => `无法保存对话，本轮已停止：${detail}`,
    listenerFailed: (detail) => `显示本轮的程序出错，本轮已停止：${detail}`,
    internalError: (detail) => `Riverse 内部出错：${detail}`,
    tooManyCalls: (ran, left) =>
      `（你上一条回复中只有前 ${ran} 个工具调用被执行，另外 ${left} 个未执行。如仍需要，请在下一轮再请求。）`,
    callNotRun: (tool, ran) =>
      `Riverse 没有执行这次 ${tool} 调用：一条回复中只执行前 ${ran} 个工具调用。如仍需要，请在下一轮再请求。`,
    clientToolClash: (names) =>
      `请求中的工具 ${names.join('、')} 与 Riverse 自己的工具同名；请改名，或关闭 Riverse 的同名工具。`,
    clientToolsNeedNative: '请求中的工具需要支持原生工具调用的模型，而当前模型是通过文本指令使用工具的。',
    invalidClientTool: (detail) => `请求中的某个工具无法提供给模型：${detail}`,
    cutNote: (omitted) =>
      `[… Riverse 在此删去了 ${omitted} 个字符：这条消息超出了历史记录的预算（assistant.history_tokens）]`,
    answerFormat: (schema) =>
      schema === undefined
        ? '给出最终答案时（在完成所需的工具调用之后），只写一个 JSON 对象，不要任何说明文字，也不要代码块标记。'
        : `给出最终答案时（在完成所需的工具调用之后），只写一个符合以下 JSON Schema 的 JSON 值，不要任何说明文字，也不要代码块标记。\n${schema}`,
    answerMismatch: (problems) => `这个回答不是所要求的 JSON：${problems}。请只用符合该 Schema 的 JSON 重新作答。`,
    invalidAnswer: (problems) =>
      `模型的回答不是请求（response_format）所要求的 JSON，重新询问后仍然如此：${problems}。`,
    mustCall: (tool) =>
      tool === undefined
        ? '（请用工具调用来回应这个请求：现在就调用其中一个工具。）'
        : `（请现在调用工具“${tool}”来回应这个请求。）`,
    unknownToolChoice: (tool) =>
      tool === undefined
        ? '请求的 tool_choice 为“required”，但本轮没有可调用的工具：请求中没有，Riverse 也没有启用任何工具。'
        : `请求的 tool_choice 指定了“${tool}”，但它既不是请求中的工具，也不是本轮提供的 Riverse 工具。`,
  },
  ja: {
    systemPrompt: (today) =>
      `あなたは Riverse という親切なパーソナルアシスタントです。今日は ${today} です。ユーザーへの回答に役立つときはツールを使い、` +
      'その結果に基づいて答えてください。ツールが失敗したときはそう伝え、結果を作り上げないでください。ユーザーの使う言語（既定は日本語）で答えてください。',
    roundLimit: (rounds) =>
      `（ツール呼び出しが ${rounds} ラウンドに達したため停止しました。ここまでの情報で回答してください。）`,
    findToolsDescription:
      '提供されたツールのどれもリクエストに合わないとき、利用できるすべてのツールから探します。見つかったツールは次のステップから提供されます。',
    findToolsQuery: 'ツールにしてほしいことを短く（例:「通貨の換算」「ホテルの予約」）',
    findToolsNeedsQuery: 'find_tools には "query"（ツールにしてほしいことを短く）が必要です。',
    findToolsFound: (tools) =>
      `次のツールが見つかりました。次のステップから提供されます:\n${tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n')}`,
    findToolsNone: 'ほかに合うツールはありません。今あるツールで、またはツールなしで答えてください。',
    findToolsLimit: 'このターンではこれ以上ツールを追加できません。今あるツールで答えてください。',
    notOffered: (tool) =>
      `${tool} はこのターンで提供されたツールに含まれていません。これをするツールを find_tools で探してください。見つかれば次のステップで提供されます。`,
    unknownInRoutedTurn: (tool, offered) =>
      `${tool} という名前のツールはありません。今提供されているツール: ${offered.join('、')}。ほかのツールは find_tools で探してください。`,
    repeatedCall: (tool, failures) =>
      `${tool} へのまったく同じ呼び出しはこのターンですでに ${failures} 回失敗したため、再実行しませんでした。引数を変えるか、別のツールを使うか、ツールなしで回答してください。`,
    loopStopped:
      '（同じツール呼び出しが失敗し続けたため、このターンではこれ以上ツールを実行しません。何が失敗したかをユーザーに伝えてください。）',
    unparsableCall: (error) => `モデルがツールを呼び出そうとしましたが、その要求を解釈できませんでした：${error}`,
    modelFailed: (message) => `モデルが応答できませんでした：${message}`,
    cancelled: 'キャンセルしました。',
    invalidArguments: (tool, error) =>
      `${tool} の引数が有効な JSON ではありません（${error}）。JSON オブジェクトを送ってください。`,
    incomplete: '手元のツールではこの依頼を完了できませんでした。言い方を変えるか、もう一度お試しください。',
    imageNotShown: (what) => `[画像：${what}、表示なし：このモデルは画像を受け付けません]`,
    imageTypeNotShown: (what, types) => `[画像：${what}、表示なし：このモデルが受け付けるのは ${types} のみです]`,
    turnTimedOut: (s) =>
      `停止しました：このターンが ${s} 秒を超えました（この上限は riverse.yaml の assistant.turn_timeout_ms で設定します）。`,
    modelLimit: (code, setting, value) =>
      code === 'timeout'
        ? `モデルから ${seconds(value)} 秒間何も届かなかったため、待つのをやめました（この上限は riverse.yaml の ${setting} で設定します）。`
        : `モデルの応答が上限の ${value} 文字を超えたため、そこで止めました（この上限は riverse.yaml の ${setting} で設定します）。`,
    storeFailed: (detail) => `会話を保存できなかったため、このターンを停止しました：${detail}`,
    listenerFailed: (detail) => `このターンを表示しているプログラムでエラーが起きたため、停止しました：${detail}`,
    internalError: (detail) => `Riverse の内部でエラーが起きました：${detail}`,
    tooManyCalls: (ran, left) =>
      `（直前の応答のツール呼び出しのうち、最初の ${ran} 件だけを実行し、残りの ${left} 件は実行しませんでした。まだ必要なら次のラウンドで依頼してください。）`,
    callNotRun: (tool, ran) =>
      `Riverse はこの ${tool} の呼び出しを実行しませんでした。1 つの応答で実行するツール呼び出しは最初の ${ran} 件までです。まだ必要なら次のラウンドで依頼してください。`,
    clientToolClash: (names) =>
      `リクエストのツール ${names.join('、')} は Riverse 自身のツールと同じ名前です。名前を変えるか、Riverse 側のツールをオフにしてください。`,
    clientToolsNeedNative:
      'リクエストのツールにはネイティブのツール呼び出しに対応したモデルが必要ですが、このモデルはテキストの指示でツールを使っています。',
    invalidClientTool: (detail) => `リクエストのツールの一つをモデルに渡せませんでした：${detail}`,
    cutNote: (omitted) =>
      `[… Riverse がここで ${omitted} 文字を省きました：このメッセージは履歴の予算（assistant.history_tokens）を超えていました]`,
    answerFormat: (schema) =>
      schema === undefined
        ? '最終的な回答は（必要なツール呼び出しを済ませたあと）JSON オブジェクト一つだけで書いてください。説明の文章やコードブロックの記号は付けないでください。'
        : `最終的な回答は（必要なツール呼び出しを済ませたあと）次の JSON Schema に合う JSON の値一つだけで書いてください。説明の文章やコードブロックの記号は付けないでください。\n${schema}`,
    answerMismatch: (problems) =>
      `その回答は求められた JSON ではありません：${problems}。スキーマに合う JSON だけで、もう一度回答してください。`,
    invalidAnswer: (problems) =>
      `モデルの回答は、もう一度頼んでも、リクエスト（response_format）が求める JSON になりませんでした：${problems}。`,
    mustCall: (tool) =>
      tool === undefined
        ? '（このリクエストにはツール呼び出しで応えてください：今、いずれかのツールを呼び出してください。）'
        : `（このリクエストには、今ツール「${tool}」を呼び出して応えてください。）`,
    unknownToolChoice: (tool) =>
      tool === undefined
        ? 'リクエストの tool_choice は「required」ですが、このターンには呼び出せるツールがありません：リクエストにも無く、Riverse のツールも有効になっていません。'
        : `リクエストの tool_choice は「${tool}」を指定していますが、これはリクエストのツールでも、このターンで提供される Riverse のツールでもありません。`,
  },
};
