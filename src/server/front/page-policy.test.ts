import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { narrowPolicy, narrowPolicyOfAnswer } from './page-policy.ts';

const sha = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const RUNS = 'console.log(1)';
const UNUSED = 'console.log(2)';
const STYLE = 'a{color:red}';
const POLICY = `default-src 'self';frame-ancestors 'none'; script-src 'self' ${sha(RUNS)} ${sha(UNUSED)}; script-src-attr 'none'; style-src 'self' ${sha(STYLE)} ${sha('')}; style-src-attr 'unsafe-inline';`;
const PAGE = `<!DOCTYPE html><html><head><style>${STYLE}</style><script type="application/ld+json">{"a":1}</script></head><body><script type="module">${RUNS}</script><script src="/_astro/x.js"></script></body></html>`;

describe('narrowPolicy', () => {
  it('keeps the hashes of the inline scripts and styles the page has, and every other source', () => {
    const narrowed = narrowPolicy(POLICY, PAGE);
    expect(narrowed).toBe(
      `default-src 'self';frame-ancestors 'none';script-src 'self' ${sha(RUNS)};script-src-attr 'none';style-src 'self' ${sha(STYLE)};style-src-attr 'unsafe-inline'`,
    );
    expect(narrowed.length).toBeLessThan(POLICY.length);
  });

  it('never adds a source: a page script the build did not hash stays blocked', () => {
    expect(narrowPolicy(POLICY, '<html><script>alert(1)</script></html>')).not.toContain(sha('alert(1)'));
  });

  it("writes 'none' for a directive that held only hashes, and leaves a policy without hashes alone", () => {
    expect(narrowPolicy(`script-src-attr ${sha(UNUSED)}; script-src 'self' ${sha(RUNS)}`, `<script>${RUNS}</script>`)).toBe(
      `script-src-attr 'none';script-src 'self' ${sha(RUNS)}`,
    );
    expect(narrowPolicy("default-src 'none'; frame-ancestors 'none'", PAGE)).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('gives pages with the same inline content the same string', () => {
    expect(narrowPolicy(POLICY, PAGE)).toBe(narrowPolicy(POLICY, PAGE.replace('<body>', '<body><p>other text</p>')));
  });
});

describe('narrowPolicyOfAnswer', () => {
  it('narrows the policy of an HTML answer written head first, and leaves other answers alone', async () => {
    const server = http.createServer((req, res) => {
      narrowPolicyOfAnswer(res);
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-security-policy': POLICY });
        res.end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': POLICY });
      if (req.url === '/cut') return void res.end('<html><body><p>cut short');
      if (req.url === '/parts') res.write('<html><body>');
      res.write(Buffer.from(req.url === '/parts' ? `<script>${RUNS}</script></body></html>` : PAGE));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${origin}/`);
      expect(await page.text()).toBe(PAGE);
      expect(page.headers.get('content-security-policy')).toBe(narrowPolicy(POLICY, PAGE));
      // A document written in several chunks is narrowed as a whole.
      const parts = await fetch(`${origin}/parts`);
      expect(await parts.text()).toBe(`<html><body><script>${RUNS}</script></body></html>`);
      expect(parts.headers.get('content-security-policy')).toBe(narrowPolicy(POLICY, `<script>${RUNS}</script>`));
      // Anything but a whole document keeps the build's policy rather than guess.
      expect((await fetch(`${origin}/cut`)).headers.get('content-security-policy')).toBe(POLICY);
      expect((await fetch(`${origin}/json`)).headers.get('content-security-policy')).toBe(POLICY);
    } finally {
      server.close();
    }
  });
});
