#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config/load-config.ts';
import { LANGUAGES } from '../tools/tool-manifest.ts';
import { toolsCheck } from './tools-check.ts';
import { toolsList } from './tools-list.ts';
import { toolsNew } from './tools-new.ts';
import { toolsRun } from './tools-run.ts';
import { toolsShow } from './tools-show.ts';
import { UsageError } from './usage-error.ts';

const program = new Command('riverse')
  .description('A personal AI assistant whose abilities come from drop-in tools')
  .version(packageJson.version)
  .option('-c, --config <file>', 'config file (default: $RIVERSE_CONFIG, else ./riverse.yaml)')
  .showHelpAfterError();

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
  .action(run((options) => toolsCheck({ ...globals(), ...options })));

tools
  .command('new')
  .description('write a new tool file, and a test for it, into the tool folder')
  .argument('<name>', 'tool name, e.g. my_tool')
  .option('--dir <folder>', 'folder to write into (default: the first tool folder)')
  .action(run((name, options) => toolsNew(name, { ...globals(), ...options })));

// For now the main job is the tools; the bare command lists them.
program.action(run(async () => {
  const code = await toolsList(globals());
  console.log('\nRun `riverse --help` for every command, e.g. `riverse tools run weather city=Tokyo`.');
  return code;
}));

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('expected a positive whole number of milliseconds');
  return number;
}

try {
  await program.parseAsync();
  process.exitCode = exitCode;
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(`riverse: ${error.message}`);
    process.exitCode = 2;
  } else throw error;
}
