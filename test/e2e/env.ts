/** Shared fixtures of the client end-to-end tests: the demo credentials against a running serve. */
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { type AppClient, clientEnv } from '../helpers/client-env.js';

export const DEMO = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  email: 'demo@example.com',
  password: 'demo-password',
} as const;

export const DEMO_CLIENT: AppClient = { id: DEMO.clientId, secret: DEMO.clientSecret };

/** Environment for the CI-style client-credentials use: everything from variables, file store. */
export function demoEnv(baseUrl: string, configDir = tempDir()): Record<string, string> {
  return {
    ...clientEnv(baseUrl, DEMO_CLIENT, configDir),
    TOKENCLI_EMAIL: DEMO.email,
    TOKENCLI_PASSWORD: DEMO.password,
  };
}

export function credentialsPath(configDir: string): string {
  return join(configDir, 'credentials.json');
}

/** How many create-token requests the service logged (its log never holds the parameters). */
export function tokenRequests(logs: string): number {
  return logs.split('\n').filter((line) => /POST \/v2\/oauth\/token\b/.test(line)).length;
}
