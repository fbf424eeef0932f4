/**
 * The local token service's own error for a configuration it cannot run with: an invalid
 * configuration file or an address that cannot be bound. Code `config` (exit 2, docs/contract.md §2.6, when
 * `tokencli serve` reports it); the CLI words the hint for reasons such as `listen_in_use`.
 */
import { type ErrorDetails, type ErrorReason, TokencliError } from '../errors.js';

/**
 * Where the configuration's format is written, for `service_config_invalid`: the document (a file
 * of the package's `docs/`) and its section. Named, not located: only the caller knows where this
 * installation keeps its documents (the CLI's single executable has none on disk).
 */
export const CONFIG_FORMAT_DOC = Object.freeze({ doc: 'serve.md', section: 'Configuration' } as const);

/** The hint of `service_config_invalid` for a program using the library, whose package holds the document. */
export const CONFIG_FORMAT_HINT = `fix the configuration file; its format is described in the package's docs/${CONFIG_FORMAT_DOC.doc} (${CONFIG_FORMAT_DOC.section})`;

export class ServiceConfigError extends TokencliError {
  constructor(
    message: string,
    options: { reason?: ErrorReason; details?: ErrorDetails; hint?: string; cause?: unknown } = {},
  ) {
    super(message, { code: 'config', ...options });
    this.name = 'ServiceConfigError';
  }
}
