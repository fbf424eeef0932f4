/**
 * The keychain's entries on the Secret Service platforms (Linux and the BSDs), in plain JavaScript
 * over the session bus (KeychainStore's {@link KeychainEntries}; no native code): read, written,
 * removed and listed over the connection the probe opened (secret-service-probe.ts), which has
 * already found the default keyring there and unlocked.
 *
 * An entry is an item with the attributes `service` = `tokencli` and `username` = its account, as
 * `@napi-rs/keyring` (keyring-rs's Secret Service store) files one, with its label too: entries
 * either wrote are the same to both (test/store/keychain.test.ts reads them through both).
 *
 * Secret Service API (freedesktop.org): secrets travel in a `plain` session (§7.2), which
 * docs/design.md says why is acceptable here; an entry that exists is given its new secret where
 * it is, in whichever keyring, and a new one goes into the default keyring. Nothing here waits for
 * a person: where the service asks for a prompt (a keyring to unlock, a removal to confirm), the
 * prompt is dismissed and the call fails saying why, as the probe refuses a locked default
 * keyring rather than prompting.
 */
import { type DbusConnection, DbusStepError } from './dbus-connection.js';
import type { MethodCall, Reply, WireValue } from './dbus-wire.js';
import { KEYCHAIN_SERVICE, type KeychainEntries } from './keychain-store.js';
import { KEYRING_LOCKED } from './keyring-locked.js';
import { READ_DEFAULT_ALIAS, SECRETS, SERVICE_INTERFACE } from './secret-service-probe.js';

const ITEM_INTERFACE = 'org.freedesktop.Secret.Item';
/** What a method returns for "no prompt needed", or ReadAlias for "no such alias". */
const NO_OBJECT = '/';

/** The attributes an entry of `account` is filed under. */
export const entryAttributes = (account: string): ReadonlyMap<string, string> =>
  new Map([
    ['service', KEYCHAIN_SERVICE],
    ['username', account],
  ]);

/** The label `@napi-rs/keyring` gives an entry, which the user sees in Seahorse and the like. */
const entryLabel = (account: string): string => `keyring:${account}@${KEYCHAIN_SERVICE}`;

/** The content type `@napi-rs/keyring` gives a secret (a service may keep it, gnome-keyring does not). */
const CONTENT_TYPE = 'application/octet-stream';

/**
 * How much longer the connection's own time limit runs than a call's: KeychainStore's limit, of
 * the same length and started first, is the one that gives a call up and says so.
 */
const STORE_LIMIT_FIRST_MS = 250;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** OpenSession(in s algorithm, in v input, out v output, out o result); plain takes "" (§7.2). */
const OPEN_PLAIN_SESSION: MethodCall = {
  ...SECRETS,
  interface: SERVICE_INTERFACE,
  member: 'OpenSession',
  body: { signature: 'sv', values: ['plain', { signature: 's', value: '' }] },
};

/** SearchItems(in a{ss} attributes, out ao unlocked, out ao locked): items with all of them. */
const searchItems = (attributes: ReadonlyMap<string, string>): MethodCall => ({
  ...SECRETS,
  interface: SERVICE_INTERFACE,
  member: 'SearchItems',
  body: { signature: 'a{ss}', values: [new Map<WireValue, WireValue>(attributes)] },
});

/** An account's lookup, sent ahead of the first read: see {@link lookUpEntry}. */
export interface EntryLookup {
  readonly account: string;
  readonly session: Promise<Reply>;
  readonly search: Promise<Reply>;
}

/**
 * Sends the calls that open a read of `account`'s entry, a plain session and the search, now:
 * neither depends on the other, so both go out together (one round trip), and neither prompts or
 * changes anything. Sent alongside the probe, they share its round trip too; the entries' first
 * read of that account goes on from them.
 */
export function lookUpEntry(connection: DbusConnection, account: string): EntryLookup {
  const [session, search] = connection.callAll([OPEN_PLAIN_SESSION, searchItems(entryAttributes(account))]);
  return { account, session, search };
}

