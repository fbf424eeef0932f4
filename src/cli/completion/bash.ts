/**
 * The bash completion script, generated from the completion model. Global flags are completed
 * before and after the command; an option's value from its choices, as a file, or (for
 * `--profile`) from the profile names in the config file, read by bash itself without starting
 * node. Works without the bash-completion package; uses its `_command_offset` after
 * `exec --` where it is loaded.
 */
import type { CommandSpec, CompletionModel, FlagSpec } from './model.js';
import { commandPaths, PROFILE_NAME_PATTERN } from './model.js';

/** A word list for `compgen -W` inside double quotes: the model holds only flag-like words. */
const words = (list: string[]) => list.join(' ');

const flagWords = (flags: FlagSpec[]) => flags.flatMap((f) => (f.short ? [f.long, f.short] : [f.long]));

function valueCase(flags: FlagSpec[], prefix: string): string[] {
  const lines: string[] = [];
  for (const flag of flags) {
    const patterns = flagWords([flag])
      .map((w) => `${prefix}${w}`)
      .map((p) => `"${p}"`)
      .join('|');
    const { value } = flag;
    const action =
      value.kind === 'choices'
        ? `kind=choices; choices="${words(value.values)}"`
        : value.kind === 'none'
          ? undefined
          : `kind=${value.kind}`;
    if (action) lines.push(`    ${patterns}) ${action} ;;`);
  }
  return lines;
}

/** A case pattern for a command path: `profile use` quoted, as it holds a space. */
const pattern = (name: string) => (name.includes(' ') ? `"${name}"` : name);

function commandFlagsCase(commands: CommandSpec[]): string {
  return commandPaths(commands)
    .map((c) => `    ${pattern(c.name)}) flags="${words(flagWords(c.flags))}" ;;`)
    .join('\n');
}

function commandValueCases(commands: CommandSpec[]): string {
  return commandPaths(commands)
    .flatMap((c) => valueCase(c.flags, `${c.name} `))
    .join('\n');
}

/** The global flags offered after the command: the client-only ones not for serve and completion. */
function globalFlagsCase(globals: FlagSpec[], commands: CommandSpec[]): string {
  const others = commands.filter((c) => !c.clientGlobals).map((c) => c.name);
  const all = words(flagWords(globals));
  const lines = [`    *) globals="${all}" ;;`];
  if (others.length > 0)
    lines.unshift(
      `    ${others.join('|')}) globals="${words(flagWords(globals.filter((f) => !f.clientOnly)))}" ;;`,
    );
  return lines.join('\n');
}

/** `profile use` after `profile`: a subcommand word makes the command its path. */
function subcommandTest(commands: CommandSpec[]): string {
  const parents = commands.filter((c) => c.subcommands).map((c) => `$cmd == ${c.name}`);
  return parents.length > 0 ? `[[ ${parents.join(' || ')} ]]` : 'false';
}

function positionalCase(commands: CommandSpec[]): string {
  const names = words(commands.map((c) => c.name));
  return commandPaths(commands)
    .map((c) => {
      const p = c.positional;
      const name = pattern(c.name);
      if (p === 'commands') return `    ${name}) COMPREPLY=($(compgen -W "${names}" -- "$cur")) ;;`;
      if (p === 'command-line') return `    ${name}) COMPREPLY=($(compgen -c -- "$cur")) ;;`;
      if (p === 'profile')
        return `    ${name}) COMPREPLY=($(compgen -W "$(_tokencli_profiles)" -- "$cur")) ;;`;
      if (typeof p === 'object')
        return `    ${name}) COMPREPLY=($(compgen -W "${words(p.choices)}" -- "$cur")) ;;`;
      return undefined;
    })
    .filter((line) => line !== undefined)
    .join('\n');
}

