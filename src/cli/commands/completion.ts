/**
 * `tokencli completion bash|zsh|fish`: completion scripts generated from the same command
 * definitions the parser uses, so they never drift from the real flags.
 */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { createDeps } from '../deps.js';
import { buildProgram } from '../program.js';

interface CommandWords {
  name: string;
  description: string;
  flags: string[];
}

function describe(program: Command): { globals: string[]; commands: CommandWords[] } {
  const flagsOf = (command: Command) =>
    command.options.flatMap((option) => [option.long, option.short].filter((f): f is string => !!f));
  return {
    globals: [...flagsOf(program), '--help'],
    commands: program.commands.map((command) => ({
      name: command.name(),
      description: command.description(),
      flags: [...flagsOf(command), '--help'],
    })),
  };
}

function bash({ globals, commands }: ReturnType<typeof describe>): string {
  const cases = commands.map((c) => `    ${c.name}) flags="${c.flags.join(' ')}" ;;`).join('\n');
  return `# tokencli bash completion: source <(tokencli completion bash)
_tokencli() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="" i flags
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  case "$cmd" in
${cases}
    *) COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')} ${globals.join(' ')}" -- "$cur")); return ;;
  esac
  COMPREPLY=($(compgen -W "$flags ${globals.join(' ')}" -- "$cur"))
}
complete -F _tokencli tokencli
`;
}

function zsh({ globals, commands }: ReturnType<typeof describe>): string {
  const quote = (s: string) => s.replace(/'/g, "'\\''").replace(/:/g, '\\:');
  const list = commands.map((c) => `'${c.name}:${quote(c.description)}'`).join(' ');
  const cases = commands
    .map((c) => `    ${c.name}) _values 'flag' ${c.flags.map((f) => `'${f}'`).join(' ')} ;;`)
    .join('\n');
  return `#compdef tokencli
# tokencli zsh completion: tokencli completion zsh > "\${fpath[1]}/_tokencli"
_tokencli() {
  local -a commands=(${list})
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    _values 'flag' ${globals.map((f) => `'${f}'`).join(' ')}
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _tokencli tokencli
`;
}

function fish({ globals, commands }: ReturnType<typeof describe>): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = [
    '# tokencli fish completion: tokencli completion fish > ~/.config/fish/completions/tokencli.fish',
  ];
  lines.push('complete -c tokencli -f');
  for (const c of commands) {
    lines.push(`complete -c tokencli -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`);
    for (const flag of c.flags.filter((f) => f.startsWith('--'))) {
      lines.push(`complete -c tokencli -n '__fish_seen_subcommand_from ${c.name}' -l ${flag.slice(2)}`);
    }
  }
  for (const flag of globals.filter((f) => f.startsWith('--')))
    lines.push(`complete -c tokencli -l ${flag.slice(2)}`);
  return `${lines.join('\n')}\n`;
}

const generators = { bash, zsh, fish } as const;

export async function run(
  _options: Record<string, never>,
  ctx: CommandContext,
  shell: string,
): Promise<void> {
  const generate = generators[shell as keyof typeof generators];
  if (!Object.hasOwn(generators, shell) || !generate) {
    throw new UsageError(`unsupported shell "${shell}"`, 'use bash, zsh or fish');
  }
  const program = buildProgram(() => createDeps(ctx), { writeOut: () => {}, writeErr: () => {} });
  ctx.io.stdout.write(generate(describe(program)));
}
