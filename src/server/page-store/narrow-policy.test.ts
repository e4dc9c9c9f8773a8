import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { narrowAnswerPolicy, narrowPolicy } from './narrow-policy.ts';

const sha = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const SCRIPT = 'document.title = "Échelle · 数学 — ✓"';
const OTHER = 'console.log("ß")';
const STYLE = 'q::before{content:"« "}';
const POLICY = `default-src 'self'; script-src 'self' ${sha(SCRIPT)} ${sha(OTHER)}; style-src 'self' ${sha(STYLE)}`;
const page = (script: string) =>
  `<!DOCTYPE html><html lang="fr"><head><style>${STYLE}</style></head><body><p>Ça va ? 你好</p><script>${script}</script></body></html>\n`;

function narrowed(html: string, policy = POLICY): string {
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy };
  narrowAnswerPolicy(headers, Buffer.from(html, 'utf8'));
  return headers['content-security-policy'];
}

describe('narrowAnswerPolicy', () => {
  it('keeps the hashes of inline texts written in any script, as the UTF-8 reading of the page would', () => {
    expect(narrowed(page(SCRIPT))).toBe(`default-src 'self';script-src 'self' ${sha(SCRIPT)};style-src 'self' ${sha(STYLE)}`);
    expect(narrowed(page(SCRIPT))).toBe(narrowPolicy(POLICY, page(SCRIPT)));
    expect(narrowed(page(OTHER))).toBe(narrowPolicy(POLICY, page(OTHER)));
    expect(narrowed(page(OTHER))).toContain(sha(OTHER));
    expect(narrowed(page(OTHER))).not.toContain(sha(SCRIPT));
  });

  it('answers each page by its own content when pages follow one another', () => {
    const changed = `${SCRIPT} `;
    expect(narrowed(page(changed))).toBe(`default-src 'self';script-src 'self';style-src 'self' ${sha(STYLE)}`);
    expect(narrowed(page(SCRIPT))).toContain(sha(SCRIPT));
    expect(narrowed(page(SCRIPT), POLICY.replace(sha(STYLE), ''))).toBe(
      `default-src 'self';script-src 'self' ${sha(SCRIPT)};style-src 'self'`,
    );
  });

  it('leaves anything but a whole HTML document with its policy', () => {
    expect(narrowed(page(SCRIPT).replace('</html>', ''))).toBe(POLICY);
    const json = { 'content-type': 'application/json', 'content-security-policy': POLICY };
    narrowAnswerPolicy(json, Buffer.from(page(SCRIPT)));
    expect(json['content-security-policy']).toBe(POLICY);
  });
});
