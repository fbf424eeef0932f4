import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { encodeSamlInput } from '../../src/saml/encode-input.js';

const XML = '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x"/>';
const B64 = Buffer.from(XML).toString('base64');
const opts = { maxBytes: 256 * 1024 };

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeOf(error as UsageError)).toBe(ExitCode.usage);
    return error as UsageError;
  }
  throw new Error('no error');
}

describe('encodeSamlInput', () => {
  it('base64-encodes raw XML', () => {
    expect(encodeSamlInput(XML, opts)).toBe(B64);
    expect(encodeSamlInput(Buffer.from(XML), opts)).toBe(B64);
  });

  it('drops a byte-order mark and leading whitespace before the XML', () => {
    expect(encodeSamlInput(`\ufeff \n${XML}\n`, opts)).toBe(Buffer.from(`${XML}\n`).toString('base64'));
  });

  it('passes base64 through with line breaks and spaces removed', () => {
    const wrapped = `${(B64.match(/.{1,20}/g) ?? []).join('\r\n ')}\n`;
    expect(encodeSamlInput(wrapped, opts)).toBe(B64);
  });

  it('accepts base64 of XML preceded by a byte-order mark, and drops the mark', () => {
    const withBom = Buffer.from(`\ufeff${XML}`).toString('base64');
    expect(encodeSamlInput(withBom, opts)).toBe(B64);
  });

  it('refuses text that is neither XML nor base64', () => {
    const error = usageError(() => encodeSamlInput('hello world!', { ...opts, label: 'response.txt' }));
    expect(error.message).toBe('response.txt is neither XML nor base64 of XML');
    expect(error.hint).toBe('pass the SAML XML as it is, or its standard base64 encoding');
  });

  it('refuses base64 of something that is not XML', () => {
    const error = usageError(() => encodeSamlInput(Buffer.from('{"json": true}').toString('base64'), opts));
    expect(error.message).toBe('the SAML input is neither XML nor base64 of XML');
  });

  it('refuses empty input', () => {
    expect(usageError(() => encodeSamlInput(' \n', { ...opts, label: 'stdin' })).message).toBe(
      'stdin is empty',
    );
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(usageError(() => encodeSamlInput(Buffer.from([0x3c, 0xff, 0xfe]), opts)).message).toBe(
      'the SAML input is not UTF-8 text',
    );
  });

  it('refuses XML over the limit', () => {
    const big = `<a>${'x'.repeat(2000)}</a>`;
    const error = usageError(() => encodeSamlInput(big, { maxBytes: 1024, label: 'big.xml' }));
    expect(error.message).toBe('big.xml is too large (2 KiB; the limit is 1 KiB)');
    expect(error.hint).toBe('pass a single SAML response or assertion, not a log or an archive');
  });

  it('refuses base64 whose XML is over the limit', () => {
    const big = Buffer.from(`<a>${'x'.repeat(1200)}</a>`).toString('base64');
    expect(usageError(() => encodeSamlInput(big, { maxBytes: 1024 })).message).toBe(
      'the SAML input is too large (2 KiB; the limit is 1 KiB)',
    );
  });

  it('refuses a huge input before decoding it', () => {
    const huge = Buffer.alloc(4 * 1024 * 1024, 'A');
    expect(usageError(() => encodeSamlInput(huge, opts)).message).toBe(
      'the SAML input is too large (4096 KiB; the limit is 256 KiB)',
    );
  });
});
