/**
 * The CA list for TLS (docs/contract.md §2.4): Node's bundled roots plus `NODE_EXTRA_CA_CERTS` plus
 * `--ca-file`. Passing `ca` to a TLS connection replaces the defaults instead of adding to them,
 * so when any extra CA is configured the list is rebuilt here from `tls.rootCertificates`.
 * Certificates are always verified; there is no switch to turn verification off.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The extra CA certificates (`NODE_EXTRA_CA_CERTS`, then `--ca-file`), read and checked, or
 * undefined when there are none. A CA file that is missing, unreadable or holds no PEM certificate
 * is an InputError (exit 2, reason `ca_file_unreadable` or `ca_file_not_pem`) naming the file and
 * where it came from (`origin`: `ca_file` for the caller's file, or `NODE_EXTRA_CA_CERTS`), whatever
 * the URL: the files are checked for every call, plain HTTP too.
 */
export function loadExtraCertificates(
  caFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] | undefined {
  const extra: string[] = [];
  const fromEnv = env.NODE_EXTRA_CA_CERTS;
  if (fromEnv) extra.push(...readPemFile(fromEnv, 'NODE_EXTRA_CA_CERTS'));
  if (caFile !== undefined) extra.push(...readPemFile(caFile, 'ca_file'));
  return extra.length === 0 ? undefined : extra;
}

/**
 * The `ca` option of a TLS connection: node's bundled roots plus `extra`. Built only for a
 * connection that uses TLS: node:tls loads node:crypto and its root list costs milliseconds a
 * plain-HTTP call to a local service (`info`, benchmarked, docs/contract.md §4) has no use for.
 */
export function withRootCertificates(extra: readonly string[]): string[] {
  return [...process.getBuiltinModule('node:tls').rootCertificates, ...extra];
}

/** How a message names where the file came from; the CLI says `--ca-file` for `ca_file`. */
const ORIGIN_LABEL = { ca_file: 'caFile', NODE_EXTRA_CA_CERTS: 'NODE_EXTRA_CA_CERTS' } as const;

function readPemFile(file: string, origin: keyof typeof ORIGIN_LABEL): string[] {
  const label = ORIGIN_LABEL[origin];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    throw new InputError(
      `the CA certificate file ${file} (${label}) ${why}`,
      'ca_file_unreadable',
      { file, origin, why },
      error,
    );
  }
  const certificates = text.match(PEM_CERTIFICATE);
  if (!certificates) {
    throw new InputError(
      `the CA certificate file ${file} (${label}) holds no PEM certificate`,
      'ca_file_not_pem',
      {
        file,
        origin,
        why: 'holds no PEM certificate',
      },
    );
  }
  return certificates;
}
