/**
 * Renders the command model and the exit codes as Markdown: the tables the README and the
 * contract embed, the full reference (docs/reference.md) and the man page's Markdown source.
 * Pure functions of what cli-facts.mjs gives; scripts/reference.mjs writes or checks the files.
 */
import {
  exitCodes,
  GRANTS,
  HELP_COMMAND,
  isClientGlobal,
  PROGRAM,
  REPOSITORY_URL,
  SETTING_VARIABLES,
  VERSION,
} from './cli-facts.mjs';

const code = (text) => `\`${text}\``;
const escapeCell = (text) => text.replaceAll('|', '\\|');
/** Help's notes are wrapped for a terminal; Markdown gets them as one paragraph. */
const paragraph = (text) => text.replace(/\s*\n\s*/g, ' ');

const capital = (text) => text.replace(/^./, (c) => c.toUpperCase());
const visible = (flags) => flags.filter((flag) => !flag.hidden);
const commands = () => [...PROGRAM.commands, HELP_COMMAND];

function argumentText(argument) {
  if (argument.choices) return argument.choices.join('|');
  if (argument.variadic) return `-- <${argument.name}>...`;
  return argument.required ? `<${argument.name}>` : `[${argument.name}]`;
}

/** `tokencli profile list|use|show|remove`, `tokencli exec -- <command>...`. */
function usage(command, parent = '') {
  const words = ['tokencli', parent, command.name].filter(Boolean);
  if (command.subcommands) words.push(command.subcommands.map((sub) => sub.name).join('|'));
  for (const argument of command.arguments ?? []) words.push(argumentText(argument));
  return words.join(' ');
}

const flagText = (flag) =>
  [flag.short ? `${flag.short}, ${flag.long}` : flag.long, flag.value].filter(Boolean).join(' ');

function flagDefault(flag) {
  const value = flag.defaultShown ?? flag.default;
  return value === undefined || typeof value === 'boolean' ? '' : String(value);
}

/** Every flag a command (and its subcommands) takes, each named once. */
function flagNames(command) {
  const flags = [...command.flags, ...(command.subcommands ?? []).flatMap((sub) => sub.flags)];
  return [...new Set(visible(flags).map((flag) => flag.long))];
}

