import { astro, FetchState } from 'astro/fetch';
import { ASTRO_RENDER_KEY, type AstroRender } from './server/page-store/astro-render.ts';

/**
 * Astro 7's request entry point (config `fetchFile`). Besides answering requests as Astro would,
 * it hands the page store and the search worker an in-process renderer: `Request` in, `Response`
 * out, with no socket and no Node request conversion in between. `locals` are added to the
 * request's own (the search worker passes what the front server decided about a search).
 */
const render: AstroRender = (request, locals) => {
  const state = new FetchState(request);
  if (locals) Object.assign(state.locals, locals);
  return astro(state);
};
(globalThis as { [ASTRO_RENDER_KEY]?: AstroRender })[ASTRO_RENDER_KEY] = render;

export default { fetch: (request: Request) => render(request) };
