/**
 * React islands rendered on the server in one synchronous call (`renderToString`), with the same
 * `identifierPrefix` Astro gives each island.
 *
 * By default `@astrojs/react` renders an island through React's web stream and reads it back as
 * text: on an article page (the comments island) that stream was about 6% of the render's CPU,
 * as much as React's render itself. Its own `experimentalDisableStreaming` calls
 * `renderToString(vnode)` without the options, so every island would render its `useId` ids
 * without the island's prefix (`r1`, `r2`...) and two islands of a page would share ids that the
 * browser, hydrating each with its prefix, would not find. This plugin passes the options that
 * the streaming path passes (React reads `identifierPrefix`; no island uses Astro's actions, so
 * there is no form state to lose, nor any Suspense to wait for).
 *
 * The build fails if `@astrojs/react` no longer has the call this rewrites: an upgrade must be
 * looked at, not silently rendered without prefixes.
 */

/** The call in `@astrojs/react/dist/server.js` this plugin completes. */
export const RENDER_TO_STRING_CALL = 'ReactDOM.renderToString(vnode)';

const REACT_SERVER_RENDERER = /[\\/]@astrojs[\\/]react[\\/]dist[\\/]server\.js$/;

/** `@astrojs/react`'s server renderer with the island's options passed to `renderToString`. */
export function withIslandOptions(code: string): string {
  const at = code.indexOf(RENDER_TO_STRING_CALL);
  if (at === -1 || code.indexOf(RENDER_TO_STRING_CALL, at + 1) !== -1 || !code.includes('const renderOptions = {'))
    throw new Error(
      `@astrojs/react's server renderer changed: expected one "${RENDER_TO_STRING_CALL}" after its renderOptions (scripts/react-islands-to-string.ts)`,
    );
  return code.replace(RENDER_TO_STRING_CALL, 'ReactDOM.renderToString(vnode, renderOptions)');
}

/** The Vite plugin; use with `react({ experimentalDisableStreaming: true })`. */
export function reactIslandsToString() {
  return {
    name: 'react-islands-to-string',
    enforce: 'pre' as const,
    transform(code: string, id: string): string | null {
      return REACT_SERVER_RENDERER.test(id.split('?')[0]!) ? withIslandOptions(code) : null;
    },
  };
}
