import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reactIslandsToString, withIslandOptions } from './react-islands-to-string.ts';

const require = createRequire(import.meta.url);
const rendererFile = path.join(path.dirname(require.resolve('@astrojs/react/package.json')), 'dist/server.js');

describe("React islands rendered to a string with Astro's id prefix", () => {
  it("passes the island's options to renderToString in the installed @astrojs/react", () => {
    const code = fs.readFileSync(rendererFile, 'utf8');
    const rewritten = reactIslandsToString().transform(code, rendererFile)!;
    expect(rewritten).toContain('ReactDOM.renderToString(vnode, renderOptions)');
    expect(rewritten).not.toContain('ReactDOM.renderToString(vnode)');
    // Only that call changes.
    expect(rewritten.replace('ReactDOM.renderToString(vnode, renderOptions)', 'ReactDOM.renderToString(vnode)')).toBe(code);
  });

  it('leaves every other module alone', () => {
    expect(reactIslandsToString().transform('ReactDOM.renderToString(vnode)', '/app/src/other.js')).toBeNull();
  });

  it('stops the build when the renderer no longer has the call it completes', () => {
    expect(() => withIslandOptions('const renderOptions = {}; html = ReactDOM.renderToString(node);')).toThrow(
      /@astrojs\/react's server renderer changed/,
    );
  });
});
