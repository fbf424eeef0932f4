/**
 * The environment variables a session reads its settings from (docs/contract.md §2.1): the one
 * place below src/cli that names them. An error records the variable a bad value came from, and
 * the CLI says it; the library's messages say "from the environment".
 */
export const SETTING_VARIABLES = {
  profile: 'TOKENCLI_PROFILE',
  baseUrl: 'TOKENCLI_BASE_URL',
  clientId: 'TOKENCLI_CLIENT_ID',
  store: 'TOKENCLI_STORE',
  timeoutSeconds: 'TOKENCLI_TIMEOUT',
  email: 'TOKENCLI_EMAIL',
  redirectUri: 'TOKENCLI_REDIRECT_URI',
  clientSecret: 'TOKENCLI_CLIENT_SECRET',
  password: 'TOKENCLI_PASSWORD',
} as const;
