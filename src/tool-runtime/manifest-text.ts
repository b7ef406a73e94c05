import type { Language } from '../core/language.ts';

// What the manifest checks (validate-manifest.ts, manifest-snapshot.ts) say, in each language.
// Keyed by a stable id; the English text is also each problem's `message`.

const did = (near: string | undefined) => (near === undefined ? '' : ` (did you mean "${near}"?)`);

const en = {
  'manifest.not-object': (a: { got: string }) =>
    `manifest() returned ${a.got === 'null-or-array' ? 'null or an array' : a.got}; expected an object { name, description, parameters, examples }`,
  'manifest.unknown-field': (a: { key: string; near?: string }) =>
    `unknown field "${a.key}"${did(a.near)}; it is ignored`,
  'manifest.name-invalid': (a: { name: string }) =>
    `name ${a.name} is invalid: use 1–64 letters, digits, "_" or "-" (the strictest model provider's rule), e.g. "my_tool"`,
  'manifest.name-is-setting': (a: { name: string }) =>
    `name "${a.name}" is also a setting (tools.${a.name}), so the tool could have no section of its own in the config and could not be turned off alone: choose another name, e.g. "my_${a.name}"`,
  'manifest.name-internal': (a: { name: string; instead: string }) =>
    `name "${a.name}" is a property every JavaScript object has, so the tool's config section (tools.${a.name}) cannot be told from it: choose another name, e.g. "my_${a.instead}"`,
  'manifest.name-not-portable': (a: { name: string; first: string }) =>
    `name "${a.name}" starts with "${a.first}": Gemini models reject a tool name that does not start with a letter or "_" (e.g. "_${a.name}")`,
  'manifest.text-empty': (a: { path: string }) =>
    `${a.path} is empty: write one sentence that tells the model when to use this`,
  'manifest.unknown-language': (a: { language: string; languages: string }) =>
    `unknown language "${a.language}"; use ${a.languages}`,
  'manifest.text-not-string': (a: { path: string }) => `${a.path} must be a string`,
  'manifest.text-no-language': (a: { path: string }) => `${a.path} has no text in any language`,
  'manifest.text-wrong-type': (a: { path: string; got?: string }) =>
    `${a.path} must be a string or { en, zh, ja } strings${a.got === undefined ? ', and is missing' : `, got ${a.got}`}`,
  'manifest.schema-not-object': (a: { key: string }) =>
    `${a.key} must be a JSON Schema object for ${a.key === 'output' ? 'the result\'s "structured" value' : 'the parameters'}, such as { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }`,
  'manifest.schema-top': (a: { key: string; got: string }) =>
    `${a.key} must describe an object of named arguments: its "type" is "object" (got ${a.got})`,
  'manifest.schema-invalid': (a: { key: string; why: string }) =>
    `${a.key} is not a JSON Schema the validator can use: ${a.why}`,
  'manifest.schema-twice': (a: { keys: string }) =>
    `give the parameters one way only: ${a.keys} are both set (keep inputSchema for a full JSON Schema, parameters for the short form)`,
  'manifest.dialect-losses': (a: { tool: string; losses: string }) =>
    `${a.tool}'s inputSchema says what some providers cannot take, and they are given it without: ${a.losses}. Arguments are still checked against the whole schema; a call that breaks it fails with the reason, for the model to correct`,
  'manifest.parameters-not-object': () =>
    'parameters must be an object mapping each parameter name to a description string or a spec { type, description, required, … }',
  'manifest.examples-wrong-type': () => 'examples must be a list of strings, or { en, zh, ja } lists',
  'manifest.examples-not-strings': (a: { path: string }) => `${a.path} must be a list of non-empty strings`,
  'manifest.examples-few': (a: { count: number }) =>
    `${a.count === 0 ? 'no examples' : 'only one example'}: add 2–3 messages a user would send that should trigger this tool; models and routing use them`,
  'manifest.asks-first-invalid': (a: { at: string; why: string }) =>
    `${a.at} is wrong: asks_first is a list of at most 10 questions { key, question, choices?, fields?, required?, timeoutMs? }, each with a key of its own (${a.why})`,
  'manifest.asks-first-needs-task': () =>
    'asks_first is asked before a call becomes a task: set long_running too ("optional" or "required"), or ask with context.ask() in execute()',
  'manifest.long-running-invalid': (a: { got: string }) =>
    `long_running is "optional" (a call may run as a task) or "required" (it always does), got ${a.got}`,
  'manifest.timeout-invalid': (a: { got: string }) =>
    `timeoutMs must be a positive number of milliseconds, got ${a.got}`,
  'manifest.exclusive-invalid': (a: { got: string; key?: string }) =>
    `${a.key ?? 'exclusive'} must be true or false, got ${a.got}`,
  'manifest.annotations-invalid': (a: { keys: string; near?: string }) =>
    `annotations must be an object with only ${a.keys}${did(a.near)}`,
  'manifest.approval-invalid': (a: { at: string; got: string }) =>
    `${a.at} is wrong: approval is "always", "never" or { when: { param, matches } } (ask when that parameter's value matches the regular expression), got ${a.got}`,
  'manifest.approval-regex': (a: { at: string; error: string }) =>
    `${a.at} is not a valid regular expression: ${a.error}`,
  'manifest.approval-unknown-param': (a: { param: string; near?: string }) =>
    `approval names the parameter "${a.param}", which this tool does not have${did(a.near)}: the rule never holds, so calls run without asking`,
  'manifest.parameter-name-invalid': (a: { name: string }) =>
    `parameter name "${a.name}" is invalid: use 1–64 letters, digits, "_", "." or "-"`,
  'manifest.parameter-name-internal': (a: { name: string; instead: string }) =>
    `parameter name "${a.name}" is a property every JavaScript object has, so \`params.${a.name}\` is never missing and the call cannot leave it out: rename it, e.g. "${a.instead}_value"`,
  'manifest.spec-wrong-type': (a: { at: string; got: string }) =>
    `${a.at} must be a description string or a spec { type, description, required, … }, got ${a.got}`,
  'manifest.spec-unknown-field': (a: { key: string; near?: string; at: string; keys: string }) =>
    `unknown field "${a.key}"${did(a.near)} in ${a.at}; a spec has ${a.keys}`,
  'manifest.type-invalid': (a: { given: string; types: string; near?: string }) =>
    `type ${a.given} is not one of ${a.types}${did(a.near)}`,
  'manifest.required-invalid': (a: { got: string }) => `required must be true or false, got ${a.got}`,
  'manifest.enum-empty': () => 'enum must be a non-empty list of allowed values',
  'manifest.enum-wrong-type': (a: { value: string; type: string }) => `enum value ${a.value} is not a ${a.type}`,
  'manifest.default-wrong-type': (a: { value: string; type: string }) => `default ${a.value} is not a ${a.type}`,
  'manifest.default-not-in-enum': (a: { value: string }) => `default ${a.value} is not one of the enum values`,
  'manifest.items-not-array': (a: { at: string; type: string }) =>
    `items only applies to type "array"; ${a.at} is "${a.type}"`,
  'manifest.items-invalid': () => 'items must be a description string or a spec { type, description, … }',
  'manifest.properties-not-object': (a: { at: string; type: string }) =>
    `properties only applies to type "object"; ${a.at} is "${a.type}"`,
  'manifest.properties-invalid': () => 'properties must map each field name to a description or a spec',
  'manifest.default-misfit': (a: { value: string; at: string; why: string }) =>
    `default ${a.value} does not fit ${a.at} itself (${a.why}), so every call that leaves it out would be rejected; fix the default or the spec`,
  'manifest.not-data': (a: { path: string; kind: string }) =>
    `${a.path === '' ? 'the manifest' : a.path} is a ${a.kind}; a manifest holds data only (strings, numbers, booleans, lists and plain objects)`,
  'manifest.promise': () => 'manifest() returned a Promise; return the object itself (manifest() cannot be async)',
  'manifest.cycle': (a: { path: string }) =>
    `${a.path === '' ? 'the manifest' : a.path} refers back to an object that contains it (a cycle); return plain, tree-shaped data`,
  'manifest.too-deep': (a: { path: string; depth: number }) =>
    `${a.path === '' ? 'the manifest' : a.path} is nested more than ${a.depth} levels deep; return plain, shallow data`,
  'manifest.not-plain': (a: { path: string }) =>
    `${a.path === '' ? 'the manifest' : a.path} is not a plain object (a class instance, or \`__proto__: …\` written in an object literal); write a plain { … } object`,
  'manifest.proxy-threw': (a: { path: string; error: string }) =>
    `reading ${a.path === '' ? 'the manifest' : a.path} threw: ${a.error}; return plain data, not a Proxy`,
  'manifest.getter-threw': (a: { path: string; error: string }) =>
    `reading ${a.path} threw: ${a.error}; give it a plain value, not a getter that can fail`,
  'manifest.too-large': (a: { chars: number; max: number }) =>
    `the manifest is ${a.chars.toLocaleString('en')} characters as JSON, more than the ${a.max.toLocaleString('en')} a tool may have: models are sent it with every request; shorten the description, examples or parameters`,
};

