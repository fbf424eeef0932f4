/** What every HTTP request of a client shares: its timeout, CA file, trace and transport. */
import type { Transport } from './node-transport.js';

/** HTTP settings every request of the client shares. */
export interface HttpSettings {
  /** Covers connect, headers and body of one attempt. */
  timeoutMs: number;
  /** Extra CA certificates file, added to the defaults and NODE_EXTRA_CA_CERTS. */
  caFile?: string | undefined;
  /** Receives one redacted trace line at a time (the CLI's `--verbose` writes them to stderr). */
  trace?: ((line: string) => void) | undefined;
  /**
   * Carries the requests instead of the default (node's client, or undici's proxy agent when a
   * proxy variable is set); used as given and never closed here. Tests pass an undici MockAgent
   * through `undiciTransport` for faults a real server cannot produce.
   */
  transport?: Transport | undefined;
  /** Retry back-off is injectable so tests need not wait. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}
