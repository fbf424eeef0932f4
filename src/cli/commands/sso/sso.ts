/**
 * `tokencli sso`: the saml2-bearer grant (docs/contract.md §1, §2.2; RFC 7522). Sends a SAML response or
 * assertion from a file or stdin — raw XML is base64-encoded here, base64 is checked to decode to
 * XML — optionally signing it first with a key from a file, or builds and signs a fresh assertion
 * (`--assertion-for`). Every input problem is a usage error (exit 2) found before anything is sent.
 */
import { UsageError } from '../../../errors.js';
import { buildAssertion } from '../../../saml/build-assertion.js';
import { DEFAULT_MAX_SAML_BYTES } from '../../../saml/constants.js';
import { encodeSamlInput } from '../../../saml/encode-input.js';
import { inspectSamlDocument } from '../../../saml/inspect-document.js';
import { readInput } from '../../../saml/read-input.js';
import { signAssertion } from '../../../saml/sign-assertion.js';
import { exchangeSaml, type SamlDocument } from '../../../session/saml-exchange.js';
import type { Deps } from '../../deps.js';
import { assertOneStdinReader } from '../../input/secrets.js';
import { noteNotStoredHint, notStoredWhy } from '../../output/not-stored.js';
import { expirySummary, note, printTokenJson } from '../../output/token-output.js';

export interface SsoOptions {
  samlResponse?: string;
  samlAssertion?: string;
  signKey?: string;
  signCert?: string;
  assertionFor?: string;
  issuer?: string;
  audience?: string;
  clientSecretStdin?: boolean;
  endOtherSessions?: boolean;
  /** false with `--no-store`. */
  store: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (docs/contract.md §2.6). */
  showTokens?: boolean;
}

/** A PEM key or certificate is a few KiB; anything bigger is the wrong file. */
const MAX_PEM_BYTES = 64 * 1024;
/** Read at most this much; encodeSamlInput then applies the real 256 KiB limit to the XML. */
const MAX_RAW_SAML_BYTES = 1024 * 1024;

/** Exactly one source of SAML, and only the flags that go with it (checked before any I/O). */
function checkFlags(options: SsoOptions): void {
  const { samlResponse, samlAssertion, assertionFor } = options;
  if (samlResponse !== undefined && samlAssertion !== undefined) {
    throw new UsageError(
      '--saml-response and --saml-assertion cannot be used together',
      'send either the whole Response or the bare Assertion',
    );
  }
  if (assertionFor !== undefined && (samlResponse !== undefined || samlAssertion !== undefined)) {
    throw new UsageError(
      '--assertion-for builds its own assertion; it cannot be combined with --saml-response or --saml-assertion',
    );
  }
  if (samlResponse === undefined && samlAssertion === undefined && assertionFor === undefined) {
    throw new UsageError(
      'nothing to send: give --saml-response FILE or --saml-assertion FILE',
      'or build one: --assertion-for EMAIL --issuer URI --sign-key KEY.pem',
    );
  }
  if (assertionFor === undefined && (options.issuer !== undefined || options.audience !== undefined)) {
    throw new UsageError('--issuer and --audience only apply with --assertion-for');
  }
  if (assertionFor !== undefined && options.signKey === undefined) {
    throw new UsageError('--assertion-for needs --sign-key KEY.pem to sign the assertion it builds');
  }
  if (assertionFor !== undefined && options.issuer === undefined) {
    throw new UsageError(
      '--assertion-for needs --issuer URI',
      'the issuer registered for the application, e.g. --issuer https://idp.example',
    );
  }
  if (options.signCert !== undefined && options.signKey === undefined) {
    throw new UsageError('--sign-cert needs --sign-key');
  }
  assertOneStdinReader([
    [samlResponse === '-', '--saml-response -'],
    [samlAssertion === '-', '--saml-assertion -'],
    [options.clientSecretStdin, '--client-secret-stdin'],
  ]);
}

