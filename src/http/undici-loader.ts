/**
 * Loads the part of undici the client uses. `import('undici')` also loads fetch, WebSocket, the
 * cache, EventSource and more — about 45 ms on a small machine, most of the budget of
 * `tokencli info` (SPEC.md §4: ≤ 1.5 × a minimal node script). Only the proxy-aware agent and the
 * `request` API are needed, so those modules are loaded directly (about 20 ms), the API methods
 * put on `Dispatcher.prototype` exactly as undici's own index.js does (the proxy agent calls
 * `client.connect()`, which lives there).
 *
 * undici has no `exports` map, so these paths are reachable; if a future version moves them, the
 * loader falls back to the package entry and nothing but speed is lost.
 *
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 first compiles it with its baseline
 * compiler (Liftoff), then optimises it on background threads, and node waits for those threads
 * before it exits: ~50 ms added to every command that made a request, to speed up parsing a few
 * hundred bytes. `--liftoff-only` (set before undici compiles llhttp) drops that optimisation pass.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';

export interface UndiciParts {
  EnvHttpProxyAgent: typeof EnvHttpProxyAgent;
}

let loaded: Promise<UndiciParts> | undefined;

/** The undici classes the HTTP layer needs, loaded once. */
export function loadUndici(): Promise<UndiciParts> {
  if (!loaded) setFlagsFromString('--liftoff-only');
  loaded ??= loadDirect().catch(loadEntry);
  return loaded;
}

/** The package entry: always correct, slower to load. Exported for tests. */
export async function loadEntry(): Promise<UndiciParts> {
  const undici = await import('undici');
  return { EnvHttpProxyAgent: undici.EnvHttpProxyAgent };
}

/** The three modules the client needs. Exported for tests. */
export async function loadDirect(): Promise<UndiciParts> {
  // Specifiers in variables: these files have no type declarations, and the types come from 'undici'.
  const paths = ['dispatcher/env-http-proxy-agent.js', 'dispatcher/dispatcher.js', 'api/index.js'];
  const [agentModule, dispatcherModule, apiModule] = await Promise.all(
    paths.map((p) => import(`undici/lib/${p}`) as Promise<{ default: unknown }>),
  );
  const Agent = agentModule?.default as typeof EnvHttpProxyAgent | undefined;
  const DispatcherClass = dispatcherModule?.default as { prototype: Dispatcher } | undefined;
  const api = apiModule?.default as Record<string, unknown> | undefined;
  if (typeof Agent !== 'function' || !DispatcherClass?.prototype || typeof api?.request !== 'function') {
    throw new Error('undici internals moved');
  }
  // What undici's index.js does on load; harmless if it already ran (same functions).
  Object.assign(DispatcherClass.prototype, api);
  return { EnvHttpProxyAgent: Agent };
}
