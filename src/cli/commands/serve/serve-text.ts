/**
 * What `tokencli serve` says on stderr at start-up: where it listens when that is more than
 * loopback (which addresses other machines can use, and that the demo's public credentials are then
 * open to them), and the demo's credentials with lines to paste into another terminal.
 */
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { isLoopbackAddress } from '../../../server/http/host-check.js';
import { isWildcardAddress } from '../../../server/http/wildcard.js';
import { shellWord } from './invocation.js';

/** The machine's addresses a wildcard bind of this family answers on, loopback first. */
export function interfaceAddresses(
  host: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  // `::` is dual-stack on the platforms Node supports; `0.0.0.0` is IPv4 only.
  const families = host.includes(':') ? ['IPv4', 'IPv6'] : ['IPv4'];
  const addresses: string[] = [];
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      if (families.includes(info.family)) addresses.push(`${info.address} (${name})`);
    }
  }
  return addresses.sort(
    (a, b) =>
      Number(isLoopbackAddress(b.split(' ')[0] ?? '')) - Number(isLoopbackAddress(a.split(' ')[0] ?? '')),
  );
}

/** The note for a bind beyond loopback, or '' for a loopback one. */
export function listeningNote(host: string, baseUrl: string, demo: boolean): string {
  let note = '';
  if (isWildcardAddress(host)) {
    const port = new URL(baseUrl).port;
    note +=
      `listening on every interface (${host}): ${interfaceAddresses(host).join(', ')}\n` +
      `  on this machine use ${baseUrl}; from elsewhere http://ADDRESS:${port} with one of the addresses above\n`;
  } else if (isLoopbackAddress(host) || host === 'localhost') {
    return '';
  }
  if (demo) {
    note +=
      'warning: the demo credentials below are public, and anyone who can reach this address can now get tokens with them;\n' +
      '  pass --config FILE with your own, or bind 127.0.0.1\n';
  }
  return note;
}

/** What the demo configuration's try-it lines need to know. */
export interface DemoTryIt {
  /** How to run tokencli again, as the user did (invocation.ts). */
  cli: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  email: string;
  password: string;
}

/** Every try-it line works in the same profile, so the lines build on each other. */
const DEMO_PROFILE = '--profile demo';

/** The demo credentials and the configure + token + info sequence to paste into another terminal. */
export function demoCredentialsText(demo: DemoTryIt): string {
  const { cli } = demo;
  return (
    'demo configuration (public test credentials; pass --config FILE for your own):\n' +
    `  client_id=${demo.clientId} client_secret=${demo.clientSecret} redirect_uri=${demo.redirectUri}\n` +
    `  email=${demo.email} password=${demo.password}\n` +
    'try it (another terminal):\n' +
    `  printf %s ${shellWord(demo.clientSecret)} | ${cli} configure ${DEMO_PROFILE} --base-url ${shellWord(demo.baseUrl)} --client-id ${shellWord(demo.clientId)} --client-secret-stdin\n` +
    `  TOKENCLI_PASSWORD=${shellWord(demo.password)} ${cli} token ${DEMO_PROFILE} --email ${shellWord(demo.email)}\n` +
    `  ${cli} info ${DEMO_PROFILE}\n`
  );
}

/** The demo identity provider, once its key is written to a private file. */
export interface DemoSso {
  cli: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  email: string;
  issuer: string;
  keyPath: string;
}

/** The SSO line that continues the try-it list, in the same profile as the lines above it. */
export function demoSsoText(sso: DemoSso): string {
  return (
    `  SSO: TOKENCLI_CLIENT_SECRET=${shellWord(sso.clientSecret)} ${sso.cli} sso ${DEMO_PROFILE}` +
    ` --base-url ${shellWord(sso.baseUrl)} --client-id ${shellWord(sso.clientId)}` +
    ` --assertion-for ${shellWord(sso.email)} --issuer ${shellWord(sso.issuer)}` +
    ` --sign-key ${shellWord(sso.keyPath)}\n` +
    "       (the demo identity provider's signing key; removed when the service stops)\n"
  );
}
