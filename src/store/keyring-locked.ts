/**
 * Why the keychain cannot be used when the Secret Service's default keyring is locked: said by
 * the probe (secret-service-probe.ts) and recognised by the CLI, whose hint is then to unlock it.
 * A module of its own so that the CLI's hint table does not load the probe.
 */
export const KEYRING_LOCKED = 'the default keyring is locked';
