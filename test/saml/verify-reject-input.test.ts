/**
 * Refusals that happen before any signature work: size, encoding, DTDs and entities, several
 * roots, trailing content, comments and processing instructions (docs/contract.md §3).
 */
import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import { signAssertion } from '../../src/saml/sign-assertion.js';
import {
  allElements,
  containsCommentOrInstruction,
  descendantElements,
  MAX_XML_DEPTH,
} from '../../src/saml/strict-xml.js';
import {
  assertionXml,
  b64,
  type KeyPair,
  mutate,
  refusalMessage,
  rsaKeyPair,
  USER,
  verifyOptions,
} from '../helpers/saml.js';

let idp: KeyPair;
let signed: string;
beforeAll(() => {
  idp = rsaKeyPair();
  signed = signAssertion(assertionXml(), { privateKeyPem: idp.privateKeyPem });
});

function refusal(value: string, overrides: Parameters<typeof verifyOptions>[1] = {}): string {
  return refusalMessage(value, verifyOptions(idp.publicKeyPem, overrides));
}

describe('verifySamlBearer refuses before parsing', () => {
  it('a value over the size limit', () => {
    const padded = mutate(signed, '</saml:Assertion>', `<!--${'x'.repeat(300 * 1024)}--></saml:Assertion>`);
    expect(refusal(b64(padded))).toBe('SAMLAssertion is larger than the 256 KiB accepted');
  });

  it('a value over a smaller configured limit, though it is valid', () => {
    expect(refusal(b64(signed), { maxBytes: 1024 })).toBe('SAMLAssertion is larger than the 1 KiB accepted');
  });

  it('text that is not base64', () => {
    expect(refusal(signed)).toBe('SAMLAssertion must be the base64 encoding of the XML');
    expect(refusal('')).toBe('SAMLAssertion must be the base64 encoding of the XML');
  });

  it('bytes that are not UTF-8', () => {
    const latin1 = Buffer.concat([Buffer.from('<a>'), Buffer.from([0xe9, 0xff]), Buffer.from('</a>')]);
    expect(refusal(latin1.toString('base64'))).toBe('SAMLAssertion does not decode to UTF-8 XML');
  });

  it('a DOCTYPE, even one without entities', () => {
    const withDoctype = `<!DOCTYPE saml:Assertion>${signed}`;
    expect(refusal(b64(withDoctype))).toBe(
      'SAMLAssertion: XML with a DOCTYPE or ENTITY declaration is not accepted',
    );
  });

  it('an internal entity standing in for the NameID', () => {
    const withEntity = `<!DOCTYPE a [<!ENTITY who "${USER}">]>${mutate(signed, `>${USER}<`, '>&who;<')}`;
    expect(refusal(b64(withEntity))).toBe(
      'SAMLAssertion: XML with a DOCTYPE or ENTITY declaration is not accepted',
    );
  });

  it('an external entity (XXE)', () => {
    const xxe = `<!doctype a [ <!entity x SYSTEM "file:///etc/passwd"> ]>${mutate(signed, `>${USER}<`, '>&x;<')}`;
    expect(refusal(b64(xxe))).toBe('SAMLAssertion: XML with a DOCTYPE or ENTITY declaration is not accepted');
  });
});

