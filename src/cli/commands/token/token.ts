/**
 * `tokencli token`: prints a valid access token, the command scripts call before every API
 * request (docs/contract.md §2.3). The cached path touches only the config file and the store: no
 * network, no prompt, and none of the protocol layer's modules are loaded.
 */
import type { Deps } from '../../deps.js';
import { withPasswordTries } from '../../input/secrets.js';
import { chooseTokenFormat, renderToken } from '../../output/token-formats.js';
import { obtainWithFlags } from './obtain-token.js';
import type { TokenOptions } from './token-command.js';

export async function run(options: TokenOptions, deps: Deps): Promise<void> {
  // A contradiction in the flags is reported before any store or network is touched.
  const format = chooseTokenFormat(options);
  const { record, source, settings } = await withPasswordTries(deps, options, () =>
    obtainWithFlags(options, deps),
  );
  deps.io.stdout.write(
    renderToken(format, record, settings.profile, source, deps.now, options.showTokens === true),
  );
}
