/**
 * The fish completion script, generated from the completion model. Global flags complete before
 * and after the command; a helper finds the command while skipping flag values (`--profile work
 * token`), which fish's `__fish_use_subcommand` does not. Files are turned off only where a
 * command name or a fixed choice is expected, and forced for options that take a file.
 */
import type { CommandSpec, CompletionModel, FlagSpec } from './model.js';
import { PROFILE_NAME_PATTERN } from './model.js';

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

function commandLines(command: CommandSpec, names: string[]): string[] {
  const using = `__tokencli_using ${command.name}`;
  const lines = [
    `complete -c tokencli -n __tokencli_needs_command -f -a ${command.name} -d ${quote(command.description)}`,
    ...command.flags.map((flag) => flagLine(flag, using)),
  ];
  const p = command.positional;
  if (p === 'commands') lines.push(`complete -c tokencli -n ${quote(using)} -f -a ${quote(names.join(' '))}`);
  else if (typeof p === 'object')
    lines.push(`complete -c tokencli -n ${quote(using)} -f -a ${quote(p.choices.join(' '))}`);
  else if (p === 'command-line')
    lines.push(`complete -c tokencli -n ${quote(using)} -x -a ${quote('(__tokencli_command_line)')}`);
  // Commands without operands: nothing to offer but flags.
  else lines.push(`complete -c tokencli -n ${quote(using)} -f`);
  return lines;
}

export function fishScript({ globals, commands }: CompletionModel): string {
  const names = commands.map((c) => c.name);
  const valueFlags = [...globals, ...commands.flatMap((c) => c.flags)]
    .filter((f) => f.value.kind !== 'none')
    .map((f) => f.long);
  const uniqueValueFlags = [...new Set(valueFlags)];
  return `# tokencli fish completion. Load it with:  tokencli completion fish | source
# or install it:  tokencli completion fish > ~/.config/fish/completions/tokencli.fish

# The command word: the first word that is neither a flag nor the value of a flag taking one.
function __tokencli_command
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
                return 0
        end
    end
    return 1
end

function __tokencli_needs_command
    not __tokencli_command >/dev/null
end

function __tokencli_using
    set -l command (__tokencli_command); or return 1
    test "$command" = $argv[1]
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

${globals.map((flag) => flagLine(flag, undefined)).join('\n')}
${commands.flatMap((c) => commandLines(c, names)).join('\n')}
`;
}
