/**
 * Declares every command, its flags and its help examples. Command modules are imported only
 * when their command runs, so `tokencli token` does not pay for the server, SAML or the browser.
 */
import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
// `token` runs before every API call in scripts, so its (light) module graph is loaded up front
// and bundled into the entry chunk; every other command is imported only when it runs.
import * as tokenCommand from './commands/token.js';
import type { Deps } from './deps.js';

/** Builds the dependencies object a command runs with (see deps.ts). */
export type DepsFactory = (command: Command) => Deps;

const examples = (lines: string[]): string => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;

export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

export function buildProgram(makeDeps: DepsFactory, output: ProgramOutput): Command {
  // exitOverride and output must be set before subcommands are added: commander copies them then.
  const program = new Command('tokencli')
    .exitOverride()
    .configureOutput(output)
    .description('Obtain and inspect OAuth 2.0 access tokens from the token service')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option(
      '--profile <name>',
      'profile to use (env TOKENCLI_PROFILE, then the active profile, then "default")',
    )
    .option('--base-url <url>', 'token service base URL (env TOKENCLI_BASE_URL)')
    .option('--client-id <id>', 'client id (env TOKENCLI_CLIENT_ID)')
    .addOption(
      new Option('--store <kind>', 'credential store (env TOKENCLI_STORE)').choices([
        'keychain',
        'file',
        'none',
      ]),
    )
    .option('--timeout <seconds>', 'HTTP timeout in seconds (env TOKENCLI_TIMEOUT, default 30)')
    .option('--ca-file <file>', 'extra CA certificates (PEM) to trust besides the system ones')
    .option('--verbose', 'HTTP trace on stderr, secrets redacted; stack traces on errors', false)
    .option('--quiet', 'print only results and errors', false)
    .option('--no-color', 'no colours (also NO_COLOR)')
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      examples([
        'tokencli configure --base-url https://api.example.com --client-id my-app',
        'tokencli login',
        'curl -H "Authorization: Bearer $(tokencli token)" https://api.example.com/v2/…',
        'tokencli info --json | jq .expires_in',
        'tokencli serve --port 0',
      ]),
    );

  const action =
    (load: () => Promise<{ run: (opts: never, deps: Deps, ...args: never[]) => Promise<void> }>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const opts = command.opts();
      const positional = args.slice(0, -2);
      const { run } = await load();
      await (run as (o: unknown, d: Deps, ...a: unknown[]) => Promise<void>)(
        opts,
        makeDeps(command),
        ...positional,
      );
    };

  program
    .command('configure')
    .description("save a profile's base URL, client id and redirect URI, and its client secret")
    .option('--redirect-uri <uri>', 'redirect URI registered for the application')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--no-secret', 'do not ask for a client secret')
    .addHelpText(
      'after',
      examples([
        'tokencli configure --base-url https://api.example.com --client-id my-app',
        'printf %s "$SECRET" | tokencli configure --profile ci --client-id my-app --client-secret-stdin',
      ]),
    )
    .action(action(() => import('./commands/configure.js')));

  program
    .command('login')
    .description('log in through the browser (authorization code + PKCE) and store the tokens')
    .option(
      '--redirect-uri <uri>',
      'loopback redirect URI (default http://127.0.0.1:8765/callback; port 0 = any)',
    )
    .option('--no-browser', 'print the URL instead of opening a browser')
    .option('--scope <scope>', 'scope to ask for')
    .option('--end-other-sessions', "end the user's other sessions (endOtherSessions=True)")
    .option('--timeout-login <seconds>', 'how long to wait for the browser', '300')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--json', 'print the stored record as JSON')
    .option('--show-tokens', 'show the refresh token unmasked in the JSON')
    .addHelpText(
      'after',
      examples(['tokencli login', 'tokencli login --no-browser   # over SSH: open the URL elsewhere']),
    )
    .action(action(() => import('./commands/login.js')));

  program
    .command('token')
    .description('print a valid access token (cache, then refresh, then client credentials)')
    .option('--email <email>', 'user email for the client-credentials grant (env TOKENCLI_EMAIL)')
    .option('--password-stdin', 'read the password from stdin (or env TOKENCLI_PASSWORD)')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--force', 'ignore the cached token')
    .option('--min-ttl <seconds>', 'minimum remaining lifetime of a cached token', '60')
    .option('--end-other-sessions', "end the user's other sessions (endOtherSessions=True)")
    .option('--no-store', 'do not store the new token')
    .option('--json', 'print the token and its details as JSON')
    .option('--show-tokens', 'show the refresh token unmasked in the JSON')
    .addHelpText(
      'after',
      examples([
        'curl -H "Authorization: Bearer $(tokencli token)" https://api.example.com/v2/…',
        'TOKENCLI_PASSWORD=… tokencli token --email ci@example.com --store none',
        'tokencli token --json | jq -r .expires_at',
      ]),
    )
    .action(action(async () => tokenCommand));

  program
    .command('refresh')
    .description('exchange the stored refresh token now')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--end-other-sessions', "end the user's other sessions (endOtherSessions=True)")
    .option('--json', 'print the new token and its details as JSON')
    .option('--show-tokens', 'show the refresh token unmasked in the JSON')
    .addHelpText('after', examples(['tokencli refresh', 'tokencli refresh --json --profile work']))
    .action(action(() => import('./commands/refresh.js')));

  program
    .command('sso')
    .description('get a token with a signed SAML response or assertion (saml2-bearer grant)')
    .option('--saml-response <file>', 'SAMLResponse XML or base64 ("-" = stdin)')
    .option('--saml-assertion <file>', 'SAML assertion XML or base64 ("-" = stdin)')
    .option('--sign-key <file>', 'PEM private key to sign the assertion with')
    .option('--sign-cert <file>', 'PEM certificate to name in the signature')
    .option('--assertion-for <email>', 'build a fresh assertion for this user (needs --sign-key)')
    .option('--issuer <uri>', 'issuer of a built assertion')
    .option('--audience <uri>', 'audience of a built assertion')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--end-other-sessions', "end the user's other sessions (endOtherSessions=True)")
    .option('--no-store', 'do not store the new token')
    .option('--json', 'print the token and its details as JSON')
    .option('--show-tokens', 'show the refresh token unmasked in the JSON')
    .addHelpText(
      'after',
      examples([
        'tokencli sso --saml-response response.xml',
        'tokencli sso --assertion-for demo@example.com --issuer https://idp.example --sign-key idp-key.pem',
      ]),
    )
    .action(action(() => import('./commands/sso.js')));

  program
    .command('info')
    .description('show the information of the stored (or given) access token')
    .option('--token-stdin', 'read the access token from stdin')
    .option('--show-tokens', 'show tokens unmasked')
    .option('--json', 'print every field as JSON')
    .addHelpText(
      'after',
      examples([
        'tokencli info',
        'tokencli info --json | jq -r .email',
        'tokencli token | tokencli info --token-stdin',
      ]),
    )
    .action(action(() => import('./commands/info.js')));

  program
    .command('status')
    .description('show each profile: base URL, email, token expiry, store; --check asks the service')
    .option('--check', "ask the service about each profile's token (exit 0 only if all are usable)")
    .option('--json', 'print as JSON')
    .addHelpText(
      'after',
      examples(['tokencli status', 'tokencli status --json', 'tokencli status --check --profile ci']),
    )
    .action(action(() => import('./commands/status.js')));

  program
    .command('logout')
    .description("remove the profile's stored tokens")
    .option('--purge', 'also remove the stored client secret')
    .addHelpText('after', examples(['tokencli logout', 'tokencli logout --profile ci --purge']))
    .action(action(() => import('./commands/logout.js')));

  const profile = program
    .command('profile')
    .description('list, switch, show and remove profiles')
    .addHelpText(
      'after',
      examples([
        'tokencli profile list',
        'tokencli profile use work',
        'tokencli profile show',
        'tokencli profile remove old --yes',
      ]),
    );
  const profileAction = (name: 'list' | 'use' | 'show' | 'remove') =>
    action(async () => ({ run: (await import('./commands/profile.js'))[name] }));
  profile
    .command('list')
    .description('every profile in the config file; * marks the active one')
    .option('--json', 'print as JSON')
    .action(profileAction('list'));
  profile
    .command('use')
    .description('make a profile the active one (saved in the config file)')
    .argument('<name>', 'profile name')
    .action(profileAction('use'));
  profile
    .command('show')
    .description("a profile's settings, store and token state (default: the current one)")
    .argument('[name]', 'profile name')
    .option('--json', 'print as JSON')
    .action(profileAction('show'));
  profile
    .command('remove')
    .description('remove a profile: its settings, tokens and client secret, from every store')
    .argument('<name>', 'profile name')
    .option('--yes', 'do not ask for confirmation')
    .action(profileAction('remove'));

  program
    .command('serve')
    .description('run the local token service (authorize, token, tokeninfo)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', '8080')
    .option('--config <file>', 'service configuration (JSON); without it an embedded demo configuration')
    .option('--allow-host <name...>', 'also accept requests with this Host header (repeatable)')
    .addHelpText(
      'after',
      examples([
        'tokencli serve --port 0',
        'tokencli serve --config service.json --host 0.0.0.0 --allow-host tokens',
      ]),
    )
    .action(action(() => import('./commands/serve.js')));

  program
    .command('completion')
    .description('print a shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples([
        'source <(tokencli completion bash)',
        'tokencli completion fish > ~/.config/fish/completions/tokencli.fish',
      ]),
    )
    .action(action(() => import('./commands/completion.js')));

  return program;
}
