import { describe, expect, it } from 'vitest';
import { isAllowedHost, normalizeHost, readHostRules } from './host-check.ts';

describe('host rules', () => {
  const local = readHostRules('http://127.0.0.1:4321');
  const site = readHostRules('https://notes.example.org');

  it('normalizes a Host value to name:port, lower case, the default port filled in', () => {
    expect(normalizeHost('Notes.Example.org', '443')).toBe('notes.example.org:443');
    expect(normalizeHost('notes.example.org:0443', '443')).toBe('notes.example.org:443');
    expect(normalizeHost('[::1]:80', '80')).toBe('[::1]:80');
    for (const bad of ['', 'a b', 'evil/x', 'user@host', 'host:port', 'host:123456'])
      expect(normalizeHost(bad, '80'), bad).toBeNull();
  });

  it('accepts the public host with or without its default port', () => {
    expect(isAllowedHost(normalizeHost('notes.example.org', '443'), site, '127.0.0.1', 4321)).toBe(true);
    expect(isAllowedHost(normalizeHost('notes.example.org:443', '443'), site, '127.0.0.1', 4321)).toBe(true);
    expect(isAllowedHost(normalizeHost('notes.example.org:8443', '443'), site, '127.0.0.1', 4321)).toBe(false);
  });

  it('accepts the address and port the connection arrived on, and localhost only on loopback', () => {
    expect(isAllowedHost('127.0.0.1:4321', site, '127.0.0.1', 4321)).toBe(true);
    expect(isAllowedHost('localhost:4321', site, '127.0.0.1', 4321)).toBe(true);
    expect(isAllowedHost('[::1]:4321', site, '::1', 4321)).toBe(true);
    expect(isAllowedHost('127.0.0.1:4321', site, '::ffff:127.0.0.1', 4321)).toBe(true);
    expect(isAllowedHost('192.168.1.5:4321', local, '192.168.1.5', 4321)).toBe(true);
    expect(isAllowedHost('localhost:4321', local, '192.168.1.5', 4321)).toBe(false);
    expect(isAllowedHost('127.0.0.1:9999', local, '127.0.0.1', 4321)).toBe(false);
  });

  it('refuses every other name, including one that resolves to us (DNS rebinding)', () => {
    for (const host of ['evil.example:4321', 'rebind.attacker.test:4321', 'notes.example.org.evil:443', null]) {
      expect(isAllowedHost(host, local, '127.0.0.1', 4321), String(host)).toBe(false);
      expect(isAllowedHost(host, site, '127.0.0.1', 4321), String(host)).toBe(false);
    }
  });
});
