/**
 * A build step whose clean-up must run even when the build is interrupted. Without a listener, a
 * SIGINT (Ctrl-C), SIGTERM (a cancelled job) or SIGHUP (a closed terminal) ends node at once, and
 * no `finally` runs: the code-cache training left its directory, a few megabytes, in the system's
 * temporary directory.
 */
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `work(signal)` with those signals held: the first aborts `signal` (its reason is the
 * signal's name), which `work` heeds between its steps; once `work` has settled and its own
 * `finally` blocks have run, the process ends by that signal as it would have without the
 * listener, so that the builder's shell sees 128 + n. An error `work` threw because of the
 * interruption (a child killed by the same Ctrl-C) is not reported: the signal is what happened.
 */
export async function interruptible(work) {
  const controller = new AbortController();
  const onSignal = (name) => controller.abort(name);
  for (const name of SIGNALS) process.on(name, onSignal);
  try {
    return await work(controller.signal);
  } finally {
    // A Ctrl-C reaches the build's children too, and `work` may have failed of it (a synchronous
    // child killed by it) before node ran the listener: node hears a signal when its event loop
    // next polls, which the second of two immediates is run after, wherever this one began.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    for (const name of SIGNALS) process.off(name, onSignal);
    if (controller.signal.aborted) endBy(controller.signal.reason);
  }
}

/** Ends the process by `name`, the listener gone; where that signal does not end it, by 128 + n. */
function endBy(name) {
  process.kill(process.pid, name);
  process.exit(128 + constants.signals[name]);
}