export interface SecretServiceEntriesOptions {
  /** A lookup sent ahead on the connection ({@link lookUpEntry}), for the first call alone. */
  lookup?: EntryLookup | undefined;
  /**
   * Opens a new connection (the probe again), for a call made after a failed one closed the
   * connection; rejects with the probe's reason. Without it, such a call fails.
   */
  reopen?: (() => Promise<DbusConnection>) | undefined;
}

export class SecretServiceEntries implements KeychainEntries {
  #connection: DbusConnection;
  #lookup: EntryLookup | undefined;
  readonly #reopen: (() => Promise<DbusConnection>) | undefined;
  /** The new connection on its way, which every call made meanwhile waits for. */
  #reopening: Promise<DbusConnection> | undefined;
  /** OpenSession's answer, once asked: every secret of this connection travels in that session. */
  #session: Promise<Reply> | undefined;
  /** Counts {@link giveUp}s: a call given up while a connection was reopened does nothing after. */
  #givenUp = 0;

  /** `connection`: one the probe opened and passed (secret-service-probe.ts). */
  constructor(connection: DbusConnection, { lookup, reopen }: SecretServiceEntriesOptions = {}) {
    this.#connection = connection;
    this.#lookup = lookup;
    this.#reopen = reopen;
    this.#session = lookup?.session;
  }

