/**
 * The local token service's own error for a configuration it cannot run with: an invalid
 * configuration file or an address that cannot be bound. Code `config` (exit 2, docs/contract.md §2.6, when
 * `tokencli serve` reports it); the CLI words the hint for reasons such as `listen_in_use`.
 */
import { type ErrorReason, TokencliError } from '../errors.js';

export class ServiceConfigError extends TokencliError {
  constructor(message: string, options: { reason?: ErrorReason; hint?: string; cause?: unknown } = {}) {
    super(message, { code: 'config', ...options });
    this.name = 'ServiceConfigError';
  }
}
