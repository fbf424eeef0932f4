/** The completion model is read from the command model: one source of truth. */
import { describe, expect, test } from 'vitest';
import { PROGRAM } from '../../../src/cli/command-model/program.js';
import { completionModel } from '../../../src/cli/completion/model.js';

describe('completion model', () => {
  test('value kinds come from the options themselves', () => {
    const model = completionModel(PROGRAM);
    const global = (long: string) => model.globals.find((f) => f.long === long)?.value;
    expect(global('--store')).toEqual({ kind: 'choices', values: ['keychain', 'file', 'none'] });
    expect(global('--profile')).toEqual({ kind: 'profile' });
    expect(global('--ca-file')).toEqual({ kind: 'file' });
    expect(global('--timeout')).toEqual({ kind: 'free' });
    expect(global('--verbose')).toEqual({ kind: 'none' });
    const sso = model.commands.find((c) => c.name === 'sso');
    for (const long of ['--saml-response', '--saml-assertion', '--sign-key', '--sign-cert'])
      expect(sso?.flags.find((f) => f.long === long)?.value).toEqual({ kind: 'file' });
    expect(model.commands.find((c) => c.name === 'completion')?.positional).toEqual({
      choices: ['bash', 'zsh', 'fish'],
    });
    expect(model.commands.find((c) => c.name === 'exec')?.positional).toBe('command-line');
    expect(model.commands.find((c) => c.name === 'help')?.positional).toBe('commands');
  });

  test('a flag added to a command is in the model without touching the scripts', () => {
    const commands = PROGRAM.commands.map((c) =>
      c.name === 'token'
        ? {
            ...c,
            flags: [...c.flags, { long: '--new-input', value: '<file>', description: 'a new file flag' }],
          }
        : c,
    );
    const token = completionModel({ ...PROGRAM, commands }).commands.find((c) => c.name === 'token');
    expect(token?.flags.find((f) => f.long === '--new-input')?.value).toEqual({ kind: 'file' });
  });
});
