/**
 * How help describes an option or argument: choices and defaults as the values one types
 * (`choices: keychain, file, none`, `default: 300`), not as JSON strings (`"300"`).
 */
import { type Argument, type Command, Help, type HelpConfiguration, type Option } from 'commander';
import { CLIENT_GLOBAL_FLAGS, PROGRAM, takesClientGlobals } from '../command-model/program.js';

function extras(choices: readonly string[] | undefined, defaultShown: string | undefined): string {
  const parts: string[] = [];
  if (choices) parts.push(`choices: ${choices.join(', ')}`);
  if (defaultShown !== undefined) parts.push(`default: ${defaultShown}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

function shownDefault(item: {
  defaultValue?: unknown;
  defaultValueDescription?: string;
}): string | undefined {
  if (item.defaultValueDescription) return item.defaultValueDescription;
  const value = item.defaultValue;
  // Boolean flags default to false/true as an implementation detail, not something to show.
  if (value === undefined || typeof value === 'boolean') return undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

export const helpConfiguration: HelpConfiguration = {
  // Each subcommand's help lists the global flags it honours too (gh's "INHERITED FLAGS").
  showGlobalOptions: true,
  visibleGlobalOptions(cmd: Command): Option[] {
    // Left out of the help of the commands that do not read them (CommandDef.clientGlobals).
    const def = PROGRAM.commands.find((command) => command.name === cmd.name());
    const ignored = def && !takesClientGlobals(def) ? CLIENT_GLOBAL_FLAGS.map((flag) => flag.long) : [];
    return Help.prototype.visibleGlobalOptions
      .call(this, cmd)
      .filter((option) => option.long === undefined || !ignored.includes(option.long));
  },
  optionDescription(option: Option): string {
    return `${option.description}${extras(option.argChoices, shownDefault(option))}`;
  },
  argumentDescription(argument: Argument): string {
    return `${argument.description}${extras(argument.argChoices, shownDefault(argument))}`;
  },
};
