/**
 * Reads one item's secret from the Secret Service over the probe's own D-Bus connection
 * (secret-service-probe.ts), so the cached-token path can answer without loading the native keyring
 * module (docs/contract.md §4 "Speed"; README, design notes). Read-only and conservative: it answers only
 * the plain case — exactly one matching item, unlocked, whose secret is UTF-8 — and otherwise says
 * why not, so that the caller asks the native module, which decides everything else (several
 * matches, locked items and their unlock prompt, absent entries) as it always has.
 *
 * Secret Service API (freedesktop.org), §7 "Transfer of Secrets": the session uses the `plain`
 * algorithm (§7.2); the README's design notes say why that is acceptable here.
 */
import { type DbusConnection, DbusStepError } from './dbus-connection.js';
import type { Reply, WireValue } from './dbus-wire.js';
import { SECRETS, SERVICE_INTERFACE } from './secret-service-probe.js';

export type SecretRead = { text: string } | { unread: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The first two calls of a read, in flight: see {@link startSecretRead}. */
export interface SecretLookup {
  readonly session: Promise<Reply>;
  readonly search: Promise<Reply>;
}

/**
 * Sends the calls that open a read of the item whose attributes include all of `attributes`: a
 * plain session and the search. Neither depends on the other, so both go out together (one round
 * trip), and neither prompts or changes anything; their answers are checked by
 * {@link readSecretText}. Sent early, alongside the probe (secret-service-probe.ts), they share its
 * round trip too.
 */
export function startSecretRead(
  connection: DbusConnection,
  attributes: ReadonlyMap<string, string>,
): SecretLookup {
  const [session, search] = connection.callAll([
    // OpenSession(in s algorithm, in v input, out v output, out o result); plain takes "" (§7.2).
    {
      ...SECRETS,
      interface: SERVICE_INTERFACE,
      member: 'OpenSession',
      body: { signature: 'sv', values: ['plain', { signature: 's', value: '' }] },
    },
    // SearchItems(in a{ss} attributes, out ao unlocked, out ao locked).
    {
      ...SECRETS,
      interface: SERVICE_INTERFACE,
      member: 'SearchItems',
      body: { signature: 'a{ss}', values: [new Map<WireValue, WireValue>(attributes)] },
    },
  ]);
  return { session, search };
}

/**
 * The secret of the one item whose attributes include all of `attributes` (SearchItems matches
 * a subset), as text; or why it was not read. Given a {@link SecretLookup} instead of the
 * attributes, it goes on from those calls, already sent. Never rejects; a failure closes the
 * connection.
 */
export async function readSecretText(
  connection: DbusConnection,
  item: ReadonlyMap<string, string> | SecretLookup,
): Promise<SecretRead> {
  connection.newBudget(); // a keychain call of its own, given up after the same limit (docs/contract.md §2.7)
  try {
    return await connection.step('the Secret Service', () =>
      read(connection, 'search' in item ? item : startSecretRead(connection, item)),
    );
  } catch (error) {
    if (error instanceof DbusStepError) return { unread: error.message };
    throw error;
  }
}

async function read(connection: DbusConnection, lookup: SecretLookup): Promise<SecretRead> {
  const session = await lookup.session;
  const sessionPath = session.body[1];
  if (session.isError || typeof sessionPath !== 'string') {
    return { unread: `the Secret Service opened no plain session (${session.errorName ?? 'no path'})` };
  }
  const search = await lookup.search;
  const [unlocked, locked] = search.body;
  if (search.isError || !isPathList(unlocked) || !isPathList(locked)) {
    return { unread: `the Secret Service could not search (${search.errorName ?? 'unexpected reply'})` };
  }
  if (locked.length > 0) return { unread: 'the item is locked' };
  const [item] = unlocked;
  if (item === undefined) return { unread: 'no such item' };
  if (unlocked.length > 1) return { unread: 'several items match' };
  // Item.GetSecret(in o session, out (oayays) secret): session, parameters, value, content type.
  const secret = await connection.call({
    destination: SECRETS.destination,
    path: item,
    interface: 'org.freedesktop.Secret.Item',
    member: 'GetSecret',
    body: { signature: 'o', values: [sessionPath] },
  });
  const [, parameters, value] = Array.isArray(secret.body[0]) ? secret.body[0] : [];
  if (secret.isError || !Buffer.isBuffer(value)) {
    return { unread: `the Secret Service gave no secret (${secret.errorName ?? 'unexpected reply'})` };
  }
  // A plain session's secrets carry no parameters (§7.2); anything else is not plain text.
  if (!Buffer.isBuffer(parameters) || parameters.length > 0) return { unread: 'the secret is not plain' };
  try {
    return { text: strictUtf8.decode(value) };
  } catch {
    return { unread: 'the secret is not UTF-8 text' };
  }
}

function isPathList(value: WireValue | undefined): value is string[] {
  return Array.isArray(value) && value.every((path) => typeof path === 'string');
}