const zhDid = (near: string | undefined) => (near === undefined ? '' : `（是不是 "${near}"？）`);
const zhWhere = (path: string) => (path === '' ? '清单' : path);

const zh: typeof en = {
  'manifest.not-object': (a) =>
    `manifest() 返回了 ${a.got === 'null-or-array' ? 'null 或数组' : a.got}；应返回对象 { name, description, parameters, examples }`,
  'manifest.unknown-field': (a) => `未知字段 "${a.key}"${zhDid(a.near)}，已忽略`,
  'manifest.name-invalid': (a) =>
    `名称 ${a.name} 无效：只能用 1–64 个字母、数字、"_" 或 "-"（这是要求最严的模型提供方的规则），例如 "my_tool"`,
  'manifest.name-is-setting': (a) =>
    `名称 "${a.name}" 同时是一个设置项（tools.${a.name}），这样工具在配置中就没有自己的小节，也无法单独关闭：请换一个名称，例如 "my_${a.name}"`,
  'manifest.name-internal': (a) =>
    `名称 "${a.name}" 是每个 JavaScript 对象都有的属性，工具的配置小节（tools.${a.name}）会与它混淆：请换一个名称，例如 "my_${a.instead}"`,
  'manifest.name-not-portable': (a) =>
    `名称 "${a.name}" 以 "${a.first}" 开头：Gemini 模型不接受不以字母或 "_" 开头的工具名（可改为 "_${a.name}"）`,
  'manifest.text-empty': (a) => `${a.path} 为空：请写一句话，告诉模型何时使用它`,
  'manifest.unknown-language': (a) => `未知语言 "${a.language}"；请使用 ${a.languages}`,
  'manifest.text-not-string': (a) => `${a.path} 必须是字符串`,
  'manifest.text-no-language': (a) => `${a.path} 在任何语言下都没有文本`,
  'manifest.text-wrong-type': (a) =>
    `${a.path} 必须是字符串或 { en, zh, ja } 字符串${a.got === undefined ? '，但它缺失了' : `，实际是 ${a.got}`}`,
  'manifest.schema-not-object': (a) =>
    `${a.key} 必须是描述${a.key === 'output' ? '结果中 "structured" 值' : '参数'}的 JSON Schema 对象，例如 { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }`,
  'manifest.schema-top': (a) => `${a.key} 必须描述一个具名参数的对象：其 "type" 为 "object"（实际为 ${a.got}）`,
  'manifest.schema-invalid': (a) => `${a.key} 不是校验器可用的 JSON Schema：${a.why}`,
  'manifest.schema-twice': (a) =>
    `参数只能用一种方式给出：${a.keys} 同时设置了（完整的 JSON Schema 用 inputSchema，简写用 parameters）`,
  'manifest.dialect-losses': (a) =>
    `${a.tool} 的 inputSchema 中有些规则某些模型提供方无法接受，给它们时会去掉：${a.losses}。参数仍按完整的模式检查；违反它的调用会失败并说明原因，让模型改正`,
  'manifest.parameters-not-object': () =>
    'parameters 必须是对象：把每个参数名映射到一段描述文字，或一个规格 { type, description, required, … }',
  'manifest.examples-wrong-type': () => 'examples 必须是字符串列表，或 { en, zh, ja } 列表',
  'manifest.examples-not-strings': (a) => `${a.path} 必须是非空字符串的列表`,
  'manifest.examples-few': (a) =>
    `${a.count === 0 ? '没有示例' : '只有一个示例'}：请添加 2–3 条应当触发此工具的用户消息；模型和路由都会用到它们`,
  'manifest.asks-first-invalid': (a) =>
    `${a.at} 有误：asks_first 是最多 10 个问题的列表 { key, question, choices?, fields?, required?, timeoutMs? }，每个问题有自己的 key（${a.why}）`,
  'manifest.asks-first-needs-task': () =>
    'asks_first 在调用成为任务之前提问：请同时设置 long_running（"optional" 或 "required"），或在 execute() 中用 context.ask() 提问',
  'manifest.long-running-invalid': (a) =>
    `long_running 应为 "optional"（调用可以作为任务运行）或 "required"（总是作为任务运行），实际是 ${a.got}`,
  'manifest.timeout-invalid': (a) => `timeoutMs 必须是正数（毫秒），实际是 ${a.got}`,
  'manifest.exclusive-invalid': (a) => `${a.key ?? 'exclusive'} 必须是 true 或 false，实际是 ${a.got}`,
  'manifest.annotations-invalid': (a) =>
    `annotations 必须是只含 ${a.keys} 的对象${a.near === undefined ? '' : `（是不是想写 "${a.near}"？）`}`,
  'manifest.approval-invalid': (a) =>
    `${a.at} 有误：approval 应为 "always"、"never" 或 { when: { param, matches } }（该参数的值匹配正则表达式时询问），实际是 ${a.got}`,
  'manifest.approval-regex': (a) => `${a.at} 不是有效的正则表达式：${a.error}`,
  'manifest.approval-unknown-param': (a) =>
    `approval 指定的参数 "${a.param}" 不是这个工具的参数${zhDid(a.near)}：规则永远不成立，调用将不经询问直接运行`,
  'manifest.parameter-name-invalid': (a) => `参数名 "${a.name}" 无效：只能用 1–64 个字母、数字、"_"、"." 或 "-"`,
  'manifest.parameter-name-internal': (a) =>
    `参数名 "${a.name}" 是每个 JavaScript 对象都有的属性，\`params.${a.name}\` 永远不会缺失，调用也就无法省略它：请改名，例如 "${a.instead}_value"`,
  'manifest.spec-wrong-type': (a) =>
    `${a.at} 必须是一段描述文字或一个规格 { type, description, required, … }，实际是 ${a.got}`,
  'manifest.spec-unknown-field': (a) => `${a.at} 中有未知字段 "${a.key}"${zhDid(a.near)}；规格可包含 ${a.keys}`,
  'manifest.type-invalid': (a) => `type ${a.given} 不在 ${a.types} 之中${zhDid(a.near)}`,
  'manifest.required-invalid': (a) => `required 必须是 true 或 false，实际是 ${a.got}`,
  'manifest.enum-empty': () => 'enum 必须是非空的允许值列表',
  'manifest.enum-wrong-type': (a) => `enum 的值 ${a.value} 不是 ${a.type}`,
  'manifest.default-wrong-type': (a) => `default ${a.value} 不是 ${a.type}`,
  'manifest.default-not-in-enum': (a) => `default ${a.value} 不在 enum 的值之中`,
  'manifest.items-not-array': (a) => `items 只适用于 type "array"；${a.at} 是 "${a.type}"`,
  'manifest.items-invalid': () => 'items 必须是一段描述文字或一个规格 { type, description, … }',
  'manifest.properties-not-object': (a) => `properties 只适用于 type "object"；${a.at} 是 "${a.type}"`,
  'manifest.properties-invalid': () => 'properties 必须把每个字段名映射到一段描述或一个规格',
  'manifest.default-misfit': (a) =>
    `default ${a.value} 不符合 ${a.at} 自身的规格（${a.why}），所有省略该参数的调用都会被拒绝；请修改 default 或规格`,
  'manifest.not-data': (a) =>
    `${zhWhere(a.path)} 是 ${a.kind}；清单只能包含数据（字符串、数字、布尔值、列表和普通对象）`,
  'manifest.promise': () => 'manifest() 返回了 Promise；请直接返回对象（manifest() 不能是 async）',
  'manifest.cycle': (a) => `${zhWhere(a.path)} 引用了包含它自身的对象（循环引用）；请返回普通的树状数据`,
  'manifest.too-deep': (a) => `${zhWhere(a.path)} 嵌套超过 ${a.depth} 层；请返回普通、层级较浅的数据`,
  'manifest.not-plain': (a) =>
    `${zhWhere(a.path)} 不是普通对象（是类的实例，或在对象字面量中写了 \`__proto__: …\`）；请写普通的 { … } 对象`,
  'manifest.proxy-threw': (a) => `读取 ${zhWhere(a.path)} 时抛出异常：${a.error}；请返回普通数据，不要用 Proxy`,
  'manifest.getter-threw': (a) => `读取 ${a.path} 时抛出异常：${a.error}；请给它一个普通的值，不要用可能失败的 getter`,
  'manifest.too-large': (a) =>
    `清单序列化为 JSON 后有 ${a.chars.toLocaleString('en')} 个字符，超过了一个工具允许的 ${a.max.toLocaleString('en')} 个：每次请求都会把它发给模型；请缩短描述、示例或参数`,
};

