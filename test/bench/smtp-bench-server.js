// The smtp bench's server (its own process, so its CPU is not the client's): smtp-server on a free
// loopback port, STARTTLS with the certificate in argv[2] (PEM files CERT,KEY). Prints `port=N`.
import { readFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

const [certFile, keyFile] = process.argv[2].split(',');
const server = new SMTPServer({
  authOptional: true,
  logger: false,
  banner: 'bench',
  cert: readFileSync(certFile),
  key: readFileSync(keyFile),
  closeTimeout: 100,
});
server.on('error', () => {});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port=${server.server.address().port}\n`);
});
