import type { Language } from '../core/language.ts';

// What loading and checking tool files says (load-tool-file.ts, import-failure.ts, the registry,
// the type check, `tools check`), in each language. Keyed by a stable id; the English text is
// also each diagnostic's `message` and `hint`.

const en = {
  'load.at-path': (a: { path: string; problem: string }) => `${a.path}: ${a.problem}`,
  'load.fix-manifest': () => 'fix the manifest; the tool is not registered until then',
  'load.yaml-invalid': (a: { error: string }) => `the YAML does not parse: ${a.error}`,
  'load.yaml-invalid.hint': () => "fix the YAML there; the file's tools are not registered until then",
  'load.fix-declared': () =>
    'fix the declaration (see "Declarative tools" in docs/custom-tools.md); the tool is not registered until then',
  'load.no-tool-class': () => 'no exported class extends BaseTool, so this file adds no tool',
  'load.no-tool-class.hint': () =>
    'export the class (`export class MyTool extends BaseTool`); name helper files with a leading "_" so they are not scanned',
  'load.same-name-in-file': (a: { copy: string; kept: string; name: string }) =>
    `${a.copy} and ${a.kept} in this file both have the name "${a.name}"; only ${a.kept} is registered`,
  'load.same-name-in-file.hint': () => 'give each class its own manifest().name, or delete the copy',
  'load.members-threw': (a: { className: string; error: string }) =>
    `reading the members of ${a.className} threw: ${a.error}`,
  'load.members-threw.hint': () =>
    'manifest, execute and isAvailable must be plain methods; a getter in their place must not throw',
  'load.constructor-threw': (a: { className: string; error: string }) =>
    `the constructor of ${a.className} threw: ${a.error}`,
  'load.constructor-threw.hint': () =>
    'the constructor receives the app config and should not throw; to turn the tool off when a setting is missing, return false from isAvailable()',
  'load.manifest-threw': (a: { className: string; error: string }) => `manifest() of ${a.className} threw: ${a.error}`,
  'load.manifest-threw.hint': () =>
    'manifest() should return a plain object { name, description, parameters, examples } and never throw',
  'load.is-available-threw': (a: { error: string }) => `isAvailable() failed: ${a.error}`,
  'load.is-available-threw.hint': () =>
    'return false (with this.unavailable("why") to say why) instead of throwing; the tool stays off until this is fixed',
  'load.missing-export': (a: { name: string; error: string }) =>
    `an import names "${a.name}", which the module does not export: ${a.error}`,
  'load.missing-export.hint': () =>
    "in a tool file, 'riverse' provides the tool contract only (BaseTool, ToolResult, localize, toolSection and the types); import other things from their own modules",
  'load.commonjs': (a: { packageJson: string; type?: string; error: string }) =>
    `the file is loaded as CommonJS, where \`import\`/\`export\` are not allowed: ${a.packageJson} ${a.type === undefined ? 'has no "type" field' : `says "type": "${a.type}"`} (${a.error})`,
  'load.commonjs.hint': (a: { renamed: string; packageJson: string }) =>
    `rename the file to ${a.renamed}, or set "type": "module" in ${a.packageJson}`,
  'load.syntax-error': (a: { error: string }) => `syntax error: ${a.error}`,
  'load.syntax-error.hint': () => 'fix the code at this line; the other tool files load regardless',
  'load.not-found': (a: { error: string; at?: string }) =>
    `an import cannot be found: ${a.error}${a.at === undefined ? '' : ` (at ${a.at})`}`,
  'load.not-found.package': (a: { name: string }) => `install it (npm install ${a.name}) or fix the import`,
  'load.not-found.path': () => 'fix the import path (relative imports need the file extension, e.g. "./_helpers.ts")',
  'load.threw': (a: { error: string; at?: string }) =>
    `the file failed while loading: ${a.error}${a.at === undefined ? '' : ` (thrown at ${a.at})`}`,
  'load.threw.hint': () =>
    'top-level code runs when the file is loaded; move work that can fail into execute() or isAvailable()',
  'load.name-taken': (a: { name: string; holder: string }) =>
    `the tool name "${a.name}" is already taken by ${a.holder}; this one is not registered`,
  'load.name-taken.hint': (a: { holder: string; first: boolean }) =>
    `rename one of them (manifest().name) or delete the copy; ${a.holder} keeps the name${a.first ? ' (it had it first)' : ''}`,
  'reason.all-off': () => 'every tool is off (tools.enabled: false in the config)',
  'reason.turned-off': (a: { name: string }) => `turned off in the config (tools.${a.name}.enabled: false)`,
  'reason.off-by-default': (a: { name: string }) =>
    `off until it is switched on (the dashboard's switch, or tools.${a.name}.enabled: true in riverse.yaml)`,
  'reason.returned-false': () => 'isAvailable() returned false',
  'reason.not-true': (a: { value: string }) => `isAvailable() returned ${a.value}, not true`,
  'load.folder-missing': () => 'the tool folder does not exist',
  'load.mcp-server-unavailable': (a: { server: string; starting: boolean; why: string }) =>
    a.starting
      ? `MCP server "${a.server}" has not finished starting; its tools join when it has`
      : `MCP server "${a.server}" is not connected: ${a.why}; it is tried again, and its tools join when it answers`,
  'load.mcp-server-unavailable.hint': (a: { server: string }) =>
    `check mcp.servers.${a.server} in riverse.yaml (command and args, or url); \`riverse mcp list\` shows each server's state`,
  'reason.mcp-server': (a: { server: string; why: string }) =>
    `its MCP server "${a.server}" is not connected (${a.why})`,
  'load.folder-missing.hint': () => 'create it, or change tools.dirs in the config',
  'load.folder-unreadable': (a: { error: string }) => `the tool folder cannot be read: ${a.error}`,
  'load.folder-unreadable.hint': () => 'give Riverse permission to read it, or change tools.dirs in the config',
  'load.file-unreadable': (a: { error: string }) => `the file cannot be read: ${a.error}`,
  'load.file-unreadable.hint': () =>
    'a tool file must be a readable file (a link to a device, a pipe or a folder is not one)',
  'load.file-too-large': (a: { bytes: string; max: string }) =>
    `the file is ${a.bytes}, more than the ${a.max} a tool file may be`,
  'load.file-too-large.hint': () =>
    'a tool file holds code, not data: read large data from execute(), or keep it out of the tool folder',
  'types.fix': () =>
    'fix the types: the tool file is checked against the tool contract, as your editor checks it; `--no-types` skips this check',
  'types.fix-manifest': () =>
    "write `manifest(): ToolManifest` (import type { ToolManifest } from 'riverse'): without it TypeScript reads `type: 'integer'` as any string",
  'types.not-done': (a: { why: string }) => `the tool files were not type-checked: ${a.why}`,
  'types.not-done.timeout': (a: { seconds: number }) => `it did not finish within ${a.seconds} s`,
  'types.not-done.hint': () => 'run tsc on the tool files yourself, or skip this check with `--no-types`',
  'types.no-typescript': () => 'the tool files were not type-checked: TypeScript is not installed here',
  'types.no-typescript.hint': () => 'npm install --save-dev typescript, or leave out --types',
  'types.no-node-types': () =>
    "the uses of Node's modules and globals (node:fs, process, Buffer…) were not type-checked: Node's types (@types/node) are not installed",
  'registry.unavailable': (a: { name: string; reason: string }) => `Tool "${a.name}" is unavailable: ${a.reason}.`,
  'registry.did-not-load': (a: { name: string; diagnostics: string }) =>
    `Tool "${a.name}" did not load, so it cannot be called:\n${a.diagnostics}`,
  'registry.unknown': (a: { name: string; near?: string; known: string; unread: string }) =>
    `Unknown tool "${a.name}"${a.near === undefined ? '' : ` (did you mean "${a.near}"?)`}${a.known === '' ? ': no tools are available.' : `. Available tools: ${a.known}.`}${a.unread === '' ? '' : ` Tool files that did not load, one of which may define it: ${a.unread}.`}`,
  'config.unknown-tool-section': (a: { key: string; near?: string }) =>
    `tools.${a.key} is the section of a tool named "${a.key}", and no tool file has that name${a.near === undefined ? '' : ` (did you mean "${a.near}"?)`}; nothing reads it`,
  'config.unknown-tool-section.hint': () => "rename the section to the tool's manifest().name, or remove it",
  'load.timeout': (a: { seconds: number }) =>
    `loading the file did not finish within ${a.seconds} s (top-level code or isAvailable() hangs)`,
  'load.timeout.hint': () =>
    'top-level code runs when the file is loaded; it must not loop or wait forever (the limit is tools.load_timeout_ms)',
  'load.out-of-memory': () => 'loading the file exceeded the memory limit',
  'load.out-of-memory.hint': () => 'top-level code runs when the file is loaded; move heavy work into execute()',
  'load.exited': (a: { code: string }) => `loading the file ended its loader (exit code ${a.code})`,
  'load.exited.hint': () => 'do not call process.exit() in a tool file',
  'load.crashed': (a: { why: string }) => `loading the file crashed: ${a.why}`,
  'load.crashed.hint': () =>
    'an error thrown later by top-level code (a timer, a rejected promise) ends the loader; catch it',
  'load.forged-report': (a: { why: string }) => `loading the file failed: ${a.why}`,
  'load.forged-report.hint': () => "a tool file must not write to its loader's channel",
  'load.slow': (a: { ms: number; limit: number }) =>
    `loading this file took ${a.ms} ms of CPU (its top-level code and what it imports), more than ${a.limit} ms; every start that loads it pays that`,
  'load.slow.hint': () =>
    "import at the top only what manifest() and isAvailable() need; import the rest inside execute(), with `const { x } = await import('…')`",
};

