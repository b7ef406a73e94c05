import { type Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config/load-config.ts';
import { ModelError } from '../models/model-error.ts';
import { StoreError } from '../store/store-error.ts';
import { commandLanguage } from './command-language.ts';
import { PROVIDER_WIRE_NAMES } from '../models/providers/provider-wire-names.ts';
import { HELP_TEXT } from './help-text.ts';
import { LANGUAGES } from '../core/language.ts';
import { LocalizedCommand } from './localized-command.ts';
import { UsageError } from './usage-error.ts';

// Chosen once, before parsing: the help is built from texts given up front.
const language = await commandLanguage(process.argv.slice(2));
const text = HELP_TEXT[language];

const program = LocalizedCommand.program(text, 'riverse')
  .description(text.program)
  .version(packageJson.version, '-V, --version', text.version)
  .option('-c, --config <file>', text.config)
  .addHelpText('after', text.programAfter)
  // Commander's own usage errors (unknown option, missing argument…) exit 2 like ours, not 1 like a failed tool.
  .exitOverride();

const tools = program.command('tools').description(text.tools);
const json = () => new Option('--json', text.json);
const lang = () => new Option('--lang <language>', text.lang).choices(LANGUAGES);
const globals = () => ({ ...program.opts<{ config?: string }>(), language });
let exitCode = 0;
// Each command's module is imported when it runs: `tools list` does not pay for the model adapters,
// the store and the turn loop.
const toolsList = async (options: Parameters<typeof import('./tools/tools-list.ts').toolsList>[0]) =>
  (await import('./tools/tools-list.ts')).toolsList(options);
/** The first tool host, started before a command that runs turns loads the assistant: see early-host.ts. */
const startHostEarly = async (configPath: string | undefined) =>
  (await import('./early-host.ts')).startHostEarly(configPath);
const chat = async (options: Parameters<typeof import('./chat/chat.ts').chat>[0]) => {
  await startHostEarly(options.config);
  return (await import('./chat/chat.ts')).chat(options);
};
// biome-ignore lint/suspicious/noExplicitAny: commander hands each action its own arguments
type CommandArguments = any[];
const run =
  (action: (...args: CommandArguments) => Promise<number>) =>
  async (...args: CommandArguments) => {
    exitCode = await action(...args);
  };

tools
  .command('list')
  .description(text.list)
  .addOption(json())
  .addOption(lang())
  .action(run((options) => toolsList({ ...globals(), ...options })));

tools
  .command('show')
  .description(text.show)
  .argument('<name>', text.toolName)
  .addOption(json())
  .addOption(lang())
  .addOption(new Option('--dialect <dialect>', text.dialect).choices(PROVIDER_WIRE_NAMES))
  .action(
    run(async (name, options) => (await import('./tools/tools-show.ts')).toolsShow(name, { ...globals(), ...options })),
  );

tools
  .command('run')
  .description(text.run)
  .argument('<name>', text.toolName)
  .argument('[params...]', text.params)
  .option('--params <json>', text.paramsJson)
  .addOption(lang())
  .option('--timeout <ms>', text.timeout, positiveInteger)
  .addOption(new Option('--json', text.runJson))
  .action(
    run(async (name, params, options) =>
      (await import('./tools/tools-run.ts')).toolsRun(name, params, { ...globals(), ...options }),
    ),
  );

tools
  .command('check')
  .description(text.check)
  .addOption(json())
  .addOption(lang())
  .option('--strict', text.strict)
  .option('--types', text.types)
  .option('--no-types', text.noTypes)
  .option('-w, --watch', text.watch)
  .action(
    run(async (options) =>
      options.watch === true
        ? (await import('./tools/tools-check-watch.ts')).toolsCheckWatch({ ...globals(), ...options })
        : (await import('./tools/tools-check.ts')).toolsCheck({ ...globals(), ...options }),
    ),
  );

tools
  .command('new')
  .description(text.new)
  .argument('<name>', text.newName)
  .addOption(lang())
  .option('--dir <folder>', text.dir)
  .action(
    run(async (name, options) => (await import('./tools/tools-new.ts')).toolsNew(name, { ...globals(), ...options })),
  );

program
  .command('chat')
  .description(text.chat)
  .option('-s, --session <name>', text.session, 'default')
  .addOption(lang())
  .action(run((options) => chat({ ...globals(), ...options })));

program
  .command('ask')
  .description(text.ask)
  .argument('<question...>', text.question)
  .option('-s, --session <name>', text.askSession)
  .addOption(lang())
  .addOption(new Option('--json', text.askJson))
  .action(
    run(async (words: string[], options) => {
      await startHostEarly(globals().config);
      return (await import('./chat/ask.ts')).ask(words.join(' '), { ...globals(), ...options });
    }),
  );

tools
  .command('eval')
  .description(text.eval)
  .addOption(json())
  .addOption(lang())
  .option('--k <k>', text.evalK, positiveInteger)
  .option('--model', text.evalModel)
  .action(run(async (options) => (await import('./tools/tools-eval.ts')).toolsEval({ ...globals(), ...options })));

// For Riverse's own measurements, not a person's first hour: kept out of the main help (`bench --help` has it).
program
  .command('bench', { hidden: true })
  .description(text.bench)
  .command('route')
  .description(text.benchRoute)
  .requiredOption('--tools <file>', text.benchTools)
  .requiredOption('--queries <file>', text.benchQueries)
  .option('--k <list>', text.benchK, '1,3,5,10,20')
  .addOption(lang())
  .addOption(new Option('--json', text.benchJson))
  .action(run(async (options) => (await import('./bench/bench-route.ts')).benchRoute({ ...globals(), ...options })));

const mcp = program
  .command('mcp')
  .description(text.mcp)
  .action(run(async () => (await import('./mcp/mcp.ts')).mcpServe(globals())));
mcp
  .command('list')
  .description(text.mcpList)
  .addOption(json())
  .action(run(async (options) => (await import('./mcp/mcp-list.ts')).mcpList({ ...globals(), ...options })));

const serveOptions = <C extends Command>(command: C): C =>
  command
    .option('--host <address>', text.host)
    .option('--port <number>', text.port, portNumber)
    .option('--token <token>', text.token)
    .addOption(lang());
const serve = async (options: Omit<Parameters<typeof import('./serve/serve.ts').serve>[0], 'language'>) => {
  await startHostEarly(globals().config);
  return (await import('./serve/serve.ts')).serve({ ...globals(), ...options });
};

serveOptions(program.command('serve').description(text.serve)).action(run(serve));

program
  .command('trace')
  .description(text.trace)
  .argument('[id]', text.traceId)
  .option('--json', text.traceJson)
  .addOption(lang())
  .action(
    run(async (id: string | undefined, options) =>
      (await import('./trace/trace-command.ts')).traceCommand(id, { ...globals(), ...options }),
    ),
  );

const tasksModule = () => import('./tasks/tasks-command.ts');
const tasks = program
  .command('tasks')
  .description(text.tasks)
  .addOption(new Option('--all', text.tasksAll))
  .addOption(json())
  .addOption(lang())
  .action(run(async (options) => (await tasksModule()).tasksList({ ...globals(), ...options })));
tasks
  .command('list')
  .description(text.tasksList)
  .addOption(new Option('--all', text.tasksAll))
  .addOption(json())
  .addOption(lang())
  .action(run(async (options) => (await tasksModule()).tasksList({ ...globals(), ...options })));
tasks
  .command('show')
  .description(text.tasksShow)
  .argument('<id>', text.taskId)
  .addOption(json())
  .addOption(lang())
  .action(run(async (id: string, options) => (await tasksModule()).tasksShow(id, { ...globals(), ...options })));
tasks
  .command('cancel')
  .description(text.tasksCancel)
  .argument('<id>', text.taskId)
  .addOption(json())
  .addOption(lang())
  .action(run(async (id: string, options) => (await tasksModule()).tasksCancel(id, { ...globals(), ...options })));

// The main job: the service (it starts without a model, and says how to connect one).
serveOptions(program).action(run(serve));

function portNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65535) throw new InvalidArgumentError(text.portNumber);
  return number;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError(text.positiveInteger);
  return number;
}

try {
  await program.parseAsync();
  process.exitCode = exitCode;
} catch (error) {
  if (error instanceof CommanderError) {
    // Already printed by commander; --help and --version exit 0.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    (error instanceof ModelError && error.code === 'not-configured')
  ) {
    // One form for every error the command prints: commander's own (`error: …`), in the person's language.
    console.error(`${text.error}${error instanceof UsageError ? error.message : error.localized(language)}`);
    process.exitCode = 2;
  } else if (error instanceof StoreError) {
    // The store could not be opened or written (a PostgreSQL database unreachable at start): said, not a stack.
    console.error(`${text.error}${error.message}`);
    process.exitCode = 1;
  } else throw error;
}

// MCP servers the command started are stopped (a stdio server is a child process of ours).
await (await import('./open-mcp.ts')).closeMcp();
// The OpenTelemetry export, when one was started, sends its last spans (waiting a bounded time).
await (await import('../telemetry/start-telemetry.ts')).stopTelemetry();

// The command is done, but a tool may not be: one stopped at its time limit, or cancelled, can run on
// (ignoring its signal) and would keep the process alive. Do not wait for it once the output is out.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit();
