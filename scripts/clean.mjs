// The first step of `npm run build`: removes the previous build so that files deleted from src/ do
// not linger in dist/, where `npm pack` (which build:release runs without prepack) would ship them.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
