/**
 * Opens the authorize URL in a browser without a shell (docs/contract.md §2.5), and only when the URL is
 * `https://` or loopback `http://`. Failing to open is never fatal: the URL is printed on stderr
 * anyway, so every failure becomes one warning and the login keeps waiting.
 *
 * Which browser: `BROWSER`, when set, names one program (a path or a name on PATH, no arguments)
 * that is run directly with the URL as its only argument — no shell, no `%s` expansion, no
 * `:`-separated list. Otherwise the `open` package picks the system's way (`open` on macOS,
 * PowerShell `Start` on Windows and WSL, `xdg-open` elsewhere).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { isLoopbackHost } from '../protocol/loopback.js';

export interface OpenBrowserOptions {
  env: NodeJS.ProcessEnv;
  /** Receives one line per problem; the caller prints it as a warning on stderr. */
  warn: (line: string) => void;
  /** process.platform unless a test says otherwise. */
  platform?: NodeJS.Platform | undefined;
  /** Launches the system's opener; the `open` package unless a test replaces it. */
  launch?: ((url: string) => Promise<ChildProcess>) | undefined;
}

/** Only these URLs are ever handed to another program: `https://`, or `http://` on a loopback host. */
export function isSafeToOpen(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
}

async function launchWithOpen(url: string): Promise<ChildProcess> {
  // Loaded here so commands other than login never pay for it.
  const { default: open } = await import('open');
  return open(url);
}

/** Runs `BROWSER` directly (no shell) with the URL as its only argument. */
function launchBrowserVariable(program: string, url: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [url], { stdio: 'ignore', detached: true, shell: false, windowsHide: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.off('error', reject);
      resolve(child);
    });
  });
}

/** Why a program did not start; `named`: the system's opener, which the warning names only here. */
function describe(error: unknown, named = false): string {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  // The single executable runs the system's xdg-open (no copy of its own): say which is missing.
  if (code === 'ENOENT') return named && path ? `${path} was not found` : 'the program was not found';
  if (code === 'EACCES') return 'the program is not executable';
  return error instanceof Error ? error.message : String(error);
}

/** Linux outside WSL without an X11 or Wayland display (an SSH session, a container): no browser. */
function lacksDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux') return false;
  if (env.WSL_DISTRO_NAME || env.WSL_INTEROP) return false;
  return !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

/**
 * Tries to open `url` in a browser. Resolves `true` when a program was started (it may still fail
 * later; its non-zero exit is reported through `warn`), `false` when nothing was started.
 */
export async function openBrowser(url: string, options: OpenBrowserOptions): Promise<boolean> {
  const { env, warn } = options;
  if (!isSafeToOpen(url)) {
    warn('not opening a browser for a URL that is neither https:// nor loopback http://');
    return false;
  }
  const program = env.BROWSER?.trim();
  const via = program ? `BROWSER (${program})` : 'the system browser';
  if (!program && lacksDisplay(options.platform ?? process.platform, env)) {
    warn('no display to open a browser on (DISPLAY and WAYLAND_DISPLAY are unset); open the URL yourself');
    return false;
  }
  let child: ChildProcess;
  try {
    child = program
      ? await launchBrowserVariable(program, url)
      : await (options.launch ?? launchWithOpen)(url);
  } catch (error) {
    warn(`could not open ${via}: ${describe(error, !program)}; open the URL yourself`);
    return false;
  }
  // The opener (xdg-open, open, a BROWSER script) exits soon; a non-zero status means no browser.
  child.once('error', (error) =>
    warn(`could not open ${via}: ${describe(error, !program)}; open the URL yourself`),
  );
  child.once('exit', (code) => {
    if (code !== null && code !== 0) {
      warn(`could not open ${via} (it exited with status ${code}); open the URL yourself`);
    }
  });
  child.unref();
  return true;
}