  read(account: string): Promise<string | undefined> {
    return this.#step(async (lookup) => {
      const session = this.#sessionPath();
      const item = await this.#findOne(account, lookup?.account === account ? lookup.search : undefined);
      if (item === undefined) return undefined;
      // Item.GetSecret(in o session, out (oayays) secret): session, parameters, value, content type.
      const reply = await this.#connection.call({
        destination: SECRETS.destination,
        path: item,
        interface: ITEM_INTERFACE,
        member: 'GetSecret',
        body: { signature: 'o', values: [await session] },
      });
      const [, parameters, value] = Array.isArray(reply.body[0]) ? reply.body[0] : [];
      if (reply.isError || !Buffer.isBuffer(value) || !Buffer.isBuffer(parameters)) {
        throw new DbusStepError(`no secret came (${whyNot(reply)})`);
      }
      // A plain session's secrets carry no parameters (§7.2); anything else is not plain text.
      if (parameters.length > 0) throw new DbusStepError('the secret did not come as plain text');
      try {
        return strictUtf8.decode(value);
      } catch {
        throw new DbusStepError(`the entry "${account}" is not UTF-8 text`);
      }
    });
  }

  write(account: string, secret: string): Promise<void> {
    return this.#step(async () => {
      const session = this.#sessionPath();
      // ReadAlias(in s name, out o collection), sent with the search: where a new entry goes.
      const [alias] = this.#connection.callAll([READ_DEFAULT_ALIAS]);
      const item = await this.#findOne(account);
      const value: WireValue = [await session, Buffer.alloc(0), Buffer.from(secret, 'utf8'), CONTENT_TYPE];
      if (item !== undefined) {
        // Item.SetSecret(in (oayays) secret): the entry keeps its place, in whichever keyring.
        const set = await this.#connection.call({
          destination: SECRETS.destination,
          path: item,
          interface: ITEM_INTERFACE,
          member: 'SetSecret',
          body: { signature: '(oayays)', values: [value] },
        });
        if (set.isError) throw new DbusStepError(`the entry was not stored (${set.errorName})`);
        return;
      }
      const aliasReply = await alias;
      const collection = aliasReply.value;
      if (aliasReply.isError || typeof collection !== 'string' || collection === NO_OBJECT) {
        throw new DbusStepError(
          `the Secret Service has no default keyring (${aliasReply.errorName ?? 'no alias'})`,
        );
      }
      // Collection.CreateItem(in a{sv} properties, in (oayays) secret, in b replace,
      //   out o item, out o prompt).
      const createItem = () =>
        this.#connection.call({
          destination: SECRETS.destination,
          path: collection,
          interface: 'org.freedesktop.Secret.Collection',
          member: 'CreateItem',
          body: {
            signature: 'a{sv}(oayays)b',
            values: [
              new Map<WireValue, WireValue>([
                ['org.freedesktop.Secret.Item.Label', { signature: 's', value: entryLabel(account) }],
                [
                  'org.freedesktop.Secret.Item.Attributes',
                  { signature: 'a{ss}', value: new Map<WireValue, WireValue>(entryAttributes(account)) },
                ],
              ]),
              value,
              true,
            ],
          },
        });
      let created = await createItem();
      // Locked since the probe looked (the screen locked, say): unlocked if the service can
      // without asking anyone.
      if (created.errorName === 'org.freedesktop.Secret.Error.IsLocked') {
        await this.#unlock([collection], KEYRING_LOCKED);
        created = await createItem();
      }
      const [, prompt] = created.body;
      if (created.isError || typeof prompt !== 'string') {
        throw new DbusStepError(`the entry was not stored (${whyNot(created)})`);
      }
      if (prompt !== NO_OBJECT) await this.#decline(prompt, 'storing the entry');
    });
  }

  remove(account: string): Promise<void> {
    return this.#step(async () => {
      const items = await this.#find(account);
      // Item.Delete(out o prompt), for each item at once.
      const deleted = this.#connection.callAll(
        items.map((path) => ({
          destination: SECRETS.destination,
          path,
          interface: ITEM_INTERFACE,
          member: 'Delete',
        })),
      );
      for (const reply of deleted) {
        const answer = await reply;
        const prompt = answer.value;
        if (answer.isError || typeof prompt !== 'string') {
          throw new DbusStepError(`the entry was not removed (${whyNot(answer)})`);
        }
        if (prompt !== NO_OBJECT) await this.#decline(prompt, 'removing the entry');
      }
    });
  }

  accounts(): Promise<string[]> {
    return this.#step(async () => {
      const { unlocked, locked } = await this.#search(new Map([['service', KEYCHAIN_SERVICE]]));
      // An item's attributes can be read while it is locked: nothing is unlocked to list them.
      const attributes = this.#connection.callAll(
        [...unlocked, ...locked].map((path) => ({
          destination: SECRETS.destination,
          path,
          interface: 'org.freedesktop.DBus.Properties',
          member: 'Get',
          args: [ITEM_INTERFACE, 'Attributes'],
        })),
      );
      const accounts: string[] = [];
      for (const reply of attributes) {
        const answer = await reply;
        const [variant] = answer.body;
        const map =
          typeof variant === 'object' && variant !== null && 'value' in variant ? variant.value : undefined;
        if (answer.isError || !(map instanceof Map)) {
          throw new DbusStepError(`an entry's attributes could not be read (${whyNot(answer)})`);
        }
        const account = map.get('username');
        if (typeof account === 'string') accounts.push(account);
      }
      return accounts;
    });
  }

  giveUp(): void {
    this.#givenUp += 1;
    this.#connection.close();
  }

  /**
   * Runs one call's steps within a time budget of their own, on a connection reopened first if
   * a failed call closed the last one; the connection is closed when a step fails. What this
   * module throws is a DbusStepError, whose message the connection passes on as it is: one line,
   * for the store to say after "failed (read): ". `work` is given the lookup sent ahead, on the
   * first call only.
   */
  async #step<T>(work: (lookup: EntryLookup | undefined) => Promise<T>): Promise<T> {
    const lookup = this.#lookup;
    this.#lookup = undefined;
    if (this.#connection.closed && this.#reopen) {
      const givenUp = this.#givenUp;
      this.#reopening ??= this.#reopen().finally(() => {
        this.#reopening = undefined;
      });
      const connection = await this.#reopening;
      if (connection !== this.#connection) {
        this.#connection = connection;
        this.#session = undefined;
      }
      // The store has said this call timed out: it must not go on to change anything.
      if (this.#givenUp !== givenUp) {
        connection.close();
        throw new DbusStepError('the call was given up');
      }
    }
    this.#connection.newBudget(STORE_LIMIT_FIRST_MS);
    return this.#connection.step('the Secret Service', () => work(lookup));
  }

  /**
   * The plain session's path, asked once per connection (or with the lookup sent ahead). Asked
   * before the call it is needed for has been answered, so that both share a round trip: a
   * failure is the caller's when it awaits, never an unhandled rejection before.
   */
  #sessionPath(): Promise<string> {
    this.#session ??= this.#connection.call(OPEN_PLAIN_SESSION);
    const path = this.#session.then((session) => {
      const [, result] = session.body;
      if (session.isError || typeof result !== 'string') {
        throw new DbusStepError(`no plain session was opened (${session.errorName ?? 'no path'})`);
      }
      return result;
    });
    path.catch(() => {});
    return path;
  }

  /** The items of `account`'s entry, each unlocked; `sent`: its search, sent ahead. */
  async #find(account: string, sent?: Promise<Reply>): Promise<string[]> {
    const { unlocked, locked } = await this.#search(entryAttributes(account), sent);
    if (locked.length > 0) await this.#unlock(locked, 'the keyring that holds the entry is locked');
    return [...unlocked, ...locked];
  }

  /** The one item of `account`'s entry, unlocked, or undefined: more than one is no single entry. */
  async #findOne(account: string, sent?: Promise<Reply>): Promise<string | undefined> {
    const items = await this.#find(account, sent);
    if (items.length > 1) throw new DbusStepError(`${items.length} entries match "${account}"`);
    return items[0];
  }

  async #search(
    attributes: ReadonlyMap<string, string>,
    sent = this.#connection.call(searchItems(attributes)),
  ): Promise<{ unlocked: string[]; locked: string[] }> {
    const search = await sent;
    const [unlocked, locked] = search.body;
    if (search.isError || !isPathList(unlocked) || !isPathList(locked)) {
      throw new DbusStepError(`the search failed (${whyNot(search)})`);
    }
    return { unlocked, locked };
  }

  /**
   * Service.Unlock(in ao objects, out ao unlocked, out o prompt): done where the service needs no
   * one to unlock them; where it asks for a prompt, `locked` is the reason the call fails.
   */
  async #unlock(paths: string[], locked: string): Promise<void> {
    const reply = await this.#connection.call({
      ...SECRETS,
      interface: SERVICE_INTERFACE,
      member: 'Unlock',
      body: { signature: 'ao', values: [paths] },
    });
    const [, prompt] = reply.body;
    if (reply.isError || typeof prompt !== 'string') {
      throw new DbusStepError(`the entry was not unlocked (${whyNot(reply)})`);
    }
    if (prompt === NO_OBJECT) return;
    await this.#dismiss(prompt);
    throw new DbusStepError(locked);
  }

  /** A prompt the service asks for to confirm `what`: dismissed, and the call fails. */
  async #decline(prompt: string, what: string): Promise<never> {
    await this.#dismiss(prompt);
    throw new DbusStepError(
      `the Secret Service asks someone to confirm ${what} in a prompt, which tokencli does not show`,
    );
  }

  /**
   * Prompt.Dismiss, so that no prompt of ours waits on the screen for nobody; what it answers
   * changes nothing. A path that is no object path is not sent: the bus would hang up on a
   * message that names one.
   */
  async #dismiss(prompt: string): Promise<void> {
    if (!isObjectPath(prompt)) return;
    await this.#connection.call({
      destination: SECRETS.destination,
      path: prompt,
      interface: 'org.freedesktop.Secret.Prompt',
      member: 'Dismiss',
    });
  }
}

/** What a reply that is no answer says: its error's name, or that it was not the answer expected. */
function whyNot(reply: Reply): string {
  return reply.errorName ?? 'an unexpected reply';
}

function isPathList(value: WireValue | undefined): value is string[] {
  return Array.isArray(value) && value.every((path) => typeof path === 'string');
}

/** D-Bus object paths: `/`-separated elements of [A-Za-z0-9_]. */
function isObjectPath(path: string): boolean {
  return /^\/(?:[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*)?$/.test(path);
}
