/**
 * A command that ends with an exit code of its own choosing and nothing to report: `exec` passes
 * on the exit status of the command it ran. main.ts returns the code without printing.
 */
export class CommandExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'CommandExit';
  }
}
