/**
 * The in-process renderer src/fetch.ts registers once Astro's bundle is loaded: a `Request` in,
 * Astro's `Response` out, no socket in between. Undefined until the bundle is imported (and under
 * `astro dev`, where the page store is not used).
 */
export type AstroRender = (request: Request, locals?: Partial<App.Locals>) => Promise<Response>;

// Stays on globalThis: the bundle hands its renderer out as it is imported, and an import takes no constructor argument.
export const ASTRO_RENDER_KEY = Symbol.for('study-site.astro-render');

export function getAstroRender(): AstroRender | undefined {
  return (globalThis as { [ASTRO_RENDER_KEY]?: AstroRender })[ASTRO_RENDER_KEY];
}

export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  setsCookie: boolean;
  body: Buffer;
}

/** Renders one URL path through Astro in this thread (`locals`: added to the request's own). */
export async function renderInProcess(
  render: AstroRender,
  origin: string,
  key: string,
  locals?: Partial<App.Locals>,
): Promise<RenderedPage> {
  const response = await render(new Request(new URL(key, origin), { headers: { accept: 'text/html' } }), locals);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    status: response.status,
    headers,
    setsCookie: response.headers.getSetCookie().length > 0,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Tags a rendered answer declared, or null when it must not be stored (`status`: the one a stored page has). */
export function storableTags(rendered: Pick<RenderedPage, 'status' | 'headers' | 'setsCookie'>, status = 200): string[] | null {
  const header = rendered.headers['x-page-tags'];
  if (rendered.status !== status || !header || rendered.setsCookie) return null;
  const tags = header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return tags.length ? tags : null;
}
