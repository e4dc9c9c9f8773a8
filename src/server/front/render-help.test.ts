import { describe, expect, it } from 'vitest';
import { createRenderHelp, type RenderHelp, type RenderHelpMessage } from './render-help.ts';

/** Two processes and the first process between them, relaying as cluster-primary.ts does. */
function twoProcesses(options: { helperAnswers?: boolean } = {}) {
  const rendered = { asker: [] as string[], helper: [] as string[] };
  const processes: RenderHelp[] = [];
  const relay = (from: number) => (message: RenderHelpMessage) => {
    queueMicrotask(() => {
      if (message.type === 'render-helped') return processes[message.to!]!.onMessage(message);
      if (options.helperAnswers === false) return;
      processes[1 - from]!.onMessage({ ...message, from });
    });
  };
  for (const [index, name] of [
    [0, 'asker'],
    [1, 'helper'],
  ] as const) {
    processes.push(
      createRenderHelp({
        renderHere: async (keys) => void rendered[name].push(...keys),
        send: relay(index),
        timeoutMs: 50,
      }),
    );
  }
  return { asker: processes[0]!, rendered };
}

describe('createRenderHelp', () => {
  it('renders every other hot page on another process and answers once both halves are done', async () => {
    const { asker, rendered } = twoProcesses();
    expect(await asker.warm(['/blog/1', '/', '/blogs', '/blogs?category=2'])).toEqual({ elsewhere: 2 });
    expect(rendered).toEqual({ asker: ['/blog/1', '/blogs'], helper: ['/', '/blogs?category=2'] });
  });

  it('renders everything itself when serving alone or with a single page', async () => {
    const rendered: string[] = [];
    const alone = createRenderHelp({ renderHere: async (keys) => void rendered.push(...keys), send: null });
    expect(await alone.warm(['/blog/1', '/'])).toEqual({ elsewhere: 0 });
    expect(rendered).toEqual(['/blog/1', '/']);
    const { asker, rendered: two } = twoProcesses();
    expect(await asker.warm(['/blog/1'])).toEqual({ elsewhere: 0 });
    expect(two.helper).toEqual([]);
  });

  it('renders the helper half itself when no process could help or none answered in time', async () => {
    const { asker, rendered } = twoProcesses({ helperAnswers: false });
    expect(await asker.warm(['/blog/1', '/'])).toEqual({ elsewhere: 0 });
    expect(rendered.asker).toEqual(['/blog/1', '/']);

    const rendered2: string[] = [];
    const refused = createRenderHelp({
      renderHere: async (keys) => void rendered2.push(...keys),
      send: (message) => {
        if (message.type === 'render-help')
          queueMicrotask(() => refused.onMessage({ type: 'render-helped', id: message.id, done: false }));
      },
    });
    expect(await refused.warm(['/blog/1', '/'])).toEqual({ elsewhere: 0 });
    expect(rendered2).toEqual(['/blog/1', '/']);
  });

  it('ignores messages that are not its own', () => {
    const help = createRenderHelp({ renderHere: async () => {}, send: () => {} });
    expect(() => help.onMessage({ type: 'listening' })).not.toThrow();
    expect(() => help.onMessage(null)).not.toThrow();
  });
});
