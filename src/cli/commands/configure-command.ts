/** `tokencli configure`'s flags, help and examples (the run function is in configure.ts). */
import type { CommandDef } from '../command-model/types.js';

export const configureCommand: CommandDef = {
  name: 'configure',
  description: "save a profile's base URL, client id and redirect URI, and its client secret",
  flags: [
    { long: '--redirect-uri', value: '<uri>', description: 'redirect URI registered for the application' },
    { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
    { long: '--no-secret', description: 'do not ask for a client secret' },
  ],
  examples: [
    'tokencli configure --base-url https://api.example.com --client-id my-app',
    'printf %s "$SECRET" | tokencli configure --profile ci --client-id my-app --client-secret-stdin',
  ],
};
