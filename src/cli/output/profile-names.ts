/**
 * Naming the profiles there are when a command is given one that is not: the list, and the
 * nearest name to what was typed (gh and git suggest the same way).
 */
import type { ConfigFile } from '../../session/config-file.js';
import type { CommandFor } from './paste-command.js';

/** Levenshtein distance; the names are at most 64 characters (settings.ts), so O(n·m) is fine. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The closest of `names` to `typed`, when it is close enough to be a likely typo. */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const score = distance(typed.toLowerCase(), name.toLowerCase());
    if (best === undefined || score < best.score) best = { name, score };
  }
  return best && best.score <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}

export function profileNames(config: ConfigFile): string[] {
  return Object.keys(config.profiles).sort();
}

/** "profiles here: ci, default; did you mean "ci"?" — or how to create one when there are none. */
export function profilesHint(typed: string, names: readonly string[], cmd: CommandFor): string {
  if (names.length === 0) {
    return `no profiles are configured yet; create one with ${cmd('configure', 'NAME')} or pass --base-url and --client-id`;
  }
  const nearest = nearestName(typed, names);
  const list = `profiles here: ${names.join(', ')}`;
  // Without the profile that does not exist: `profile list` would refuse it too.
  return nearest ? `did you mean "${nearest}"? (${list})` : `${list}; see ${cmd('profile list', '')}`;
}
