// Kept in step with package.json by test/version.test.ts; a constant avoids reading package.json at
// start-up (`tokencli --version` is benchmarked against an empty node program).
export const VERSION = '0.1.0';
