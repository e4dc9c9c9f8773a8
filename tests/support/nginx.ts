import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from './ports.ts';

/**
 * Debian's nginx as the TLS terminator of a real deployment would sit in front of Varnish (plain
 * HTTP here): a minimal config in its own temp folder (pid, logs, temp paths), passing every
 * request, PURGE included, to Varnish on the same host, as an unguarded front proxy does.
 */

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file)) ?? null;

/** Why nginx cannot run here, or null when it can. */
export function nginxMissing(): string | null {
  return NGINX ? null : 'nginx is not installed (apt-get install -y nginx)';
}

export interface TestNginx {
  origin: string;
  stop: () => Promise<void>;
}

/**
 * `host`: the Host nginx hands on, as a real front passes the site's public name (the app answers
 * 421 to any other); by default the reader's own.
 */
export async function startNginx(upstreamPort: number, options: { host?: string } = {}): Promise<TestNginx> {
  if (!NGINX) throw new Error(nginxMissing()!);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-nginx-'));
  const port = await findFreePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Host ${options.host ? `"${options.host}"` : '$http_host'};
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
      # Workers may not write in this root-owned folder: answers are passed on from memory.
      proxy_max_temp_file_size 0;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}`);
    const answering = await fetch(`${origin}/healthz`).then(
      () => true,
      () => false,
    );
    if (answering) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