describe('verifySamlBearer refuses while parsing', () => {
  it('two root elements (CVE-2022-39353)', () => {
    expect(refusal(b64(`${signed}${assertionXml()}`))).toBe('SAMLAssertion: the XML is not well-formed');
  });

  it('text after the root element', () => {
    expect(refusal(b64(`${signed}trailing`))).toBe('SAMLAssertion: the XML is not well-formed');
  });

  it('an undeclared entity reference', () => {
    expect(refusal(b64(mutate(signed, `>${USER}<`, '>&who;<')))).toBe(
      'SAMLAssertion: the XML is not well-formed',
    );
  });

  it('an unbound namespace prefix', () => {
    expect(refusal(b64(mutate(signed, '<saml:Subject>', '<saml:Subject><x:y/>')))).toBe(
      'SAMLAssertion: the XML is not well-formed',
    );
  });

  it('a comment inside NameID (user@example.com<!---->.evil.com)', () => {
    // The IdP signed a NameID the attacker owns; exclusive c14n drops comments, so the signature
    // still verifies once the comment is in, while a naive reader would see demo@example.com.
    const attacker = signAssertion(assertionXml({ email: `${USER}.evil.com` }), {
      privateKeyPem: idp.privateKeyPem,
    });
    const split = mutate(attacker, `>${USER}.evil.com<`, `>${USER}<!---->.evil.com<`);
    const options = { isKnownUser: (email: string) => email === USER || email === `${USER}.evil.com` };
    expect(refusal(b64(split), options)).toBe(
      'SAMLAssertion: XML comments and processing instructions are not accepted',
    );
  });

  it('a comment inside DigestValue (CVE-2025-29775)', () => {
    const digest = signed.match(/<ds:DigestValue>([^<]+)</)?.[1] ?? '';
    const split = mutate(signed, digest, `${digest.slice(0, 10)}<!-- -->${digest.slice(10)}`);
    expect(refusal(b64(split))).toBe(
      'SAMLAssertion: XML comments and processing instructions are not accepted',
    );
  });

  it('a processing instruction inside the assertion', () => {
    const withPi = mutate(signed, '<saml:Subject>', '<?evil data?><saml:Subject>');
    expect(refusal(b64(withPi))).toBe(
      'SAMLAssertion: XML comments and processing instructions are not accepted',
    );
  });

  it('elements nested 6,000 deep (41 KiB), naming the limit', () => {
    const deep = `${'<x>'.repeat(6000)}${'</x>'.repeat(6000)}`;
    const nested = mutate(signed, '</saml:Subject>', `</saml:Subject>${deep}`);
    expect(refusal(b64(nested))).toBe(
      `SAMLAssertion: the XML nests elements more than ${MAX_XML_DEPTH} levels deep`,
    );
  });

  it('elements nested just over the limit, though the rest is a valid assertion', () => {
    // The assertion is level 1 and the appended chain starts at level 2.
    const chain = (n: number) => `${'<x>'.repeat(n)}${'</x>'.repeat(n)}`;
    const over = mutate(signed, '</saml:Subject>', `</saml:Subject>${chain(MAX_XML_DEPTH)}`);
    expect(refusal(b64(over))).toBe(
      `SAMLAssertion: the XML nests elements more than ${MAX_XML_DEPTH} levels deep`,
    );
    // One level less passes the depth check and fails only later, at the signature.
    const under = mutate(signed, '</saml:Subject>', `</saml:Subject>${chain(MAX_XML_DEPTH - 1)}`);
    expect(refusal(b64(under))).not.toContain('levels deep');
  });

  it.each([
    ['U+0085', '\u0085'],
    ['U+2028', '\u2028'],
  ])('a %s line end, which xmldom reads as a line feed', (_, c) => {
    const withNel = mutate(signed, `>${USER}<`, `>${USER}${c}<`);
    expect(refusal(b64(withNel))).toBe(
      'SAMLAssertion: XML with the line ends U+0085 or U+2028 is not accepted (XML parsers read them differently)',
    );
  });
});

describe('the XML walks', () => {
  it('do not recurse: 100,000 levels are walked without a stack overflow', () => {
    const depth = 100_000;
    const document = new DOMParser().parseFromString(
      `<r>${'<x>'.repeat(depth)}<!--c-->${'</x>'.repeat(depth)}</r>`,
      'application/xml',
    );
    const root = document.documentElement as NonNullable<typeof document.documentElement>;
    expect(containsCommentOrInstruction(root)).toBe(true);
    expect(allElements(root)).toHaveLength(depth + 1);
    expect(descendantElements(root, '', 'x')).toHaveLength(0);
  });
});
