/**
 * vitest setupFiles: after each test file (this afterAll runs after the file's own, hooks being
 * stacked), remove the temporary directories it made with tempDir() from test/helpers/temp-dirs.ts.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);
