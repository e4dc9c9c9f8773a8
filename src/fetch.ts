import { astro, FetchState } from 'astro/fetch';
import { ASTRO_RENDER_KEY, type AstroRender } from './server/page-store/astro-render.ts';

/**
 * Astro 7's request entry point (config `fetchFile`). Besides answering requests as Astro would,
 * it hands the page store an in-process renderer: `Request` in, `Response` out, with no socket
 * and no Node request conversion in between.
 */
const render: AstroRender = (request) => astro(new FetchState(request));
(globalThis as { [ASTRO_RENDER_KEY]?: AstroRender })[ASTRO_RENDER_KEY] = render;

export default { fetch: render };
