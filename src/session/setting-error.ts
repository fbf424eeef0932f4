/**
 * A setting that cannot be used, with where it came from, so each face words it in its own terms:
 * the library names the option (`baseUrl: …`), the CLI the flag or variable (`--base-url: …`,
 * src/cli/output/error-hints.ts). The message here names options only.
 */
import { TokencliError } from '../errors.js';

/** The settings of docs/contract.md §2.1, by their option names. */
export type SettingName =
  | 'profile'
  | 'baseUrl'
  | 'clientId'
  | 'store'
  | 'timeoutSeconds'
  | 'caFile'
  | 'email'
  | 'redirectUri';

/** Where a setting's value came from. */
export type SettingOrigin =
  | { kind: 'option' }
  | { kind: 'environment'; variable: string }
  | { kind: 'profile'; profile: string; key: string }
  /** Typed at a prompt or otherwise named by the caller: the label is used as it is. */
  | { kind: 'named'; label: string };

/** How a setting's origin reads in a library message. */
export function originLabel(setting: SettingName, origin: SettingOrigin): string {
  switch (origin.kind) {
    case 'option':
      return setting;
    case 'environment':
      return `${setting} (from the environment)`;
    case 'profile':
      return `profile "${origin.profile}" ${origin.key}`;
    case 'named':
      return origin.label;
  }
}

/** `reason` `setting_invalid`; `details` say which setting, from where, and what is wrong. */
export class SettingError extends TokencliError {
  readonly setting: SettingName;
  readonly origin: SettingOrigin;
  /** What is wrong with the value, without the setting's name ("unknown store \"x\""). */
  readonly problem: string;

  constructor(setting: SettingName, origin: SettingOrigin, problem: string, hint?: string) {
    super(`${originLabel(setting, origin)}: ${problem}`, {
      code: 'usage',
      reason: 'setting_invalid',
      hint,
      details: {
        setting,
        origin: origin.kind,
        variable: origin.kind === 'environment' ? origin.variable : undefined,
        profile: origin.kind === 'profile' ? origin.profile : undefined,
        key: origin.kind === 'profile' ? origin.key : undefined,
        label: origin.kind === 'named' ? origin.label : undefined,
        problem,
      },
    });
    this.name = 'SettingError';
    this.setting = setting;
    this.origin = origin;
    this.problem = problem;
  }
}
