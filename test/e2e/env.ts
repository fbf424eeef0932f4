/** Shared fixtures of the client end-to-end tests: the demo credentials against a running serve. */
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';

export const DEMO = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  email: 'demo@example.com',
  password: 'demo-password',
} as const;

/** Environment for the CI-style client-credentials use: everything from variables, file store. */
export function demoEnv(baseUrl: string, configDir = tempDir()): Record<string, string> {
  return {
    TOKENCLI_BASE_URL: baseUrl,
    TOKENCLI_CLIENT_ID: DEMO.clientId,
    TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
    TOKENCLI_EMAIL: DEMO.email,
    TOKENCLI_PASSWORD: DEMO.password,
    TOKENCLI_STORE: 'file',
    TOKENCLI_CONFIG_DIR: configDir,
  };
}

export function credentialsPath(configDir: string): string {
  return join(configDir, 'credentials.json');
}

/** How many create-token requests the service logged (its log never holds the parameters). */
export function tokenRequests(logs: string): number {
  return logs.split('\n').filter((line) => /POST \/v2\/oauth\/token\b/.test(line)).length;
}
