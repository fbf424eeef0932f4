/**
 * exec's check of the command line it is given to run, made by the full command (exec.ts), the
 * launcher's light answer (launcher/light-exec.ts) and commander's missing-argument message
 * (commander/tokencli-command.ts) alike.
 */
import { UsageError } from '../../../errors.js';

/** What is said when exec is given no command to run, whoever finds it (commander or commandToRun). */
export const NO_COMMAND = {
  message: 'no command to run',
  /** The example of the hint, after `tokencli` (and the run's flags, where the hint names them). */
  example: 'exec -- curl https://api.example.com/v2/…',
} as const;

/** The command to run and its arguments, or a usage error with `hint` when there is none (`exec -- ''`). */
export function commandToRun(
  argv: readonly string[],
  hint = `e.g. tokencli ${NO_COMMAND.example}`,
): [string, string[]] {
  const [command, ...args] = argv;
  if (command === undefined || command === '') throw new UsageError(NO_COMMAND.message, hint);
  return [command, args];
}
