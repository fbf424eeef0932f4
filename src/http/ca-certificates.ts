/**
 * The CA list for TLS (SPEC.md §2.4): Node's bundled roots plus `NODE_EXTRA_CA_CERTS` plus
 * `--ca-file`. Passing `ca` to a TLS connection replaces the defaults instead of adding to them,
 * so when any extra CA is configured the list is rebuilt here from `tls.rootCertificates`.
 * Certificates are always verified; there is no switch to turn verification off.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { UsageError } from '../errors.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The `ca` option for undici's connector, or undefined when only the defaults apply.
 * A ca-file (or NODE_EXTRA_CA_CERTS file) that is missing, unreadable or holds no PEM certificate
 * is a usage error (exit 2) naming the file and where it came from.
 */
export function loadCaCertificates(
  caFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] | undefined {
  const extra: string[] = [];
  const fromEnv = env.NODE_EXTRA_CA_CERTS;
  if (fromEnv) extra.push(...readPemFile(fromEnv, 'NODE_EXTRA_CA_CERTS'));
  if (caFile !== undefined) extra.push(...readPemFile(caFile, '--ca-file'));
  if (extra.length === 0) return undefined;
  return [...rootCertificates, ...extra];
}

function readPemFile(file: string, origin: '--ca-file' | 'NODE_EXTRA_CA_CERTS'): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    throw new UsageError(
      `the CA certificate file ${file} (${origin}) ${why}`,
      `give ${origin} the path of a readable PEM file holding the CA certificate`,
      error,
    );
  }
  const certificates = text.match(PEM_CERTIFICATE);
  if (!certificates) {
    throw new UsageError(
      `the CA certificate file ${file} (${origin}) holds no PEM certificate`,
      `give ${origin} a PEM file with "-----BEGIN CERTIFICATE-----" blocks`,
    );
  }
  return certificates;
}
