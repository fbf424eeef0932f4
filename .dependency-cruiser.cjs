/**
 * The layer rules of src/, checked by dependency-cruiser (`npm run lint:layers`, part of
 * `npm run check`).
 *
 * dependency-cruiser reads TypeScript through the TypeScript 5/6 compiler API, which this
 * project's TypeScript 7 (the native compiler) no longer has; so the rules are checked on what the
 * compiler emits from src/ (one .js file per .ts file, same tree, `verbatimModuleSyntax`), which
 * scripts/layers.mjs writes to .tmp/layers/. Type-only imports are erased there: the rules govern
 * the imports that load code, and a cycle through a type-only import is allowed.
 *
 * The layers, each importing only from the ones below it (and itself):
 *   cli → session → store → oauth, login → http, fs, protocol, saml → text, errors (and version)
 * and beside them server/ (`tokencli/server`), which stands on protocol, saml, text and errors only.
 * `LAYERS_ROOT` points the rules at other compiled trees, comma-separated (the tests check a copy
 * as built and a copy with forbidden imports added in one run).
 */
const ROOTS = (process.env.LAYERS_ROOT ?? '.tmp/layers').split(',');
const ROOT = `(?:${ROOTS.map((root) => root.replace(/\/$/, '').replace(/[.]/g, '\\.')).join('|')})`;

/** A folder (`store`) or a top-level module (`errors`) of src/, as a path pattern. */
const part = (name) => `${name}(?:/|\\.js$)`;
const under = (names) => `^${ROOT}/(?:${names.map(part).join('|')})`;

const BOTTOM = ['text', 'errors', 'version'];
const WIRE = ['http', 'fs', 'protocol', 'saml'];
const CLIENT = ['oauth', 'login'];

/** What each layer may import besides itself. cli/ may import anything. */
const MAY_IMPORT = {
  session: ['store', ...CLIENT, ...WIRE, ...BOTTOM],
  store: [...CLIENT, ...WIRE, ...BOTTOM],
  oauth: [...WIRE, ...BOTTOM],
  login: [...WIRE, ...BOTTOM],
  http: BOTTOM,
  fs: BOTTOM,
  protocol: BOTTOM,
  saml: BOTTOM,
  server: ['protocol', 'saml', ...BOTTOM],
  text: [],
  errors: [],
  version: [],
};

const layerRules = Object.entries(MAY_IMPORT).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer} may import only ${allowed.length ? allowed.join(', ') : 'nothing else in src/'}`,
  severity: 'error',
  from: { path: under([layer]) },
  to: { path: `^${ROOT}/`, pathNot: under([layer, ...allowed]) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...['index', 'server/index'].map((entry) => ({
      name: `${entry.replace('/', '-')}-not-cli`,
      comment: `src/${entry}.ts (a package entry point) never reaches src/cli/, not even lazily`,
      severity: 'error',
      from: { path: `^${ROOT}/${entry}\\.js$` },
      to: { path: `^${ROOT}/cli/`, reachable: true },
    })),
    {
      name: 'no-circular',
      comment: 'no import cycles (type-only imports are erased before the check)',
      severity: 'error',
      from: { path: `^${ROOT}/` },
      to: { circular: true },
    },
    {
      name: 'no-dev-dependency',
      comment: 'src/ never imports a devDependency (it is not installed with the package)',
      severity: 'error',
      from: { path: `^${ROOT}/` },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-undeclared-package',
      comment: 'src/ imports only packages package.json declares',
      severity: 'error',
      from: { path: `^${ROOT}/` },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'resolvable',
      comment: 'every relative import resolves to a module',
      severity: 'error',
      from: { path: `^${ROOT}/` },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    exclude: { path: '\\.d\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6', 'cjs'],
    detectProcessBuiltinModuleCalls: true,
  },
};
