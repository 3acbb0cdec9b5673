import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** Certificates made at test time: a private CA and leaves signed by it (or self-signed). */
export interface Pem {
  cert: string;
  key: string;
}

const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    key: privateKey,
    forgePublic: forge.pki.publicKeyFromPem(publicKey),
    forgePrivate: forge.pki.privateKeyFromPem(privateKey),
  };
};

const build = (opts: {
  cn: string;
  hosts?: string[];
  notBefore: Date;
  notAfter: Date;
  isCa?: boolean;
  issuer?: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey };
}) => {
  const kp = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = kp.forgePublic;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = opts.notBefore;
  cert.validity.notAfter = opts.notAfter;
  const subject = [{ name: 'commonName', value: opts.cn }];
  cert.setSubject(subject);
  cert.setIssuer(opts.issuer ? opts.issuer.cert.subject.attributes : subject);
  const ext: object[] = [{ name: 'basicConstraints', cA: !!opts.isCa }];
  if (opts.isCa) ext.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  if (opts.hosts) {
    ext.push({
      name: 'subjectAltName',
      altNames: opts.hosts.map((h) => (/^[\d.]+$/.test(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    });
  }
  cert.setExtensions(ext);
  cert.sign(opts.issuer?.key ?? kp.forgePrivate, forge.md.sha256.create());
  return { cert, forgeKey: kp.forgePrivate, pem: { cert: forge.pki.certificateToPem(cert), key: kp.key } };
};

const DAY = 86_400_000;

export const makeCa = (now = new Date()) => {
  const ca = build({
    cn: 'Lookout Test CA',
    isCa: true,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + 3650 * DAY),
  });
  return {
    pem: ca.pem,
    /** A leaf for `hosts`, valid from yesterday for `days` days. */
    leaf(hosts: string[], days = 365): Pem {
      return build({
        cn: hosts[0]!,
        hosts,
        notBefore: new Date(now.getTime() - DAY),
        notAfter: new Date(now.getTime() + days * DAY),
        issuer: { cert: ca.cert, key: ca.forgeKey },
      }).pem;
    },
  };
};

/** A self-signed leaf no one trusts. */
export const selfSigned = (hosts: string[], now = new Date()): Pem =>
  build({
    cn: hosts[0]!,
    hosts,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + 30 * DAY),
  }).pem;
