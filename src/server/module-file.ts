/**
 * A module beside `base` (the caller's import.meta.url), named without its extension: `.js` when
 * the compiled server runs (`npm run build` writes it under dist/node/), `.ts` when the sources run.
 * Worker and child-process entry points are found this way, so both run the same code.
 */
export function siblingModuleUrl(base: string, name: string): URL {
  return new URL(`${name}${base.endsWith('.js') ? '.js' : '.ts'}`, base);
}
