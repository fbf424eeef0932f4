/** `tokencli configure`'s flags, help and examples (the run function is in configure.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const configureCommand: CommandDef = {
  name: 'configure',
  run: async () => (await import('./configure.js')).run,
  description:
    "save a profile's base URL, client id, redirect URI (and email, timeout, CA file), and its client secret",
  flags: [
    { long: '--redirect-uri', value: '<uri>', description: 'redirect URI registered for the application' },
    {
      long: '--email',
      value: '<email>',
      description: 'user email for the client-credentials grant (the password is never stored)',
    },
    { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
    { long: '--no-secret', description: 'do not ask for a client secret' },
  ],
  notes:
    'Saved in the profile: the base URL and client id (flags, variables, or asked on a terminal), and\nwhat the flags give: --redirect-uri, --email, --timeout and --ca-file (made absolute; it must\nhold a PEM certificate). The client secret goes to the credential store.',
  examples: [
    'tokencli configure --base-url https://api.example.com --client-id my-app',
    'tokencli configure --profile ci --email ci@example.com --timeout 10 --ca-file corp-ca.pem',
    'printf %s "$SECRET" | tokencli configure --profile ci --client-id my-app --client-secret-stdin',
  ],
};
