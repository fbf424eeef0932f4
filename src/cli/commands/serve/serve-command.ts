/** `tokencli serve`'s flags, help and examples (the run function is in serve.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const serveCommand: CommandDef = {
  name: 'serve',
  run: async () => (await import('./serve.js')).run,
  description: 'run the local token service (authorize, token, tokeninfo)',
  clientGlobals: false,
  flags: [
    { long: '--host', value: '<host>', description: 'address to bind', default: '127.0.0.1' },
    {
      long: '--port',
      value: '<port>',
      description: 'port to listen on (0 = any free port)',
      default: '8080',
    },
    {
      long: '--config',
      value: '<file>',
      description: 'service configuration (JSON); without it an embedded demo configuration',
    },
    {
      long: '--allow-host',
      value: '<name...>',
      description: 'also accept requests with this Host header (repeatable)',
    },
    {
      long: '--control',
      description: 'serve the control API under /_control/ (time travel, revocation, faults)',
    },
    // Declared to be refused with the way to do it: a secret as a flag value shows in `ps`.
    { long: '--control-token', value: '<token>', hidden: true },
    {
      long: '--control-token-stdin',
      description:
        'read the control API token from stdin (or env TOKENCLI_CONTROL_TOKEN); required off loopback',
    },
  ],
  examples: [
    'tokencli serve --port 0',
    'tokencli serve --port 0 --control   # then: curl --json \'{"advance_seconds":3600}\' …/_control/clock',
    'tokencli serve --config service.json --host 0.0.0.0 --allow-host tokens',
  ],
};