const zh: typeof en = {
  'load.at-path': (a) => `${a.path}：${a.problem}`,
  'load.fix-manifest': () => '请修正清单；修正之前该工具不会被注册',
  'load.yaml-invalid': (a) => `YAML 无法解析：${a.error}`,
  'load.yaml-invalid.hint': () => '请修正该处的 YAML；修正之前此文件中的工具不会被注册',
  'load.fix-declared': () => '请修正该声明（见 docs/custom-tools.zh.md 的“声明式工具”）；修正之前该工具不会被注册',
  'load.no-tool-class': () => '没有导出继承 BaseTool 的类，所以这个文件没有提供任何工具',
  'load.no-tool-class.hint': () =>
    '请导出该类（`export class MyTool extends BaseTool`）；辅助文件请以 "_" 开头命名，这样就不会被扫描',
  'load.same-name-in-file': (a) => `此文件中的 ${a.copy} 和 ${a.kept} 名称都是 "${a.name}"；只注册 ${a.kept}`,
  'load.same-name-in-file.hint': () => '为每个类设置各自的 manifest().name，或删除重复的类',
  'load.members-threw': (a) => `读取 ${a.className} 的成员时抛出异常：${a.error}`,
  'load.members-threw.hint': () =>
    'manifest、execute 和 isAvailable 必须是普通方法；如果用 getter 代替，它不能抛出异常',
  'load.constructor-threw': (a) => `${a.className} 的构造函数抛出异常：${a.error}`,
  'load.constructor-threw.hint': () =>
    '构造函数会收到应用配置，不应抛出异常；缺少设置时要关闭工具，请让 isAvailable() 返回 false',
  'load.manifest-threw': (a) => `${a.className} 的 manifest() 抛出异常：${a.error}`,
  'load.manifest-threw.hint': () =>
    'manifest() 应返回普通对象 { name, description, parameters, examples }，且不应抛出异常',
  'load.is-available-threw': (a) => `isAvailable() 失败：${a.error}`,
  'load.is-available-threw.hint': () =>
    '请返回 false（可用 this.unavailable("原因") 说明原因），不要抛出异常；修正之前该工具保持关闭',
  'load.missing-export': (a) => `导入了 "${a.name}"，但该模块没有导出它：${a.error}`,
  'load.missing-export.hint': () =>
    "在工具文件中，'riverse' 只提供工具契约（BaseTool、ToolResult、localize、toolSection 和类型）；其他内容请从各自的模块导入",
  'load.commonjs': (a) =>
    `该文件被当作 CommonJS 加载，而 CommonJS 中不能使用 \`import\`/\`export\`：${a.packageJson} ${a.type === undefined ? '没有 "type" 字段' : `写的是 "type": "${a.type}"`}（${a.error}）`,
  'load.commonjs.hint': (a) => `把文件改名为 ${a.renamed}，或在 ${a.packageJson} 中设置 "type": "module"`,
  'load.syntax-error': (a) => `语法错误：${a.error}`,
  'load.syntax-error.hint': () => '请修正这一行的代码；其他工具文件照常加载',
  'load.not-found': (a) => `找不到导入的模块：${a.error}${a.at === undefined ? '' : `（位于 ${a.at}）`}`,
  'load.not-found.package': (a) => `请安装它（npm install ${a.name}），或修正导入`,
  'load.not-found.path': () => '请修正导入路径（相对导入需要写文件扩展名，例如 "./_helpers.ts"）',
  'load.threw': (a) => `文件加载时出错：${a.error}${a.at === undefined ? '' : `（抛出位置：${a.at}）`}`,
  'load.threw.hint': () => '顶层代码在文件加载时运行；可能失败的操作请移到 execute() 或 isAvailable() 中',
  'load.name-taken': (a) => `工具名 "${a.name}" 已被 ${a.holder} 使用；这个工具不会被注册`,
  'load.name-taken.hint': (a) =>
    `请给其中一个改名（manifest().name）或删除重复的文件；${a.holder} 保留这个名称${a.first ? '（它先占用了）' : ''}`,
  'reason.all-off': () => '所有工具都已关闭（配置中的 tools.enabled: false）',
  'reason.turned-off': (a) => `已在配置中关闭（tools.${a.name}.enabled: false）`,
  'reason.off-by-default': (a) =>
    `默认关闭，需先打开（控制台的开关，或在 riverse.yaml 中设置 tools.${a.name}.enabled: true）`,
  'reason.returned-false': () => 'isAvailable() 返回了 false',
  'reason.not-true': (a) => `isAvailable() 返回了 ${a.value}，而不是 true`,
  'load.folder-missing': () => '工具文件夹不存在',
  'load.mcp-server-unavailable': (a) =>
    a.starting
      ? `MCP 服务器 "${a.server}" 还没有启动完成；完成后它的工具会加入`
      : `MCP 服务器 "${a.server}" 未连接：${a.why}；会再次尝试，连上后它的工具会加入`,
  'load.mcp-server-unavailable.hint': (a) =>
    `请检查 riverse.yaml 中的 mcp.servers.${a.server}（command 和 args，或 url）；\`riverse mcp list\` 显示每个服务器的状态`,
  'reason.mcp-server': (a) => `它的 MCP 服务器 "${a.server}" 未连接（${a.why}）`,
  'load.folder-missing.hint': () => '请创建它，或修改配置中的 tools.dirs',
  'load.folder-unreadable': (a) => `无法读取工具文件夹：${a.error}`,
  'load.folder-unreadable.hint': () => '请授予 Riverse 读取它的权限，或修改配置中的 tools.dirs',
  'load.file-unreadable': (a) => `无法读取该文件：${a.error}`,
  'load.file-unreadable.hint': () => '工具文件必须是可读的普通文件（指向设备、管道或文件夹的链接都不是）',
  'load.file-too-large': (a) => `该文件有 ${a.bytes}，超过了工具文件允许的 ${a.max}`,
  'load.file-too-large.hint': () =>
    '工具文件存放的是代码而不是数据：请在 execute() 中读取大数据，或把它放在工具文件夹之外',
  'types.fix': () => '请修正类型：工具文件会按工具契约检查，就像编辑器那样；`--no-types` 可跳过这项检查',
  'types.fix-manifest': () =>
    "请写 `manifest(): ToolManifest`（import type { ToolManifest } from 'riverse'）：不写的话，TypeScript 会把 `type: 'integer'` 当作任意字符串",
  'types.not-done': (a) => `工具文件没有做类型检查：${a.why}`,
  'types.not-done.timeout': (a) => `${a.seconds} 秒内没有完成`,
  'types.not-done.hint': () => '请自行对工具文件运行 tsc，或用 `--no-types` 跳过这项检查',
  'types.no-typescript': () => '工具文件没有做类型检查：这里没有安装 TypeScript',
  'types.no-typescript.hint': () => '运行 npm install --save-dev typescript，或去掉 --types',
  'types.no-node-types': () =>
    '对 Node 模块和全局对象（node:fs、process、Buffer…）的使用没有做类型检查：没有安装 Node 的类型（@types/node）',
  'registry.unavailable': (a) => `工具 "${a.name}" 不可用：${a.reason}。`,
  'registry.did-not-load': (a) => `工具 "${a.name}" 没有加载成功，无法调用：\n${a.diagnostics}`,
  'registry.unknown': (a) =>
    `没有名为 "${a.name}" 的工具${a.near === undefined ? '' : `（是不是 "${a.near}"？）`}${a.known === '' ? '：目前没有可用的工具。' : `。可用的工具：${a.known}。`}${a.unread === '' ? '' : `没有加载成功的工具文件（其中之一可能定义了它）：${a.unread}。`}`,
  'config.unknown-tool-section': (a) =>
    `tools.${a.key} 是名为 "${a.key}" 的工具的小节，但没有工具文件使用这个名称${a.near === undefined ? '' : `（是不是 "${a.near}"？）`}；没有任何工具读取它`,
  'config.unknown-tool-section.hint': () => '请把小节改名为工具的 manifest().name，或删除它',
  'load.timeout': (a) => `加载该文件未能在 ${a.seconds} 秒内完成（顶层代码或 isAvailable() 卡住了）`,
  'load.timeout.hint': () => '顶层代码在文件加载时运行，不能死循环或无限等待（时限由 tools.load_timeout_ms 设置）',
  'load.out-of-memory': () => '加载该文件超出了内存上限',
  'load.out-of-memory.hint': () => '顶层代码在文件加载时运行；请把耗费资源的工作移到 execute() 中',
  'load.exited': (a) => `加载该文件结束了它的加载进程（退出码 ${a.code}）`,
  'load.exited.hint': () => '不要在工具文件中调用 process.exit()',
  'load.crashed': (a) => `加载该文件时崩溃：${a.why}`,
  'load.crashed.hint': () => '顶层代码之后抛出的错误（定时器、被拒绝的 promise）会结束加载进程；请捕获它',
  'load.forged-report': (a) => `加载该文件失败：${a.why}`,
  'load.forged-report.hint': () => '工具文件不能向它的加载进程的通道写入数据',
  'load.slow': (a) =>
    `加载此文件用了 ${a.ms} 毫秒 CPU 时间（它的顶层代码及其导入的模块），超过 ${a.limit} 毫秒；每次加载它的启动都要付出这段时间`,
  'load.slow.hint': () =>
    "顶层只导入 manifest() 和 isAvailable() 需要的模块；其余的在 execute() 里用 `const { x } = await import('…')` 导入",
};

