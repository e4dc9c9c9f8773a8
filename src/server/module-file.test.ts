import { describe, expect, it } from 'vitest';
import { siblingModuleUrl } from './module-file.ts';

describe('siblingModuleUrl', () => {
  it('names the compiled sibling from compiled code and the source sibling from the sources', () => {
    expect(siblingModuleUrl('file:///app/dist/node/src/server/front/main.js', './site').href).toBe(
      'file:///app/dist/node/src/server/front/site.js',
    );
    expect(siblingModuleUrl('file:///app/src/server/front/main.ts', './site').href).toBe('file:///app/src/server/front/site.ts');
    // Inside Astro's bundle (.mjs chunks) the sources' name is kept, as before.
    expect(siblingModuleUrl('file:///app/dist/server/chunks/a.mjs', './worker').href).toBe(
      'file:///app/dist/server/chunks/worker.ts',
    );
  });
});
