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