export function bashScript({ globals, commands }: CompletionModel): string {
  const names = words(commands.map((c) => c.name));
  return `# tokencli bash completion. Load it with:  source <(tokencli completion bash)
# or install it:  tokencli completion bash > ~/.local/share/bash-completion/completions/tokencli

# Profile names from the config file (the same directory tokencli uses), read without node:
# every "name": { inside "profiles" is a profile (profiles hold only strings and numbers).
_tokencli_profiles() {
  local dir text re
  if [[ -n \${TOKENCLI_CONFIG_DIR-} ]]; then dir=$TOKENCLI_CONFIG_DIR
  elif [[ \${OSTYPE-} == darwin* ]]; then dir="$HOME/Library/Application Support/tokencli"
  else dir="\${XDG_CONFIG_HOME:-$HOME/.config}/tokencli"
  fi
  [[ -r $dir/config.json ]] || return 0
  text=$(<"$dir/config.json")
  re='"profiles"[[:space:]]*:[[:space:]]*[{]'
  [[ $text =~ $re ]] || return 0
  text=\${text#*"\${BASH_REMATCH[0]}"}
  re='"(${PROFILE_NAME_PATTERN})"[[:space:]]*:[[:space:]]*[{]'
  while [[ $text =~ $re ]]; do
    printf '%s\\n' "\${BASH_REMATCH[1]}"
    text=\${text#*"\${BASH_REMATCH[0]}"}
  done
}

# Sets kind (and choices) for the value of flag $2 of command $1: choices, file, profile, free.
_tokencli_value_kind() {
  kind="" choices=""
  case "$2" in
${valueCase(globals, '').join('\n')}
  esac
  [[ -n $kind ]] && return 0
  case "$1 $2" in
${commandValueCases(commands)}
  esac
  [[ -n $kind ]]
}

_tokencli_complete_value() {
  case $kind in
    choices) COMPREPLY=($(compgen -W "$choices" -- "$cur")) ;;
    profile) COMPREPLY=($(compgen -W "$(_tokencli_profiles)" -- "$cur")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}

_tokencli() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd="" word i kind choices flags="" globals="" dashdash=0
  COMPREPLY=()
  # Find the command: the first word that is neither a flag nor a flag's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $cmd == exec && $word == -- ]]; then dashdash=$i; break; fi
    case $word in
      =) ((i++)) ;;
      -*) if [[ \${COMP_WORDS[i+1]-} != = ]] && _tokencli_value_kind "$cmd" "$word"; then ((i++)); fi ;;
      *) if [[ -z $cmd ]]; then cmd=$word; elif [[ $cmd == exec ]]; then dashdash=$((i - 1)); break
         elif ${subcommandTest(commands)}; then cmd="$cmd $word"; fi ;;
    esac
  done
  if ((dashdash > 0)); then
    # exec -- CMD ARGS…: complete CMD's own command line.
    if declare -F _command_offset >/dev/null; then _command_offset $((dashdash + 1)); return; fi
    if ((COMP_CWORD == dashdash + 1)); then COMPREPLY=($(compgen -c -- "$cur"))
    else compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return
  fi
  # A flag's value: "--store <TAB>", "--store=<TAB>" (bash splits at =), "--store=fi<TAB>".
  local prev=\${COMP_WORDS[COMP_CWORD-1]-}
  if [[ $cur == = ]]; then
    cur=""
    _tokencli_value_kind "$cmd" "$prev" && _tokencli_complete_value
    return
  fi
  if [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
    _tokencli_value_kind "$cmd" "\${COMP_WORDS[COMP_CWORD-2]}" && _tokencli_complete_value
    return
  fi
  if [[ $prev == -* ]] && _tokencli_value_kind "$cmd" "$prev"; then
    _tokencli_complete_value
    return
  fi
  case $cmd in
${commandFlagsCase(commands)}
  esac
  case $cmd in
${globalFlagsCase(globals, commands)}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags $globals" -- "$cur"))
  elif [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "${names}" -- "$cur"))
  else
    case $cmd in
${positionalCase(commands)}
    esac
  fi
}
complete -F _tokencli tokencli
`;
}
