// Node's own floor for `bench:wrk`: a bare node:http cluster of FLOOR_PROCESSES processes that
// answers every request with one page's exact bytes and headers (the built server's hot page, read
// from FLOOR_PAGE, a JSON file of { encoding: { headers, body (base64) } }). No store, no routing,
// no freshness: what Node's HTTP layer alone costs on this machine, beside ours and nginx.
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import { Buffer } from 'node:buffer';

const port = Number(process.env.FLOOR_PORT);
const processes = Number(process.env.FLOOR_PROCESSES ?? 1);
if (cluster.isPrimary) {
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on('exit', () => process.exit(1));
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const page = JSON.parse(fs.readFileSync(process.env.FLOOR_PAGE, 'utf8'));
  const answers = Object.fromEntries(
    Object.entries(page).map(([encoding, { headers, body }]) => [encoding, { headers, body: Buffer.from(body, 'base64') }]),
  );
  http
    .createServer((req, res) => {
      const answer = (/\bbr\b/.test(req.headers['accept-encoding'] ?? '') && answers.br) || answers.identity;
      res.writeHead(200, answer.headers);
      res.end(answer.body);
    })
    .listen(port, '127.0.0.1', () => process.send?.('listening'));
}