/** A Markdown table, its columns padded to their widths when `padded`. */
function table(header, rows, padded) {
  const cells = [header, ...rows].map((row) => row.map(escapeCell));
  if (!padded) {
    const line = (row) => `| ${row.join(' | ')} |`;
    return [line(cells[0]), `|${header.map(() => '---').join('|')}|`, ...cells.slice(1).map(line)].join('\n');
  }
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(cells[0]),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

export function exitCodeTable({ padded }) {
  return table(
    ['exit', 'meaning'],
    exitCodes().map(({ code: exit, meaning }) => [String(exit), meaning]),
    padded,
  );
}

/** The global options a command that reads no client setting still takes. */
const ownGlobals = () =>
  visible(PROGRAM.globals)
    .filter((flag) => !isClientGlobal(flag))
    .map((flag) => code(flag.long))
    .join(' and ');

/** `serve, completion and version take only --version and --verbose of them.` */
function ownGlobalsSentence() {
  const own = PROGRAM.commands.filter((command) => command.clientGlobals === false).map((c) => code(c.name));
  return `${own.length > 1 ? `${own.slice(0, -1).join(', ')} and ${own.at(-1)}` : own[0]} take only ${ownGlobals()} of them.`;
}

function globalsLine() {
  const all = visible(PROGRAM.globals).map((flag) => code(flagText(flag)));
  return `Global options, accepted before or after the command: ${all.join(', ')}, \`--help\`. ${ownGlobalsSentence()}`;
}

export function readmeCommands() {
  const rows = commands().map((command) => [
    code(usage(command)),
    command.description,
    flagNames(command).map(code).join(' '),
  ]);
  return `${table(['command', 'what it does', 'its options'], rows, false)}\n\n${globalsLine()}`;
}

export function contractCommands() {
  const rows = PROGRAM.commands.map((command) => [
    code(usage(command)),
    GRANTS[command.name],
    command.description,
    flagNames(command).map(code).join(' '),
  ]);
  const missing = PROGRAM.commands.filter((command) => !(command.name in GRANTS));
  if (missing.length) throw new Error(`no grant named for ${missing.map((c) => c.name)}`);
  return `${globalsLine()}\n\n${table(['command', 'grant / endpoint', 'what it does', 'its options'], rows, false)}`;
}

function flagRows(flags) {
  return visible(flags).map((flag) => [
    code(flagText(flag)),
    flagDefault(flag) && code(flagDefault(flag)),
    (flag.choices ?? []).map(code).join(' '),
    flag.description ?? '',
  ]);
}

function flagTable(flags) {
  return table(['option', 'default', 'choices', 'what it does'], flagRows(flags), false);
}

function referenceSection(command, parent = '', depth = 3) {
  const hashes = '#'.repeat(depth);
  const out = [`${hashes} ${usage({ ...command, subcommands: undefined, arguments: [] }, parent)}`, ''];
  const options = command.flags.length ? ' [options]' : '';
  out.push(`${capital(command.description)}.`, '', `Usage: ${code(`${usage(command, parent)}${options}`)}`);
  if (command.arguments?.length) {
    out.push('', 'Arguments:', '');
    for (const argument of command.arguments)
      out.push(
        `- ${code(argumentText(argument))}: ${argument.description}${argument.required ? '' : ' (optional)'}`,
      );
  }
  if (visible(command.flags).length) out.push('', flagTable(command.flags));
  if (command.notes) out.push('', paragraph(command.notes));
  if (command.examples?.length) out.push('', 'Examples:', '', '```sh', ...command.examples, '```');
  if (command.clientGlobals === false) out.push('', `Of the global options, takes only ${ownGlobals()}.`);
  for (const sub of command.subcommands ?? [])
    out.push('', referenceSection(sub, `${parent ? `${parent} ` : ''}${command.name}`, depth + 1));
  return out.join('\n');
}

export function reference() {
  return [
    '# Command reference',
    '',
    '<!-- generated by scripts/reference.mjs from the command model: edit the commands, then `npm run docs` -->',
    '',
    `${PROGRAM.description}. Every command also answers \`--help\` (or \`tokencli help COMMAND\`);`,
    'why each behaves as it does is in [the contract](contract.md).',
    '',
    '## Global options',
    '',
    'Accepted before or after the command.',
    '',
    flagTable(PROGRAM.globals),
    '',
    '## Examples',
    '',
    '```sh',
    ...PROGRAM.examples,
    '```',
    '',
    '## Commands',
    '',
    ...commands()
      .map((command) => referenceSection(command))
      .flatMap((section) => [section, '']),
    '## Exit codes',
    '',
    exitCodeTable({ padded: false }),
    '',
  ].join('\n');
}

/** Variables each setting is read from, and the others tokencli reads. */
const SETTING_MEANINGS = {
  profile: 'the profile to use',
  baseUrl: "the token service's base URL",
  clientId: 'the client id',
  store: 'the credential store: keychain, file or none',
  timeoutSeconds: 'the HTTP timeout in seconds',
  email: 'the user email for the client-credentials grant',
  redirectUri: 'the loopback redirect URI of `login`',
  clientSecret: 'the client secret (never stored from here)',
  password: 'the user password (never stored)',
};
const OTHER_VARIABLES = [
  [
    'TOKENCLI_CONFIG_DIR',
    'the config directory (default `$XDG_CONFIG_HOME/tokencli` or `~/.config/tokencli`; macOS: `~/Library/Application Support/tokencli`; Windows: `%APPDATA%\\tokencli`)',
  ],
  [
    'BROWSER',
    'the one program `login` opens the authorize URL with (a path or a name on PATH, no arguments), instead of the system browser',
  ],
  ['TOKENCLI_CONTROL_TOKEN', "the token of `serve`'s control API"],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxies, honoured for every request'],
  ['NODE_EXTRA_CA_CERTS', 'extra CA certificates (PEM), as `--ca-file`'],
  ['NO_COLOR, FORCE_COLOR', 'colour off, or on off a terminal'],
];

function manItem(term, text) {
  return `* ${term}:\n  ${text}\n`;
}

/** A flag's man item: its description, then its choices and default. */
function manFlag(flag) {
  const def = flagDefault(flag);
  const extra = [flag.choices && `one of ${flag.choices.join(', ')}`, def && `default: ${def}`].filter(
    Boolean,
  );
  const description = capital(flag.description ?? '');
  if (!extra.length) return manItem(code(flagText(flag)), `${description}.`);
  // "Credential store (env TOKENCLI_STORE; one of …)", not two parentheses in a row.
  const text = description.endsWith(')')
    ? `${description.slice(0, -1)}; ${extra.join('; ')})`
    : `${description} (${extra.join('; ')})`;
  return manItem(code(flagText(flag)), `${text}.`);
}

function manCommand(command, parent = '') {
  const out = [`### ${usage(command, parent)}`, '', `${capital(command.description)}.`, ''];
  for (const flag of visible(command.flags)) out.push(manFlag(flag));
  if (command.notes) out.push(paragraph(command.notes), '');
  for (const sub of command.subcommands ?? []) out.push(manCommand(sub, command.name));
  return out.join('\n');
}

/** A command's examples, then its subcommands' (`profile list --json` under `profile`). */
function examplesOf(command) {
  return [...(command.examples ?? []), ...(command.subcommands ?? []).flatMap(examplesOf)];
}

export function manSource() {
  const missing = Object.keys(SETTING_VARIABLES).filter((key) => !(key in SETTING_MEANINGS));
  if (missing.length) throw new Error(`no meaning for the variables of ${missing}`);
  const examples = [...new Set([...PROGRAM.examples, ...PROGRAM.commands.flatMap(examplesOf)])];
  return [
    `# tokencli(1) -- ${PROGRAM.description.replace(/^./, (c) => c.toLowerCase())}`,
    '',
    '## SYNOPSIS',
    '',
    '`tokencli` [_global options_] _command_ [_options_] [_arguments_]',
    '',
    ...commands().flatMap((command) => [`\`${usage(command)}\``, '']),
    '',
    '## DESCRIPTION',
    '',
    [
      'tokencli obtains OAuth 2.0 access tokens from the token service and prints, stores and inspects',
      'them; `tokencli serve` runs a faithful local token service for tests. The cached token is printed',
      'when it is fresh; otherwise the stored refresh token, then the client credentials, get a new one.',
      'Each setting resolves as option, then environment variable, then the profile in the config file,',
      'then its default. stdout carries only results; progress, warnings, hints and errors go to stderr.',
    ].join(' '),
    '',
    '## COMMANDS',
    '',
    ...commands().map((command) => manCommand(command)),
    '## GLOBAL OPTIONS',
    '',
    `Accepted before or after the command. ${ownGlobalsSentence()}`,
    '',
    ...visible(PROGRAM.globals).map((flag) => manFlag(flag)),
    manItem(code('-h, --help'), 'Show the help of the program, or of the command it follows.'),
    '## EXIT STATUS',
    '',
    ...exitCodes().map(({ code: exit, meaning }) => manItem(code(exit), `${capital(meaning)}.`)),
    "`exec` exits with its command's status once the command has started.",
    '',
    '## ENVIRONMENT',
    '',
    ...Object.entries(SETTING_VARIABLES).map(([key, name]) =>
      manItem(code(name), `${capital(SETTING_MEANINGS[key])}.`),
    ),
    ...OTHER_VARIABLES.map(([name, meaning]) => manItem(code(name), `${capital(meaning)}.`)),
    '## FILES',
    '',
    manItem('_config dir_`/config.json`', 'profiles and settings; never secrets.'),
    manItem('_config dir_`/credentials.json`', 'tokens and client secrets of the `file` store (mode 0600).'),
    manItem(
      '`$XDG_CACHE_HOME/tokencli/` or `~/.cache/tokencli/` (macOS: `~/Library/Caches/tokencli/`; Windows: `%LOCALAPPDATA%\\tokencli\\`)',
      'compiled code kept for a faster start; safe to delete.',
    ),
    '## EXAMPLES',
    '',
    '```sh',
    ...examples,
    '```',
    '',
    '## SEE ALSO',
    '',
    "The full reference, the contract and the local service are in the npm package's `docs/`: " +
      '`docs/reference.md`, `docs/contract.md`, `docs/serve.md`; and the README. ' +
      // The page also ships beside the single executable, which carries no documents.
      `The single executable carries none of them: this release's are at ${code(`${REPOSITORY_URL}/tree/v${VERSION}`)}.`,
    '',
  ]
    .join('\n')
    .replaceAll('…', '...');
}
