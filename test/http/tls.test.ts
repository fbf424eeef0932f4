/**
 * TLS against a real node:https server with a self-signed certificate made by openssl in a temp dir
 * (docs/contract.md §2.4): verification always on, a failure names --ca-file / NODE_EXTRA_CA_CERTS, and either
 * of them makes the same request succeed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, InputError } from '../../src/errors.js';
import { NetworkError } from '../../src/http/network-error.js';
import { sendRequest } from '../../src/http/request.js';
import { described } from '../helpers/described.js';
import { opensslMissing, selfSignedCertificate } from '../helpers/openssl.js';
import { json, type LoopbackServer, startServer, testHttp } from './loopback-server.js';

describe.skipIf(opensslMissing !== undefined)(
  `TLS${opensslMissing === undefined ? '' : ` (skipped: ${opensslMissing}, so no test certificate can be made)`}`,
  () => {
    let dir: string;
    let certFile: string;
    let server: LoopbackServer;
    const savedExtra = process.env.NODE_EXTRA_CA_CERTS;

    beforeAll(async () => {
      const files = selfSignedCertificate('/CN=127.0.0.1', ['-addext', 'subjectAltName=IP:127.0.0.1']);
      dir = files.dir;
      certFile = files.certFile;
      const keyFile = files.keyFile;
      server = await startServer((_req, res) => json(res, 200, { ok: true }), {
        key: readFileSync(keyFile),
        cert: readFileSync(certFile),
      });
    });
    afterAll(async () => {
      await server?.close();
    });
    afterEach(() => {
      if (savedExtra === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = savedExtra;
    });

    const get = () => ({
      method: 'GET' as const,
      url: new URL(`${server.origin}/v2/oauth/tokeninfo`),
      retry: true,
    });

    it('refuses an untrusted certificate: exit 5, hint naming --ca-file and NODE_EXTRA_CA_CERTS, no retry', async () => {
      delete process.env.NODE_EXTRA_CA_CERTS;
      const http = testHttp();
      const error = await sendRequest(http, get()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      const e = error as NetworkError;
      expect(exitCodeOf(e)).toBe(ExitCode.unavailable);
      expect(e.failure).toBe('tls');
      expect(e.systemCode).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(e.message).toBe(
        `the TLS certificate of ${server.origin} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      expect(hintFor(e)).toContain('--ca-file FILE');
      expect(hintFor(e)).toContain('NODE_EXTRA_CA_CERTS=FILE');
      expect(http.slept).toStrictEqual([]);
    });

    it('succeeds with --ca-file', async () => {
      delete process.env.NODE_EXTRA_CA_CERTS;
      const res = await sendRequest(testHttp({ caFile: certFile }), get());
      expect(res.status).toBe(200);
    });

    it('succeeds with NODE_EXTRA_CA_CERTS', async () => {
      process.env.NODE_EXTRA_CA_CERTS = certFile;
      const res = await sendRequest(testHttp(), get());
      expect(res.status).toBe(200);
    });

    it('still checks the host name with the CA trusted', async () => {
      delete process.env.NODE_EXTRA_CA_CERTS;
      const url = new URL(`https://localhost:${server.port}/v2/oauth/tokeninfo`);
      const error = await sendRequest(testHttp({ caFile: certFile }), {
        method: 'GET',
        url,
        retry: false,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).systemCode).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
      expect((error as NetworkError).message).toBe(
        `the TLS certificate of https://localhost:${server.port} does not match its host name (ERR_TLS_CERT_ALTNAME_INVALID)`,
      );
    });

    it('reports a missing or non-PEM ca-file as a usage error (exit 2) before connecting', async () => {
      delete process.env.NODE_EXTRA_CA_CERTS;
      const before = server.requests.length;
      const missing = join(dir, 'missing.pem');
      const error = await sendRequest(testHttp({ caFile: missing }), get()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect(exitCodeOf(error as InputError)).toBe(ExitCode.usage);
      expect(described(error).message).toBe(`the CA certificate file ${missing} (--ca-file) does not exist`);

      const junk = join(dir, 'junk.pem');
      writeFileSync(junk, 'not a certificate\n');
      const notPem = await sendRequest(testHttp({ caFile: junk }), get()).catch((e: unknown) => e);
      expect(described(notPem).message).toBe(
        `the CA certificate file ${junk} (--ca-file) holds no PEM certificate`,
      );

      process.env.NODE_EXTRA_CA_CERTS = missing;
      const fromEnv = await sendRequest(testHttp(), get()).catch((e: unknown) => e);
      expect(described(fromEnv).message).toBe(
        `the CA certificate file ${missing} (NODE_EXTRA_CA_CERTS) does not exist`,
      );
      expect(server.requests.length).toBe(before);
    });
  },
);