const jaDid = (near: string | undefined) => (near === undefined ? '' : `（"${near}" のことですか？）`);
const jaWhere = (path: string) => (path === '' ? 'マニフェスト' : path);

const ja: typeof en = {
  'manifest.not-object': (a) =>
    `manifest() が ${a.got === 'null-or-array' ? 'null または配列' : a.got} を返しました。オブジェクト { name, description, parameters, examples } を返してください`,
  'manifest.unknown-field': (a) => `不明なフィールド "${a.key}"${jaDid(a.near)}。無視されます`,
  'manifest.name-invalid': (a) =>
    `名前 ${a.name} は使えません：英数字・"_"・"-" の 1〜64 文字にしてください（いちばん厳しいモデルプロバイダーの規則です）。例："my_tool"`,
  'manifest.name-is-setting': (a) =>
    `名前 "${a.name}" は設定項目（tools.${a.name}）と同じです。これでは設定にツール専用のセクションを持てず、このツールだけを無効にすることもできません。別の名前にしてください。例："my_${a.name}"`,
  'manifest.name-internal': (a) =>
    `名前 "${a.name}" はすべての JavaScript オブジェクトが持つプロパティで、ツールの設定セクション（tools.${a.name}）と区別できません。別の名前にしてください。例："my_${a.instead}"`,
  'manifest.name-not-portable': (a) =>
    `名前 "${a.name}" が "${a.first}" で始まっています。Gemini のモデルは英字か "_" で始まらないツール名を受け付けません（例："_${a.name}"）`,
  'manifest.text-empty': (a) => `${a.path} が空です。いつこのツールを使うべきかをモデルに伝える一文を書いてください`,
  'manifest.unknown-language': (a) => `不明な言語 "${a.language}"。${a.languages} のいずれかを使ってください`,
  'manifest.text-not-string': (a) => `${a.path} は文字列でなければなりません`,
  'manifest.text-no-language': (a) => `${a.path} にはどの言語のテキストもありません`,
  'manifest.text-wrong-type': (a) =>
    `${a.path} は文字列か { en, zh, ja } の文字列でなければなりません${a.got === undefined ? 'が、ありません' : `が、${a.got} です`}`,
  'manifest.schema-not-object': (a) =>
    `${a.key} は${a.key === 'output' ? '結果の "structured" の値' : 'パラメーター'}を表す JSON Schema のオブジェクトにしてください（例：{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }）`,
  'manifest.schema-top': (a) =>
    `${a.key} は名前付き引数のオブジェクトを表してください："type" は "object" です（実際は ${a.got}）`,
  'manifest.schema-invalid': (a) => `${a.key} はバリデーターが使える JSON Schema ではありません：${a.why}`,
  'manifest.schema-twice': (a) =>
    `パラメーターの指定は一つの方法だけにしてください：${a.keys} が両方とも設定されています（完全な JSON Schema は inputSchema、短い形は parameters）`,
  'manifest.dialect-losses': (a) =>
    `${a.tool} の inputSchema には一部のプロバイダーが受け取れない規則があり、それらには除いて渡します：${a.losses}。引数は引き続きスキーマ全体で検査され、違反した呼び出しは理由つきで失敗し、モデルが直せます`,
  'manifest.parameters-not-object': () =>
    'parameters は、各パラメーター名を説明の文字列か仕様 { type, description, required, … } に対応づけるオブジェクトでなければなりません',
  'manifest.examples-wrong-type': () => 'examples は文字列のリストか、{ en, zh, ja } のリストでなければなりません',
  'manifest.examples-not-strings': (a) => `${a.path} は空でない文字列のリストでなければなりません`,
  'manifest.examples-few': (a) =>
    `${a.count === 0 ? '例がありません' : '例が 1 つしかありません'}。このツールを呼ぶべきユーザーのメッセージを 2〜3 個加えてください。モデルとルーティングが使います`,
  'manifest.asks-first-invalid': (a) =>
    `${a.at} が正しくありません：asks_first は最大 10 個の質問 { key, question, choices?, fields?, required?, timeoutMs? } のリストで、それぞれ別の key を持ちます（${a.why}）`,
  'manifest.asks-first-needs-task': () =>
    'asks_first は呼び出しがタスクになる前に尋ねます：long_running（"optional" か "required"）も設定するか、execute() の中で context.ask() で尋ねてください',
  'manifest.long-running-invalid': (a) =>
    `long_running は "optional"（呼び出しをタスクとして実行できる）か "required"（常にタスクとして実行する）のどちらかですが、${a.got} です`,
  'manifest.timeout-invalid': (a) => `timeoutMs は正のミリ秒数でなければなりませんが、${a.got} です`,
  'manifest.exclusive-invalid': (a) => `${a.key ?? 'exclusive'} は true か false でなければなりませんが、${a.got} です`,
  'manifest.annotations-invalid': (a) =>
    `annotations は ${a.keys} だけを持つオブジェクトでなければなりません${a.near === undefined ? '' : `（"${a.near}" のことですか？）`}`,
  'manifest.approval-invalid': (a) =>
    `${a.at} が正しくありません：approval は "always"、"never"、または { when: { param, matches } }（そのパラメーターの値が正規表現に一致したら確認）です。実際は ${a.got} です`,
  'manifest.approval-regex': (a) => `${a.at} は正しい正規表現ではありません：${a.error}`,
  'manifest.approval-unknown-param': (a) =>
    `approval が指すパラメーター "${a.param}" はこのツールにありません${jaDid(a.near)}：規則が成り立たないため、呼び出しは確認なしで実行されます`,
  'manifest.parameter-name-invalid': (a) =>
    `パラメーター名 "${a.name}" は使えません：英数字・"_"・"."・"-" の 1〜64 文字にしてください`,
  'manifest.parameter-name-internal': (a) =>
    `パラメーター名 "${a.name}" はすべての JavaScript オブジェクトが持つプロパティなので、\`params.${a.name}\` が欠けることはなく、呼び出しで省略できません。名前を変えてください。例："${a.instead}_value"`,
  'manifest.spec-wrong-type': (a) =>
    `${a.at} は説明の文字列か仕様 { type, description, required, … } でなければなりませんが、${a.got} です`,
  'manifest.spec-unknown-field': (a) =>
    `${a.at} に不明なフィールド "${a.key}" があります${jaDid(a.near)}。仕様に書けるのは ${a.keys} です`,
  'manifest.type-invalid': (a) => `type ${a.given} は ${a.types} のいずれでもありません${jaDid(a.near)}`,
  'manifest.required-invalid': (a) => `required は true か false でなければなりませんが、${a.got} です`,
  'manifest.enum-empty': () => 'enum は許される値の空でないリストでなければなりません',
  'manifest.enum-wrong-type': (a) => `enum の値 ${a.value} は ${a.type} ではありません`,
  'manifest.default-wrong-type': (a) => `default ${a.value} は ${a.type} ではありません`,
  'manifest.default-not-in-enum': (a) => `default ${a.value} は enum の値のどれでもありません`,
  'manifest.items-not-array': (a) => `items は type "array" にだけ使えます。${a.at} は "${a.type}" です`,
  'manifest.items-invalid': () => 'items は説明の文字列か仕様 { type, description, … } でなければなりません',
  'manifest.properties-not-object': (a) => `properties は type "object" にだけ使えます。${a.at} は "${a.type}" です`,
  'manifest.properties-invalid': () => 'properties は各フィールド名を説明か仕様に対応づけなければなりません',
  'manifest.default-misfit': (a) =>
    `default ${a.value} は ${a.at} 自身の仕様に合いません（${a.why}）。省略した呼び出しはすべて拒否されてしまいます。default か仕様を直してください`,
  'manifest.not-data': (a) =>
    `${jaWhere(a.path)} が ${a.kind} です。マニフェストに入れられるのはデータ（文字列・数値・真偽値・リスト・プレーンなオブジェクト）だけです`,
  'manifest.promise': () =>
    'manifest() が Promise を返しました。オブジェクトそのものを返してください（manifest() は async にできません）',
  'manifest.cycle': (a) =>
    `${jaWhere(a.path)} が自分を含むオブジェクトを参照しています（循環）。ツリー状のプレーンなデータを返してください`,
  'manifest.too-deep': (a) =>
    `${jaWhere(a.path)} の入れ子が ${a.depth} 段を超えています。浅いプレーンなデータを返してください`,
  'manifest.not-plain': (a) =>
    `${jaWhere(a.path)} はプレーンなオブジェクトではありません（クラスのインスタンスか、オブジェクトリテラルに \`__proto__: …\` と書いたもの）。プレーンな { … } オブジェクトにしてください`,
  'manifest.proxy-threw': (a) =>
    `${jaWhere(a.path)} を読むと例外が発生しました：${a.error}。Proxy ではなくプレーンなデータを返してください`,
  'manifest.getter-threw': (a) =>
    `${a.path} を読むと例外が発生しました：${a.error}。失敗しうる getter ではなく、ふつうの値にしてください`,
  'manifest.too-large': (a) =>
    `マニフェストは JSON にすると ${a.chars.toLocaleString('en')} 文字あり、1 つのツールに許される ${a.max.toLocaleString('en')} 文字を超えています。リクエストのたびにモデルへ送られます。説明・例・パラメーターを短くしてください`,
};

export const MANIFEST_TEXT: Record<Language, typeof en> = { en, zh, ja };
