import { TokencliError } from '../errors.js';

/**
 * Why an SSO assertion was refused. The message is written for the integrator on the other side
 * (the service sends it back as the `invalid_grant` description, docs/contract.md §3): it names the rule
 * that failed and never echoes keys, digests or library internals.
 */
export class SamlVerificationError extends TokencliError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'service_refused', cause });
    this.name = 'SamlVerificationError';
  }
}
