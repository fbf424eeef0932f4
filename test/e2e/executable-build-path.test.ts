/**
 * Node keeps the name of the executable's main script inside it, for the stack traces of the
 * launcher: the build names it from the checkout (`bin/tokencli.js`), so the executable does not
 * carry the build machine's own path, which would tell where it was built and differ between two
 * builds of the same source.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { BINARY } from '../helpers/cli.js';

const checkout = resolve(import.meta.dirname, '../..');

test.skipIf(!BINARY)(
  `the executable names its main script without the build's checkout${BINARY ? '' : ' (skipped: no TOKENCLI_BINARY)'}`,
  () => {
    const bytes = readFileSync(BINARY as string);
    expect(bytes.includes('bin/tokencli.js'), 'the main script is named').toBe(true);
    expect(bytes.includes(checkout), `the checkout's path ${checkout} is in the executable`).toBe(false);
  },
);
