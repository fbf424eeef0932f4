/**
 * How help describes an option or argument: choices and defaults as the values one types
 * (`choices: keychain, file, none`, `default: 300`), not as JSON strings (`"300"`).
 */
import { type Argument, type Command, Help, type HelpConfiguration, type Option } from 'commander';

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

/**
 * Global flags only the client commands read, left out of the help of the commands that ignore
 * them: `serve` runs the service from its own flags and `completion` prints a script; neither
 * reads a profile, a store or the network settings.
 */
const CLIENT_GLOBALS = [
  '--profile',
  '--base-url',
  '--client-id',
  '--store',
  '--timeout',
  '--ca-file',
  '--quiet',
  '--no-color',
] as const;
const IGNORED_GLOBALS: Record<string, readonly string[]> = {
  serve: CLIENT_GLOBALS,
  completion: CLIENT_GLOBALS,
};

export const helpConfiguration: HelpConfiguration = {
  // Each subcommand's help lists the global flags it honours too (gh's "INHERITED FLAGS").
  showGlobalOptions: true,
  visibleGlobalOptions(cmd: Command): Option[] {
    const ignored = IGNORED_GLOBALS[cmd.name()] ?? [];
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
