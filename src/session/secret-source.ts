/**
 * Where a session's secrets come from, supplied by the caller: the CLI reads its `--…-stdin`
 * flags, environment variables and a hidden prompt (src/cli/secrets.ts); the library returns
 * its options' values. Secrets are asked for only when an exchange needs them, never copied into
 * an environment.
 */
export interface SecretSource {
  /** The client secret given for this run, if any (asked before the stored one is used). */
  clientSecret(): Promise<string | undefined>;
  /**
   * The client secret when none was given and none is stored: a person asked, where one can be.
   * One given this way is kept in the store once the service accepted it.
   */
  askClientSecret?(): Promise<string | undefined>;
  /** The password for `email`: given for this run, else asked where a person can be asked. */
  password(email: string): Promise<string | undefined>;
  /** Whether `password` yields one without asking (the client-credentials step is tried then). */
  passwordGiven(): boolean;
  /** Whether a person can be asked (then the stored token's email is offered a password prompt). */
  readonly canAsk: boolean;
}

/** A source of the secrets given up front (the library's options); nobody is ever asked. */
export function givenSecrets(given: {
  clientSecret?: string | undefined;
  password?: string | undefined;
}): SecretSource {
  return {
    clientSecret: async () => given.clientSecret,
    password: async () => given.password,
    passwordGiven: () => given.password !== undefined,
    canAsk: false,
  };
}
