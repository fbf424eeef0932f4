/**
 * What `tokencli serve` says about where it listens when that is more than loopback: which
 * addresses other machines can use, and that the demo's public credentials are then open to them.
 */
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { isLoopbackAddress } from '../../server/http/host-check.js';
import { isWildcardAddress } from '../../server/http/wildcard.js';

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
