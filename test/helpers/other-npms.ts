/**
 * Another npm than the machine's 11, by its own script (npm/bin/npm-cli.js), which `.ci/run`
 * installs outside the clone (scripts/ci/consumer-tools.sh): npm 10, the npm Node 20 and 22 ship,
 * and npm 12, the registry's latest, which links no man page. Without its variable a case that
 * needs it skips locally and fails in CI; on a Node line npm itself does not support, it skips
 * with that reason. For the package's tests (test/e2e/package.test.ts) and the release's
 * (test/release/pack-package.test.ts).
 */
export interface OtherNpm {
  major: number;
  cli: string | undefined;
  variable: string;
  /** Why this Node cannot run it (its `engines`), or undefined. */
  nodeTooOld: string | undefined;
  linksManPage: boolean;
}
const [nodeMajor = 0, nodeMinor = 0, nodePatch = 0] = process.versions.node.split('.').map(Number);
export const otherNpms: OtherNpm[] = [
  {
    major: 10,
    cli: process.env.TOKENCLI_TEST_NPM10,
    variable: 'TOKENCLI_TEST_NPM10',
    nodeTooOld: undefined,
    linksManPage: true,
  },
  {
    major: 12,
    cli: process.env.TOKENCLI_TEST_NPM12,
    variable: 'TOKENCLI_TEST_NPM12',
    // npm 12's engines: ^22.22.2 || ^24.15.0 || >=26.0.0.
    nodeTooOld:
      nodeMajor >= 26 ||
      (nodeMajor === 24 && nodeMinor >= 15) ||
      (nodeMajor === 22 && (nodeMinor > 22 || (nodeMinor === 22 && nodePatch >= 2)))
        ? undefined
        : `here on ${process.version}: npm 12 needs Node 22.22.2, 24.15 or 26 and later`,
    linksManPage: false,
  },
];
for (const npm of otherNpms)
  if (!npm.cli && process.env.CI)
    throw new Error(`CI: ${npm.variable} must name npm ${npm.major}'s npm-cli.js (.ci/run installs one)`);