const ja: typeof en = {
  'load.at-path': (a) => `${a.path}：${a.problem}`,
  'load.fix-manifest': () => 'マニフェストを直してください。直るまでこのツールは登録されません',
  'load.yaml-invalid': (a) => `YAML を解析できません：${a.error}`,
  'load.yaml-invalid.hint': () => 'その箇所の YAML を直してください。直るまでこのファイルのツールは登録されません',
  'load.fix-declared': () =>
    '宣言を直してください（docs/custom-tools.ja.md の「宣言型ツール」を参照）。直るまでこのツールは登録されません',
  'load.no-tool-class': () => 'BaseTool を継承したクラスが export されていないため、このファイルはツールを追加しません',
  'load.no-tool-class.hint': () =>
    'クラスを export してください（`export class MyTool extends BaseTool`）。ヘルパーファイルは名前を "_" で始めると読み込まれません',
  'load.same-name-in-file': (a) =>
    `このファイルの ${a.copy} と ${a.kept} はどちらも名前が "${a.name}" です。登録されるのは ${a.kept} だけです`,
  'load.same-name-in-file.hint': () => 'クラスごとに別の manifest().name を付けるか、重複したクラスを削除してください',
  'load.members-threw': (a) => `${a.className} のメンバーを読むと例外が発生しました：${a.error}`,
  'load.members-threw.hint': () =>
    'manifest・execute・isAvailable はふつうのメソッドにしてください。代わりに getter を使うなら、例外を投げてはいけません',
  'load.constructor-threw': (a) => `${a.className} のコンストラクターで例外が発生しました：${a.error}`,
  'load.constructor-threw.hint': () =>
    'コンストラクターはアプリの設定を受け取るだけで、例外を投げないでください。設定が足りないときにツールを無効にするなら、isAvailable() で false を返してください',
  'load.manifest-threw': (a) => `${a.className} の manifest() で例外が発生しました：${a.error}`,
  'load.manifest-threw.hint': () =>
    'manifest() はプレーンなオブジェクト { name, description, parameters, examples } を返し、例外を投げないでください',
  'load.is-available-threw': (a) => `isAvailable() が失敗しました：${a.error}`,
  'load.is-available-threw.hint': () =>
    '例外を投げずに false を返してください（理由は this.unavailable("理由") で伝えられます）。直るまでこのツールは無効のままです',
  'load.missing-export': (a) => `"${a.name}" を import していますが、そのモジュールは export していません：${a.error}`,
  'load.missing-export.hint': () =>
    "ツールファイルで 'riverse' から import できるのはツールの契約（BaseTool、ToolResult、localize、toolSection と型）だけです。ほかのものはそれぞれのモジュールから import してください",
  'load.commonjs': (a) =>
    `このファイルは CommonJS として読み込まれ、そこでは \`import\`/\`export\` が使えません：${a.packageJson} ${a.type === undefined ? 'に "type" フィールドがありません' : `が "type": "${a.type}" になっています`}（${a.error}）`,
  'load.commonjs.hint': (a) =>
    `ファイル名を ${a.renamed} に変えるか、${a.packageJson} に "type": "module" を設定してください`,
  'load.syntax-error': (a) => `構文エラー：${a.error}`,
  'load.syntax-error.hint': () => 'この行のコードを直してください。ほかのツールファイルはそのまま読み込まれます',
  'load.not-found': (a) => `import したものが見つかりません：${a.error}${a.at === undefined ? '' : `（${a.at}）`}`,
  'load.not-found.package': (a) => `インストールする（npm install ${a.name}）か、import を直してください`,
  'load.not-found.path': () => 'import のパスを直してください（相対 import には拡張子が必要です。例："./_helpers.ts"）',
  'load.threw': (a) =>
    `ファイルの読み込み中に失敗しました：${a.error}${a.at === undefined ? '' : `（発生場所：${a.at}）`}`,
  'load.threw.hint': () =>
    'トップレベルのコードはファイルを読み込むときに実行されます。失敗しうる処理は execute() か isAvailable() に移してください',
  'load.name-taken': (a) => `ツール名 "${a.name}" はすでに ${a.holder} が使っています。このツールは登録されません`,
  'load.name-taken.hint': (a) =>
    `どちらかの名前（manifest().name）を変えるか、重複を削除してください。名前は ${a.holder} のものになります${a.first ? '（先に使っていたため）' : ''}`,
  'reason.all-off': () => 'すべてのツールが無効です（設定の tools.enabled: false）',
  'reason.turned-off': (a) => `設定で無効にされています（tools.${a.name}.enabled: false）`,
  'reason.off-by-default': (a) =>
    `オンにするまで無効です（ダッシュボードのスイッチ、または riverse.yaml の tools.${a.name}.enabled: true）`,
  'reason.returned-false': () => 'isAvailable() が false を返しました',
  'reason.not-true': (a) => `isAvailable() が true ではなく ${a.value} を返しました`,
  'load.folder-missing': () => 'ツールフォルダーがありません',
  'load.mcp-server-unavailable': (a) =>
    a.starting
      ? `MCP サーバー "${a.server}" はまだ起動中です。起動するとそのツールが加わります`
      : `MCP サーバー "${a.server}" に接続していません：${a.why}。再試行し、応答があればツールが加わります`,
  'load.mcp-server-unavailable.hint': (a) =>
    `riverse.yaml の mcp.servers.${a.server}（command と args、または url）を確認してください。\`riverse mcp list\` で各サーバーの状態がわかります`,
  'reason.mcp-server': (a) => `MCP サーバー "${a.server}" に接続していません（${a.why}）`,
  'load.folder-missing.hint': () => 'フォルダーを作るか、設定の tools.dirs を変えてください',
  'load.folder-unreadable': (a) => `ツールフォルダーを読めません：${a.error}`,
  'load.folder-unreadable.hint': () => 'Riverse に読む権限を与えるか、設定の tools.dirs を変えてください',
  'load.file-unreadable': (a) => `ファイルを読めません：${a.error}`,
  'load.file-unreadable.hint': () =>
    'ツールファイルは読める普通のファイルでなければなりません（デバイス・パイプ・フォルダーへのリンクは違います）',
  'load.file-too-large': (a) => `ファイルは ${a.bytes} あり、ツールファイルに許される ${a.max} を超えています`,
  'load.file-too-large.hint': () =>
    'ツールファイルに置くのはコードで、データではありません。大きなデータは execute() で読むか、ツールフォルダーの外に置いてください',
  'types.fix': () =>
    '型を直してください。ツールファイルはエディターと同じようにツールの契約に照らしてチェックされます。`--no-types` でこのチェックを省けます',
  'types.fix-manifest': () =>
    "`manifest(): ToolManifest` と書いてください（import type { ToolManifest } from 'riverse'）。書かないと TypeScript は `type: 'integer'` をただの文字列とみなします",
  'types.not-done': (a) => `ツールファイルの型チェックができませんでした：${a.why}`,
  'types.not-done.timeout': (a) => `${a.seconds} 秒以内に終わりませんでした`,
  'types.not-done.hint': () => 'ツールファイルに自分で tsc を実行するか、`--no-types` でこのチェックを省いてください',
  'types.no-typescript': () =>
    'ツールファイルの型チェックができませんでした：ここには TypeScript がインストールされていません',
  'types.no-typescript.hint': () => 'npm install --save-dev typescript を実行するか、--types を外してください',
  'types.no-node-types': () =>
    'Node のモジュールやグローバル（node:fs、process、Buffer…）の使い方は型チェックされていません：Node の型（@types/node）がインストールされていません',
  'registry.unavailable': (a) => `ツール "${a.name}" は使用できません：${a.reason}。`,
  'registry.did-not-load': (a) => `ツール "${a.name}" は読み込めなかったため、呼び出せません：\n${a.diagnostics}`,
  'registry.unknown': (a) =>
    `"${a.name}" というツールはありません${a.near === undefined ? '' : `（"${a.near}" のことですか？）`}${a.known === '' ? '。使えるツールがありません。' : `。使えるツール：${a.known}。`}${a.unread === '' ? '' : `読み込めなかったツールファイル（このどれかで定義されているかもしれません）：${a.unread}。`}`,
  'config.unknown-tool-section': (a) =>
    `tools.${a.key} は "${a.key}" という名前のツールのセクションですが、その名前のツールファイルはありません${a.near === undefined ? '' : `（"${a.near}" のことですか？）`}。誰も読まない設定です`,
  'config.unknown-tool-section.hint': () => 'セクション名をツールの manifest().name に変えるか、削除してください',
  'load.timeout': (a) =>
    `ファイルの読み込みが ${a.seconds} 秒以内に終わりませんでした（トップレベルのコードか isAvailable() が止まっています）`,
  'load.timeout.hint': () =>
    'トップレベルのコードはファイルの読み込み時に実行されます。無限ループや終わらない待機をしてはいけません（制限時間は tools.load_timeout_ms）',
  'load.out-of-memory': () => 'ファイルの読み込みがメモリ上限を超えました',
  'load.out-of-memory.hint': () =>
    'トップレベルのコードはファイルの読み込み時に実行されます。重い処理は execute() に移してください',
  'load.exited': (a) => `ファイルの読み込みがローダーを終了させました（終了コード ${a.code}）`,
  'load.exited.hint': () => 'ツールファイルで process.exit() を呼ばないでください',
  'load.crashed': (a) => `ファイルの読み込み中にクラッシュしました：${a.why}`,
  'load.crashed.hint': () =>
    'トップレベルのコードが後から投げたエラー（タイマー、拒否された promise）はローダーを終わらせます。捕捉してください',
  'load.forged-report': (a) => `ファイルの読み込みに失敗しました：${a.why}`,
  'load.forged-report.hint': () => 'ツールファイルはローダーの通信路に書き込んではいけません',
  'load.slow': (a) =>
    `このファイルの読み込みに CPU 時間で ${a.ms} ms かかりました（トップレベルのコードとそれが import するもの）。${a.limit} ms を超えており、これを読み込む起動のたびにかかります`,
  'load.slow.hint': () =>
    "トップレベルでは manifest() と isAvailable() に必要なものだけを import し、残りは execute() の中で `const { x } = await import('…')` で import してください",
};

export const LOAD_TEXT: Record<Language, typeof en> = { en, zh, ja };
