/**
 * undici, loaded by its package entry and only when a proxy variable is set (dispatcher.ts):
 * without one, requests go over node's own HTTP client (node-transport.ts) and undici is never
 * loaded, so no command pays for its module graph unless it needs a proxy.
 *
 * `--liftoff-only` is a V8 flag, set before undici compiles its llhttp WebAssembly: V8 otherwise
 * optimises that module on background threads and node waits for them before it exits, about
 * 50 ms added to a command that made one small request. Baseline-compiled llhttp is plenty for
 * parsing a few hundred bytes, so the optimisation pass is skipped.
 */

let loaded: Promise<typeof import('undici')> | undefined;

/** The undici package, loaded once. */
export function loadUndici(): Promise<typeof import('undici')> {
  if (!loaded) {
    // node:v8 is taken only here, with undici: loading it costs every other run milliseconds.
    process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
    loaded = import('undici');
  }
  return loaded;
}
