/**
 * Whether a test can take the OS keychain away from the CLI it runs, so that the default store
 * falls back to the credentials file and a profile that records the keychain cannot reach it. On
 * Linux the keychain is the Secret Service on the D-Bus session bus: a run without
 * DBUS_SESSION_BUS_ADDRESS has none. On macOS and Windows it is the system's keychain, which no
 * variable takes away, and one for all of the user's processes: tests there would find it, and
 * share its entries with each other and with the runner. Those tests skip there, saying why.
 */
export const keychainCanBeAway = process.platform === 'linux';

/** Ends the name of a test that needs the keychain away: why it is skipped, where it is. */
export const skippedWithKeychain = keychainCanBeAway
  ? ''
  : ' (skipped off Linux: the OS keychain there cannot be taken away from a run)';

/**
 * The environment of a run that must keep off the OS keychain. On Linux: no D-Bus session bus,
 * so the default store falls back to the credentials file, as it does for a user without a
 * keychain, and the test sees that fallback. Elsewhere: the file store, chosen explicitly, for the
 * keychain there is the runner's own and nothing takes it away.
 */
export const keychainAwayEnv: Readonly<Record<string, string | undefined>> = keychainCanBeAway
  ? { DBUS_SESSION_BUS_ADDRESS: undefined }
  : { TOKENCLI_STORE: 'file' };
