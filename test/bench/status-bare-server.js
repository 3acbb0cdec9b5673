// The baseline of the status bench: bare node:http serving the bytes of the status page as the control
// plane served them (gzipped; read from the file named in argv[2]) with the same headers, 304 on a
// matching If-None-Match, nothing else.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const etag = process.argv[3];
const server = createServer((req, res) => {
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag, 'cache-control': 'public, max-age=5' });
    res.end();
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-encoding': 'gzip',
    vary: 'Accept-Encoding',
    'content-length': body.length,
    etag,
    'cache-control': 'public, max-age=5',
  });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
