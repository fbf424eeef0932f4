/** The environment the CLI runs with as one app's client, keeping what it stores in a file. */
export interface AppClient {
  id: string;
  secret: string;
}

/** Base URL, client id and secret, and the file store in `configDir`. */
export function clientEnv(baseUrl: string, client: AppClient, configDir: string): Record<string, string> {
  return {
    TOKENCLI_BASE_URL: baseUrl,
    TOKENCLI_CLIENT_ID: client.id,
    TOKENCLI_CLIENT_SECRET: client.secret,
    TOKENCLI_STORE: 'file',
    TOKENCLI_CONFIG_DIR: configDir,
  };
}
