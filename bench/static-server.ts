// The yardstick: a minimal Node server answering one file's bytes, as a plain static server would.
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2]!);
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, ETag: '"static"' });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