async function readPem(flag: string, path: string): Promise<string> {
  const bytes = await readInput(path, undefined, { flag, maxBytes: MAX_PEM_BYTES, what: 'PEM file' });
  return bytes.toString('utf8');
}

async function signingKeys(options: SsoOptions) {
  if (options.signKey === undefined) return undefined;
  return {
    privateKeyPem: await readPem('--sign-key', options.signKey),
    certificatePem:
      options.signCert === undefined ? undefined : await readPem('--sign-cert', options.signCert),
  };
}

/** The form field and its base64 value, read, checked and (with --sign-key) signed. */
async function prepareSaml(options: SsoOptions, deps: Deps, audience: () => string): Promise<SamlDocument> {
  const keys = await signingKeys(options);
  if (options.assertionFor !== undefined) {
    if (!keys) throw new UsageError('--assertion-for needs --sign-key');
    let xml: string;
    try {
      xml = buildAssertion({
        email: options.assertionFor,
        issuer: options.issuer ?? '',
        audience: audience(),
      });
    } catch (error) {
      throw new UsageError(
        `cannot build the assertion: ${(error as Error).message.replace(/^buildAssertion: /, '')}`,
      );
    }
    const signed = signAssertion(xml, keys);
    return {
      field: 'SAMLAssertion',
      value: Buffer.from(signed).toString('base64'),
      email: options.assertionFor,
    };
  }

  const asResponse = options.samlResponse !== undefined;
  const flag = asResponse ? '--saml-response' : '--saml-assertion';
  const path = (asResponse ? options.samlResponse : options.samlAssertion) ?? '-';
  const label = path === '-' ? 'stdin' : path;
  const raw = await readInput(path, deps.io.stdin, {
    flag,
    maxBytes: MAX_RAW_SAML_BYTES,
    what: 'SAML input',
  });
  let value = encodeSamlInput(raw, { maxBytes: DEFAULT_MAX_SAML_BYTES, label });
  const xml = Buffer.from(value, 'base64').toString('utf8');
  const facts = inspectSamlDocument(xml, label);
  if (asResponse && facts.root === 'Assertion') {
    throw new UsageError(`${label} holds a bare Assertion`, 'pass it with --saml-assertion');
  }
  if (!asResponse && facts.root === 'Response') {
    throw new UsageError(`${label} holds a samlp:Response`, 'pass it with --saml-response');
  }
  if (keys) {
    value = Buffer.from(signAssertion(xml, keys)).toString('base64');
  } else if (!facts.assertionSigned) {
    note(
      deps,
      `warning: the assertion in ${label} is not signed; the service will likely refuse it (sign it with --sign-key)`,
    );
  }
  return { field: asResponse ? 'SAMLResponse' : 'SAMLAssertion', value };
}

export async function run(options: SsoOptions, deps: Deps): Promise<void> {
  checkFlags(options);
  const session = deps.session();
  const settings = await session.settings();
  const service = await session.service();
  // A built assertion is addressed to this service unless --audience says otherwise.
  const saml = await prepareSaml(options, deps, () => options.audience ?? service.baseUrl);
  const result = await exchangeSaml(
    session,
    saml,
    { endOtherSessions: options.endOtherSessions === true, save: options.store },
    deps.secrets(options),
  );

  const { record } = result;
  // Like `tokencli token`, the result on stdout is the access token (or the JSON document).
  if (options.json) printTokenJson(deps, record, settings.profile, 'saml2-bearer', options.showTokens);
  else deps.io.stdout.write(`${record.access_token}\n`);
  const who = record.email ? ` as ${record.email}` : '';
  const where = result.stored
    ? `stored in profile ${settings.profile}`
    : `not stored: ${notStoredWhy(result.notStored, settings)}`;
  note(deps, `Signed in${who} with SSO (${where}). ${expirySummary(record)}`);
  if (!result.stored) noteNotStoredHint(deps, result.notStored, settings);
}
