/**
 * The fish completion script, generated from the completion model. Global flags complete before
 * and after the command; a helper finds the command while skipping flag values (`--profile work
 * token`), which fish's `__fish_use_subcommand` does not. Files are turned off only where a
 * command name or a fixed choice is expected, and forced for options that take a file.
 */
import type { CommandSpec, CompletionModel, FlagSpec } from './model.js';
import { commandPaths, PROFILE_NAME_PATTERN } from './model.js';

/** A single-quoted fish string. */
const quote = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function flagLine(flag: FlagSpec, condition: string | undefined): string {
  const parts = ['complete -c tokencli'];
  if (condition) parts.push(`-n ${quote(condition)}`);
  parts.push(`-l ${flag.long.slice(2)}`);
  if (flag.short) parts.push(`-s ${flag.short.slice(1)}`);
  const { value } = flag;
  if (value.kind === 'choices') parts.push(`-x -a ${quote(value.values.join(' '))}`);
  else if (value.kind === 'profile') parts.push(`-x -a ${quote('(__tokencli_profiles)')}`);
  else if (value.kind === 'file') parts.push('-r -F');
  else if (value.kind === 'free') parts.push('-x');
  parts.push(`-d ${quote(flag.description)}`);
  return parts.join(' ');
}

function commandLines(command: CommandSpec, names: string[], path: string[] = [command.name]): string[] {
  const using = `__tokencli_using ${path.join(' ')}`;
  const at = `__tokencli_at ${path.join(' ')}`;
  const lines =
    path.length === 1
      ? [
          `complete -c tokencli -n __tokencli_needs_command -f -a ${command.name} -d ${quote(command.description)}`,
        ]
      : [];
  lines.push(...command.flags.map((flag) => flagLine(flag, using)));
  const p = command.positional;
  if (command.subcommands) {
    // `profile <TAB>`: the subcommands, each with its description; then each one's own words.
    for (const sub of command.subcommands)
      lines.push(`complete -c tokencli -n ${quote(at)} -f -a ${sub.name} -d ${quote(sub.description)}`);
    lines.push(`complete -c tokencli -n ${quote(using)} -f`);
    for (const sub of command.subcommands) lines.push(...commandLines(sub, names, [...path, sub.name]));
  } else if (p === 'commands')
    lines.push(`complete -c tokencli -n ${quote(using)} -f -a ${quote(names.join(' '))}`);
  else if (typeof p === 'object')
    lines.push(`complete -c tokencli -n ${quote(using)} -f -a ${quote(p.choices.join(' '))}`);
  else if (p === 'command-line')
    lines.push(`complete -c tokencli -n ${quote(using)} -x -a ${quote('(__tokencli_command_line)')}`);
  else if (p === 'profile')
    lines.push(`complete -c tokencli -n ${quote(at)} -f -a ${quote('(__tokencli_profiles)')}`);
  // Commands without operands: nothing to offer but flags.
  else lines.push(`complete -c tokencli -n ${quote(using)} -f`);
  return lines;
}

/** Client-only global flags are not offered after the commands that do not take them. */
function globalCondition(flag: FlagSpec, commands: CommandSpec[]): string | undefined {
  if (!flag.clientOnly) return undefined;
  const others = commands.filter((c) => !c.clientGlobals);
  return others.length > 0 ? others.map((c) => `not __tokencli_using ${c.name}`).join('; and ') : undefined;
}

export function fishScript({ globals, commands }: CompletionModel): string {
  const names = commands.map((c) => c.name);
  const valueFlags = [...globals]
    .concat(commandPaths(commands).flatMap((c) => c.flags))
    .filter((f) => f.value.kind !== 'none')
    .map((f) => f.long);
  const uniqueValueFlags = [...new Set(valueFlags)];
  return `# tokencli fish completion. Load it with:  tokencli completion fish | source
# or install it:  tokencli completion fish > ~/.config/fish/completions/tokencli.fish

# The words before the cursor that are neither flags nor the value of a flag taking one: the
# command, a subcommand (profile use), operands.
function __tokencli_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case ${uniqueValueFlags.join(' ')}
                set skip 1
            case '-*'
            case '*'
                echo $word
        end
    end
end

function __tokencli_needs_command
    test (count (__tokencli_words)) -eq 0
end

# Whether the words begin with the command path in argv (profile use).
function __tokencli_using
    set -l words (__tokencli_words)
    test (count $words) -ge (count $argv); or return 1
    for i in (seq (count $argv))
        test "$words[$i]" = "$argv[$i]"; or return 1
    end
end

# Whether the words are the command path in argv, nothing after it yet.
function __tokencli_at
    test (count (__tokencli_words)) -eq (count $argv); and __tokencli_using $argv
end

# exec -- CMD ARGS…: CMD's own completions.
function __tokencli_command_line
    set -l words (commandline -opc) (commandline -ct)
    set -l at (contains -i -- -- $words)
    if test -z "$at"
        __fish_complete_command
        return
    end
    set -l rest $words[(math $at + 1)..-1]
    if test (count $rest) -le 1
        __fish_complete_command
    else
        complete -C (string join ' ' -- (string escape -- $rest))
    end
end

# Profile names from the config file (the same directory tokencli uses), read without node:
# every "name": { inside "profiles" is a profile (profiles hold only strings and numbers).
function __tokencli_profiles
    set -l dir
    if set -q TOKENCLI_CONFIG_DIR; and test -n "$TOKENCLI_CONFIG_DIR"
        set dir $TOKENCLI_CONFIG_DIR
    else if test (uname) = Darwin
        set dir "$HOME/Library/Application Support/tokencli"
    else if set -q XDG_CONFIG_HOME; and test -n "$XDG_CONFIG_HOME"
        set dir $XDG_CONFIG_HOME/tokencli
    else
        set dir $HOME/.config/tokencli
    end
    test -r $dir/config.json; or return 0
    string join ' ' < $dir/config.json \\
        | string replace -r '^.*?"profiles"\\s*:\\s*\\{' '' \\
        | string match -ra -g '"(${PROFILE_NAME_PATTERN})"\\s*:\\s*\\{'
end

${globals.map((flag) => flagLine(flag, globalCondition(flag, commands))).join('\n')}
${commands.flatMap((c) => commandLines(c, names)).join('\n')}
`;
}
