/**
 * Self-signed certificates made by the openssl CLI (the TLS and SAML tests), in a temporary
 * directory that is removed after the test file. Tests needing one skip where openssl is absent,
 * except in CI, where it fails the run (the CVE-2024-32962 signature test must run there).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { requiredInCi } from './ci-required.js';
import { tempDir } from './temp-dirs.js';

/** Why certificate tests skip, or undefined when the openssl CLI works. */
export const opensslMissing: string | undefined = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return undefined;
  } catch {
    return 'the openssl command is not installed';
  }
})();
requiredInCi(opensslMissing, "install Debian's openssl");

export interface CertificateFiles {
  /** The temporary directory holding both files; the test may put more files in it. */
  dir: string;
  keyFile: string;
  certFile: string;
}

/** `openssl req -x509` for `subject` (e.g. `/CN=idp`), with any further `req` arguments. */
export function selfSignedCertificate(subject: string, moreArgs: string[] = []): CertificateFiles {
  const dir = tempDir('tokencli-cert-');
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', subject, ...moreArgs].concat([
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]),
    { stdio: 'pipe' },
  );
  return { dir, keyFile, certFile };
}
