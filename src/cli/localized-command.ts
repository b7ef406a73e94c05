import { Command, Help, type Option } from 'commander';
import { closestWord } from '../core/closest-word.ts';
import { RIVERSE_COMMAND } from './command-hints.ts';
import type { HelpText } from './help-text.ts';

/**
 * A commander `Command` that speaks the person's language: its usage errors are reworded from
 * what commander found (which error, and the words it was about), each followed by where the
 * command's help is, and its help titles are translated. A word where a command was expected is
 * an unknown command with the close one suggested, at every level — also at the top, where
 * commander would call it "too many arguments" (the top level runs chat and takes none).
 */
export class LocalizedCommand extends Command {
  readonly text: HelpText;

  constructor(text: HelpText, name?: string) {
    super(name);
    this.text = text;
  }

  /** The top command; its subcommands inherit the help settings. */
  static program(text: HelpText, name: string): LocalizedCommand {
    return new LocalizedCommand(text, name)
      .helpOption('-h, --help', text.help)
      .helpCommand('help [command]', text.helpCommand)
      .configureHelp({
        styleTitle: (title) => text.titles[title] ?? title,
        optionDescription: (option: Option) => localizeNotes(new Help().optionDescription(option), text),
      });
  }

  override createCommand(name?: string): Command {
    return new LocalizedCommand(this.text, name);
  }

  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    const reworded = this.reword(message, options?.code);
    super.error(`${this.text.error}${reworded}\n${this.text.seeHelp(commandPath(this))}`, options);
  }

  /** Commander's message in this language; one it does not know, as commander wrote it. */
  private reword(message: string, code: string | undefined): string {
    const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
    const text = this.text;
    switch (code) {
      case 'commander.unknownCommand':
        return this.unknownWord(this.args[0] ?? '');
      case 'commander.excessArguments':
        if (this.commands.length > 0) return this.unknownWord(this.args[0] ?? '');
        return text.excessArguments(this.name(), this.registeredArguments.length, this.args);
      case 'commander.missingArgument':
        return text.missingArgument(quoted);
      case 'commander.unknownOption':
        return text.unknownOption(quoted, /Did you mean (\S+)\?/.exec(message)?.[1]);
      case 'commander.optionMissingArgument':
        return text.optionMissingArgument(quoted);
      case 'commander.missingMandatoryOptionValue':
        return text.missingOption(quoted);
      case 'commander.invalidArgument': {
        const invalid = /option '([^']+)' argument '([^']*)' is invalid\. (.*)$/s.exec(message);
        if (invalid === null) break;
        const choices = /^Allowed choices are (.+)\.$/.exec(invalid[3]!)?.[1];
        return text.invalidValue(
          invalid[1]!,
          invalid[2]!,
          choices === undefined ? invalid[3]! : text.oneOf(choices.split(', ')),
        );
      }
    }
    return message.replace(/^error: /, '');
  }

  private unknownWord(word: string): string {
    // Hidden commands (`bench`) still run when typed, but are not offered.
    const names = new Help()
      .visibleCommands(this)
      .map((command) => command.name())
      .filter((name) => name !== 'help');
    const near = closestWord(word, names);
    // Words that are no typo of a command, where `ask` is one, are most likely a question.
    const question =
      near === undefined && names.includes('ask') && !word.startsWith('-')
        ? this.text.askInstead(this.args.join(' '))
        : '';
    return `${this.text.unknownCommand(word, near, names)}${question}`;
  }
}

/** `npx riverse tools run`: the command as typed. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent != null; at = at.parent) names.unshift(at.name());
  return [RIVERSE_COMMAND, ...names].join(' ');
}

/** `(choices: "en", "zh", "ja", default: "x")` with its words in this language. */
function localizeNotes(description: string, text: HelpText): string {
  return description
    .replace(/\((choices|default): /, (_, word: string) => `(${word === 'choices' ? text.choices : text.default}: `)
    .replace(/, default: /, `, ${text.default}: `);
}
