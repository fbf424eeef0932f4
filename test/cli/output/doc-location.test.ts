/**
 * Where a document is read from this installation (src/cli/output/doc-location.ts): the file in
 * the package, or this release's source on GitHub from the single executable or when the file is
 * missing; and the CLI's hint for an invalid service configuration naming that place.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { docLocation, githubAnchor, REPOSITORY_URL } from '../../../src/cli/output/doc-location.js';
import { hintFor } from '../../../src/cli/output/error-hints.js';
import {
  CONFIG_FORMAT_DOC,
  CONFIG_FORMAT_HINT,
  ServiceConfigError,
} from '../../../src/server/config-error.js';
import { VERSION } from '../../../src/version.js';
import { tempDir } from '../../helpers/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const RELEASE_DOCS = `https://github.com/tokencli/tokencli/blob/v${VERSION}/docs`;

describe('docLocation', () => {
  test('from the package (or a checkout): the absolute path of the file, then the section', () => {
    const installation = { sea: false, packageRoot: ROOT };
    expect(docLocation('serve.md', 'Configuration', installation)).toBe(
      `${join(ROOT, 'docs', 'serve.md')} (Configuration)`,
    );
    expect(docLocation('contract.md', undefined, installation)).toBe(join(ROOT, 'docs', 'contract.md'));
  });

  test('from the single executable: the document at this version on GitHub, whatever is on disk', () => {
    expect(docLocation('serve.md', 'Configuration', { sea: true, packageRoot: ROOT })).toBe(
      `${RELEASE_DOCS}/serve.md#configuration`,
    );
    expect(docLocation('serve.md', undefined, { sea: true, packageRoot: undefined })).toBe(
      `${RELEASE_DOCS}/serve.md`,
    );
  });

  test('where the package has no such file, or was not found: GitHub too', () => {
    const bare = tempDir('tokencli-no-docs-');
    expect(docLocation('serve.md', 'Configuration', { sea: false, packageRoot: bare })).toBe(
      `${RELEASE_DOCS}/serve.md#configuration`,
    );
    expect(docLocation('serve.md', 'Configuration', { sea: false, packageRoot: undefined })).toBe(
      `${RELEASE_DOCS}/serve.md#configuration`,
    );
  });

  test("GitHub's anchors: lower case, punctuation dropped, spaces as hyphens", () => {
    expect(githubAnchor('Configuration')).toBe('configuration');
    expect(githubAnchor('Where the platform is silent')).toBe('where-the-platform-is-silent');
    expect(githubAnchor("`token_type`: the platform's `BearerToken`, or `Bearer` for strict clients")).toBe(
      'token_type-the-platforms-bearertoken-or-bearer-for-strict-clients',
    );
    expect(githubAnchor('From test code (vitest, jest)')).toBe('from-test-code-vitest-jest');
  });

  test("the repository is package.json's", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    expect(pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')).toBe(REPOSITORY_URL);
  });

  test('the document and section an invalid configuration names exist, with that anchor', () => {
    const text = readFileSync(join(ROOT, 'docs', CONFIG_FORMAT_DOC.doc), 'utf8');
    const anchors = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => githubAnchor(m[1] ?? ''));
    expect(anchors).toContain(githubAnchor(CONFIG_FORMAT_DOC.section));
  });
});

describe("the CLI's hint for an invalid service configuration", () => {
  test("names where this installation has the document, not the library's package-relative path", () => {
    const error = new ServiceConfigError('apps: must be a non-empty array', {
      reason: 'service_config_invalid',
      details: CONFIG_FORMAT_DOC,
      hint: CONFIG_FORMAT_HINT,
    });
    expect(hintFor(error)).toBe(
      `fix the configuration file; its format is described in ${docLocation('serve.md', 'Configuration')}`,
    );
  });

  test('a lower-layer hint on an error that names no document is still its own', () => {
    const error = new ServiceConfigError('x', { reason: 'service_config_invalid', hint: 'as it was' });
    expect(hintFor(error)).toBe('as it was');
  });
});
