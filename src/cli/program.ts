import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config/load-config.ts';
import { ModelError } from '../models/model-error.ts';
import { ask } from './ask.ts';
import { chat } from './chat.ts';
import { DIALECTS } from '../schema/dialect.ts';
import { LANGUAGES } from '../tools/tool-manifest.ts';
import { toolsCheck } from './tools-check.ts';
import { toolsCheckWatch } from './tools-check-watch.ts';
import { toolsList } from './tools-list.ts';
import { toolsNew } from './tools-new.ts';
import { toolsRun } from './tools-run.ts';
import { toolsShow } from './tools-show.ts';
import { UsageError } from './usage-error.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';

const program = new Command('riverse')
  .description('A personal AI assistant whose abilities come from drop-in tools')
  .version(packageJson.version)
  .option('-c, --config <file>', 'config file (default: $RIVERSE_CONFIG, else ./riverse.yaml)')
  .showHelpAfterError()
  // Commander's own usage errors (unknown option, missing argument…) exit 2 like ours, not 1 like a failed tool.
  .exitOverride();

const tools = program.command('tools').description('list, inspect, run, check and create drop-in tools');
const json = new Option('--json', 'print JSON');
const lang = new Option('--lang <language>', 'language of descriptions and answers').choices(LANGUAGES);
const globals = () => program.opts<{ config?: string }>();
let exitCode = 0;
const run = (action: (...args: any[]) => Promise<number>) => async (...args: any[]) => {
  exitCode = await action(...args);
};

tools
  .command('list')
  .description('every tool found: name, source file, available or why not')
  .addOption(json)
  .action(run((options) => toolsList({ ...globals(), ...options })));

tools
  .command('show')
  .description('a tool\'s manifest and the JSON Schema models are given')
  .argument('<name>', 'tool name')
  .addOption(json)
  .addOption(lang)
  .addOption(new Option('--dialect <dialect>', 'print the tool definition as this provider is given it').choices(DIALECTS))
  .action(run((name, options) => toolsShow(name, { ...globals(), ...options })));

tools
  .command('run')
  .description('run a tool: prints its data, or its error with exit code 1')
  .argument('<name>', 'tool name')
  .argument('[params...]', 'parameters as key=value')
  .option('--params <json>', 'parameters as a JSON object')
  .addOption(lang)
  .option('--timeout <ms>', 'time limit in milliseconds', positiveInteger)
  .addOption(new Option('--json', 'print the whole result as JSON'))
  .action(run((name, params, options) => toolsRun(name, params, { ...globals(), ...options })));

tools
  .command('check')
  .description('load every tool and print every diagnostic; exit 1 on errors')
  .addOption(json)
  .option('--strict', 'treat warnings as errors')
  .option('--types', 'type-check the TypeScript tool files against the tool contract (default: when TypeScript is installed)')
  .option('--no-types', 'do not type-check the tool files')
  .option('-w, --watch', 'check again on every save, printing what changed (with --json: one object per event)')
  .action(run((options) => (options.watch === true ? toolsCheckWatch({ ...globals(), ...options }) : toolsCheck({ ...globals(), ...options }))));

tools
  .command('new')
  .description('write a new tool file, and a test for it, into the tool folder')
  .argument('<name>', 'tool name, e.g. my_tool')
  .option('--dir <folder>', 'folder to write into (default: the first tool folder)')
  .action(run((name, options) => toolsNew(name, { ...globals(), ...options })));

program
  .command('chat')
  .description('chat in the terminal; the assistant uses the drop-in tools')
  .option('-s, --session <name>', 'session to resume or start', 'default')
  .addOption(lang)
  .action(run((options) => chat({ ...globals(), ...options })));

program
  .command('ask')
  .description('ask one question; the reply goes to stdout')
  .argument('<question...>', 'the question')
  .option('-s, --session <name>', 'keep the exchange in this session (default: not kept)')
  .addOption(lang)
  .addOption(new Option('--json', 'print the whole turn: reply, tool calls, messages, usage'))
  .action(run((words: string[], options) => ask(words.join(' '), { ...globals(), ...options })));

// The main job: with a model (named, or found: an API key, a local Ollama), chat; without one,
// list the tools and say what to set.
program.action(
  run(async () => {
    try {
      return await chat(globals());
    } catch (error) {
      if (!(error instanceof ModelError && error.code === 'not-configured')) throw error;
      const code = await toolsList(globals());
      console.log(`\n${error.message}\n\nRun \`${RIVERSE_COMMAND} --help\` for every command.`);
      return code;
    }
  }),
);

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('expected a positive whole number of milliseconds');
  return number;
}

try {
  await program.parseAsync();
  process.exitCode = exitCode;
} catch (error) {
  if (error instanceof CommanderError) {
    // Already printed by commander; --help and --version exit 0.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UsageError || error instanceof ConfigError || (error instanceof ModelError && error.code === 'not-configured')) {
    console.error(`riverse: ${error.message}`);
    process.exitCode = 2;
  } else throw error;
}

// The command is done, but a tool may not be: one stopped at its time limit, or cancelled, can run on
// (ignoring its signal) and would keep the process alive. Do not wait for it once the output is out.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
process.exit();
