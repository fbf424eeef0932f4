/**
 * `tokencli/server`: the local token service as a library (docs/contract.md §3), for tests of other
 * programs that talk to the platform's token service.
 *
 * ```js
 * import { startTokenService } from 'tokencli/server';
 * const service = await startTokenService();            // demo configuration, free port
 * // … point a client at service.baseUrl …
 * const { samlPrivateKeyPem } = await service.demoSso;  // the demo identity provider's key
 * await service.close();
 * ```
 */

export { GRANT_NAMES } from '../protocol/grants.js';
export type { AppConfig, GrantName, SamlConfig, ServiceConfig, UserConfig } from './config.js';
export { CONFIG_DEFAULTS } from './config.js';
export { loadServiceConfig } from './config-file.js';
export { validateServiceConfig } from './config-validation.js';
export type { ServiceClock } from './control/clock.js';
export type { FaultEndpoint, FaultSpec } from './control/faults.js';
export type { TokenAnswer, TokenRequest, TokenRequestHook } from './control/intercept.js';
export type { MaskedToken, RevokeRequest, RevokeResult, ServiceState } from './control/service-control.js';
export { DEMO_SAML_ISSUER, demoServiceConfig } from './demo-config.js';
export { type DemoKeyFile, type DemoSso, writeDemoSigningKey } from './demo-sso.js';
export { startTokenService, type TokenServiceHandle, type TokenServiceOptions } from './service.js';
