/**
 * A build step whose clean-up must run even when the build is interrupted. Without a listener, a
 * SIGINT (Ctrl-C), SIGTERM (a cancelled job) or SIGHUP (a closed terminal) ends node at once, and
 * no `finally` runs: the code-cache training left its directory, a few megabytes, in the system's
 * temporary directory.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `work(signal)` with those signals held: the first aborts `signal` (its reason is the
 * signal's name), which `work` heeds (runChild below stops a child it runs); once `work` has
 * settled and its own `finally` blocks have run, the process ends by that signal as it would have
 * without the listener, so that the builder's shell sees 128 + n. An error `work` threw because of
 * the interruption (a child killed by the same Ctrl-C) is not reported: the signal is what
 * happened. A second signal ends the process at once, clean-up or not, as one would expect of a
 * second Ctrl-C.
 */
export async function interruptible(work) {
  const controller = new AbortController();
  const stopListening = () => {
    for (const name of SIGNALS) process.off(name, onSignal);
  };
  const onSignal = (name) => {
    if (controller.signal.aborted) {
      stopListening();
      endBy(name);
    } else controller.abort(name);
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  try {
    return await work(controller.signal);
  } finally {
    // A Ctrl-C reaches the build's children too, and `work` may have failed of it (a child killed
    // by it) before node ran the listener: node hears a signal when its event loop next polls,
    // which the second of two immediates is run after, wherever this one began.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    stopListening();
    if (controller.signal.aborted) endBy(controller.signal.reason);
  }
}

/**
 * Ends the process by `name`, the listener gone. Windows has no such end: node's kill of its own
 * process there exits with 1 (SIGINT, SIGTERM) or throws (SIGHUP), so it exits with 128 + n.
 */
function endBy(name) {
  if (process.platform !== 'win32') process.kill(process.pid, name);
  process.exit(128 + constants.signals[name]);
}

/**
 * The exit status a shell would give for a child that failed as `error` says (runChild's, or
 * execFileSync's): its own status, 128 + n for one a signal ended, else 1 (it did not start).
 */
export function exitStatus(error) {
  return error.status ?? (error.signal ? 128 + constants.signals[error.signal] : 1);
}

/**
 * Runs `file` to its end as execFileSync would, but leaving node's event loop free, so that an
 * interruption is heard while it runs: `signal` then stops it (SIGTERM) and, once it has exited,
 * this rejects with the signal's reason. Resolves with what it wrote on stdout and stderr where
 * those are piped (the default); a run that fails rejects with an Error that carries `status`,
 * `signal` and `stderr`, as execFileSync's does, and one that cannot start with spawn's error.
 */
export function runChild(file, args, { signal, ...options } = {}) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    const stop = () => child.kill();
    signal?.addEventListener('abort', stop, { once: true });
    const settle = (settleWith, value) => {
      signal?.removeEventListener('abort', stop);
      settleWith(value);
    };
    child.once('error', (error) => settle(reject, error));
    // 'close', not 'exit': the output is then read to the end.
    child.once('close', (status, killedBy) => {
      if (signal?.aborted) return settle(reject, signal.reason);
      if (status === 0) return settle(resolve, { stdout, stderr });
      const error = new Error(`${file} ${killedBy ? `was killed by ${killedBy}` : `exited with ${status}`}`);
      settle(reject, Object.assign(error, { status, signal: killedBy, stdout, stderr }));
    });
  });
}
