/**
 * The keychain's client, a light bundle of its own (scripts/bundle.mjs): the light answers open
 * their store through src/store/open-store.ts, whose `import()`s of these modules the build points
 * here. A cached token from the credentials file, what CI jobs run, then never carries the
 * D-Bus client: V8 reads none of it from the code cache (0.6 M instructions of a cached `token` in
 * the executable, bench/README.md, Decisions), and a keychain run loads it when it opens the store.
 * The full CLI imports the same modules as chunks of its own.
 */
export * from '../../store/keychain-store.js';
export * from '../../store/native-keychain-entries.js';
export * from '../../store/secret-service-entries.js';
export * from '../../store/secret-service-probe.js';
