/**
 * How the release scripts end on a failure the builder can act on (no Node 26 to be had, no
 * `strip`): one line naming the script, exit 1. Anything else is a bug of the scripts and keeps
 * its stack trace.
 */

/** A failure said in one line: its message, with what to do about it. */
export class BuildFailure extends Error {}

/** Ends the process on an uncaught BuildFailure with `NAME: message`, exit 1. */
export function reportFailures(name) {
  process.on('uncaughtException', (error) => {
    if (error instanceof BuildFailure) console.error(`${name}: ${error.message}`);
    else console.error(error);
    process.exit(1);
  });
}
