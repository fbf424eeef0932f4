/**
 * The paste fallback of docs/contract.md §2.5: with the browser on another machine (SSH, a container),
 * the redirect to 127.0.0.1 fails there, but its URL is in the address bar. On a terminal the
 * user may paste that URL (its `state` is checked like the listener checks it) or the bare code.
 */

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type CallbackOutcome, interpretCallback } from './callback-params.js';

/** What one pasted line means. */
export type PasteOutcome = CallbackOutcome | { kind: 'empty' } | { kind: 'invalid'; reason: string };

// A bare code is printable ASCII without spaces (RFC 6749 Appendix A.11 minus space, which a
// terminal paste would only add by accident).
const BARE_CODE = /^[\x21-\x7e]{1,4096}$/;

/**
 * Judges one pasted line: a full redirect URL, its query (`?code=…&state=…`), or a bare code.
 * A URL or query must carry this login's state; a bare code is taken as it is (the person pasting
 * it is the one who logged in).
 */
export function interpretPaste(line: string, expectedState: string): PasteOutcome {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { kind: 'invalid', reason: 'that is not a valid URL' };
    }
    return interpretCallback(url.searchParams, expectedState);
  }
  if (text.startsWith('?') || /(^|&)(code|state|error)=/.test(text)) {
    return interpretCallback(new URLSearchParams(text), expectedState);
  }
  if (BARE_CODE.test(text)) return { kind: 'code', code: text };
  return { kind: 'invalid', reason: 'that is neither a URL nor a code' };
}

export interface PastePromptOptions {
  /** The terminal's input; only used when stdin is a terminal (docs/contract.md §2.5). */
  input: Readable;
  expectedState: string;
  /** Tells the user why a line was not accepted; the prompt keeps reading. */
  warn: (line: string) => void;
  /** Stops reading (the listener won, the flow timed out, Ctrl-C). */
  signal: AbortSignal;
}

/**
 * Reads lines until one yields a code (resolves with it) or an `error=…` with the right state
 * (rejects with the flow's error). Never settles after end of input or abort; the caller races it.
 */
export function waitForPastedCode(options: PastePromptOptions): Promise<string> {
  const { input, expectedState, warn, signal } = options;
  return new Promise<string>((resolve, reject) => {
    if (signal.aborted) return;
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    const stop = () => {
      signal.removeEventListener('abort', stop);
      lines.close();
      // readline pauses its input on close; a paused stdin no longer keeps the process alive.
      input.pause();
    };
    signal.addEventListener('abort', stop, { once: true });
    lines.on('line', (line) => {
      const outcome = interpretPaste(line, expectedState);
      switch (outcome.kind) {
        case 'empty':
          return;
        case 'invalid':
          return warn(`${outcome.reason}; paste the whole URL from the browser's address bar, or the code`);
        case 'wrong-state':
          return warn(
            'that URL does not carry the state of this login; paste the URL of the tab this login opened',
          );
        case 'error':
          stop();
          return reject(outcome.error);
        case 'code':
          stop();
          return resolve(outcome.code);
      }
    });
  });
}
