import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * A throw-away certificate authority and a server certificate it signs, built with node:crypto
 * alone (no openssl binary): for tests that run a real HTTPS webhook server and give
 * kube-apiserver its CA as `caBundle`. X.509 v3 in DER (RFC 5280), ECDSA P-256 with SHA-256.
 */
export interface TestCertificates {
  /** The CA certificate, PEM (what a webhook configuration's caBundle carries, base64-encoded). */
  readonly caPem: string;
  /** The server's certificate and key, PEM, for https.createServer. */
  readonly certPem: string;
  readonly keyPem: string;
}

/** A CA and a server certificate for `dnsNames` (and 127.0.0.1), valid for a day from `now`. */
export function testCertificates(dnsNames: readonly string[], now = new Date()): TestCertificates {
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const server = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const caName = name('terminating test CA');
  const from = now;
  const to = new Date(now.getTime() + 24 * 3600_000);
  const caCert = certificate({
    serial: 1,
    issuer: caName,
    subject: caName,
    from,
    to,
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    extensions: [basicConstraints(true)],
  });
  const san = seq(
    ...dnsNames.map((d) => tagged(0x82, Buffer.from(d, 'ascii'))),
    tagged(0x87, Buffer.from([127, 0, 0, 1])),
  );
  const serverCert = certificate({
    serial: 2,
    issuer: caName,
    subject: name(dnsNames[0] ?? 'localhost'),
    from,
    to,
    publicKey: server.publicKey,
    signer: ca.privateKey,
    extensions: [basicConstraints(false), extension('2.5.29.17', san)],
  });
  return {
    caPem: pem('CERTIFICATE', caCert),
    certPem: pem('CERTIFICATE', serverCert),
    keyPem: server.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function certificate(c: {
  serial: number;
  issuer: Buffer;
  subject: Buffer;
  from: Date;
  to: Date;
  publicKey: KeyObject;
  signer: KeyObject;
  extensions: Buffer[];
}): Buffer {
  const algorithm = seq(oid('1.2.840.10045.4.3.2')); // ecdsa-with-SHA256
  const tbs = seq(
    tagged(0xa0, integer(2)), // v3
    integer(c.serial),
    algorithm,
    c.issuer,
    seq(utcTime(c.from), utcTime(c.to)),
    c.subject,
    c.publicKey.export({ type: 'spki', format: 'der' }),
    tagged(0xa3, seq(...c.extensions)),
  );
  const signature = sign('sha256', tbs, c.signer);
  return seq(tbs, algorithm, tagged(0x03, Buffer.concat([Buffer.from([0]), signature])));
}

function name(commonName: string): Buffer {
  return seq(tagged(0x31, seq(oid('2.5.4.3'), tagged(0x0c, Buffer.from(commonName, 'utf8')))));
}

function basicConstraints(ca: boolean): Buffer {
  return extension('2.5.29.19', ca ? seq(tagged(0x01, Buffer.from([0xff]))) : seq(), true);
}

function extension(id: string, value: Buffer, critical = false): Buffer {
  return seq(oid(id), ...(critical ? [tagged(0x01, Buffer.from([0xff]))] : []), tagged(0x04, value));
}

// ---- DER ----

function tagged(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

function seq(...items: Buffer[]): Buffer {
  return tagged(0x30, Buffer.concat(items));
}

function integer(n: number): Buffer {
  const bytes: number[] = [];
  do {
    bytes.unshift(n & 0xff);
    n >>= 8;
  } while (n > 0);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return tagged(0x02, Buffer.from(bytes));
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const v of rest) {
    const part: number[] = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) part.unshift((x & 0x7f) | 0x80);
    bytes.push(...part);
  }
  return tagged(0x06, Buffer.from(bytes));
}

function utcTime(d: Date): Buffer {
  const text = d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return tagged(0x17, Buffer.from(text, 'ascii'));
}

function pem(label: string, der: Buffer): string {
  const b64 = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
