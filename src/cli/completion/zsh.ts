/**
 * The zsh completion script, generated from the completion model: `_arguments` specs for the
 * global flags (accepted before and after the command) and each command's own, with values from
 * choices, `_files` for file options, and profile names read from the config file by zsh itself.
 */
import type { CommandSpec, CompletionModel, FlagSpec } from './model.js';
import { PROFILE_NAME_PATTERN } from './model.js';

/** One `_arguments` spec, single-quoted for the script. */
function quote(spec: string): string {
  return `'${spec.replace(/'/g, `'\\''`)}'`;
}

/** Text inside `[…]` or after `:` in a spec: brackets, colons and backslashes escaped. */
const escapeText = (text: string) => text.replace(/[\\[\]:]/g, (c) => `\\${c}`);
/** A description inside `[…]`: only brackets and backslashes need escaping there. */
const escapeDescription = (text: string) => text.replace(/[\\[\]]/g, (c) => `\\${c}`);

function action(flag: FlagSpec): string {
  const { value } = flag;
  switch (value.kind) {
    case 'none':
      return '';
    case 'choices':
      return `:${escapeText(flag.long.slice(2))}:(${value.values.join(' ')})`;
    case 'file':
      return ':file:_files';
    case 'profile':
      return ':profile:_tokencli_profiles';
    case 'free':
      return `:${escapeText(flag.long.slice(2))}: `;
  }
}

function specs(flags: FlagSpec[]): string[] {
  return flags.flatMap((flag) => {
    const description = `[${escapeDescription(flag.description)}]`;
    // `--store=`: the value may follow as the next word or after `=` in the same word.
    const equals = flag.value.kind === 'none' ? '' : '=';
    const names = flag.short ? [flag.long, flag.short] : [flag.long];
    return names.map((name) =>
      quote(`${name}${name.startsWith('--') ? equals : ''}${description}${action(flag)}`),
    );
  });
}

function positional(command: CommandSpec): string[] {
  const p = command.positional;
  if (p === 'commands') return [quote('1:command:_tokencli_commands')];
  if (command.subcommands) {
    const names = command.subcommands.map((sub) => sub.name);
    return [
      quote(`1:${escapeText(command.name)} command:(${names.join(' ')})`),
      quote('*::arguments:->subcommand'),
    ];
  }
  if (typeof p === 'object')
    return [quote(`1:${escapeText(command.name)} argument:(${p.choices.join(' ')})`)];
  if (p === 'command-line') return [quote('1:command:_command_names -e'), quote('*::arguments:_normal')];
  if (p === 'profile') return [quote('1:profile:_tokencli_profiles')];
  return [];
}

/** The global flags a command takes: the client-only ones not for serve and completion. */
const globalsOf = (command: CommandSpec) =>
  // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh array expansions, not a template
  command.clientGlobals ? '"${globals[@]}"' : '"${plain_globals[@]}"';

function commandCase(command: CommandSpec, indent = '    '): string {
  const args = [...specs(command.flags), ...positional(command)];
  const call = `_arguments ${command.subcommands ? '-C ' : ''}-S -s ${globalsOf(command)} \\\n${indent}    ${args.join(` \\\n${indent}    `)}`;
  if (!command.subcommands) return `${indent}${command.name})\n${indent}  ${call} ;;`;
  // `profile use <TAB>`: the subcommand's own arguments, a level down as for the command.
  return `${indent}${command.name})
${indent}  ${call} && ret=0
${indent}  if [[ $state == subcommand ]]; then
${indent}    curcontext=\${curcontext%:*:*}:tokencli-${command.name}-$words[1]:
${indent}    case $words[1] in
${command.subcommands.map((sub) => commandCase(sub, `${indent}    `)).join('\n')}
${indent}    esac
${indent}  fi ;;`;
}

export function zshScript({ globals, commands }: CompletionModel): string {
  const described = commands.map((c) => quote(`${c.name}:${escapeText(c.description)}`)).join('\n    ');
  return `#compdef tokencli
# tokencli zsh completion. Load it with:  source <(tokencli completion zsh)
# or install it:  tokencli completion zsh > "\${fpath[1]}/_tokencli"

# Profile names from the config file (the same directory tokencli uses), read without node:
# every "name": { inside "profiles" is a profile (profiles hold only strings and numbers).
_tokencli_profiles() {
  local dir text
  local -a names
  if [[ -n \${TOKENCLI_CONFIG_DIR-} ]]; then dir=$TOKENCLI_CONFIG_DIR
  elif [[ $OSTYPE == darwin* ]]; then dir="$HOME/Library/Application Support/tokencli"
  else dir="\${XDG_CONFIG_HOME:-$HOME/.config}/tokencli"
  fi
  [[ -r $dir/config.json ]] && text=$(<"$dir/config.json")
  if [[ $text =~ '"profiles"[[:space:]]*:[[:space:]]*[{]' ]]; then
    text=\${text[MEND+1,-1]}
    while [[ $text =~ '"(${PROFILE_NAME_PATTERN})"[[:space:]]*:[[:space:]]*[{]' ]]; do
      names+=("$match[1]")
      text=\${text[MEND+1,-1]}
    done
  fi
  _wanted profiles expl profile compadd -a names
}

_tokencli_commands() {
  local -a commands=(
    ${described}
  )
  _describe -t commands 'tokencli command' commands
}

_tokencli() {
  local curcontext=$curcontext state line ret=1
  local -a globals=(
    ${specs(globals).join('\n    ')}
  )
  local -a plain_globals=(
    ${specs(globals.filter((flag) => !flag.clientOnly)).join('\n    ')}
  )
  _arguments -C -s "\${globals[@]}" '1:command:_tokencli_commands' '*::arguments:->arguments' && ret=0
  if [[ $state == arguments ]]; then
    curcontext=\${curcontext%:*:*}:tokencli-$words[1]:
    case $words[1] in
${commands.map((command) => commandCase(command)).join('\n')}
    esac
  fi
  return ret
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _tokencli "$@"
else
  compdef _tokencli tokencli
fi
`;
}
