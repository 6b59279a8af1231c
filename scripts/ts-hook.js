/**
 * Loads `.ts` files at run time by stripping their types with swc (no TypeScript compiler, no type
 * check: that is `npm run typecheck`). Use it as `node --require ./scripts/ts-hook.js file.ts`, in
 * cucumber's `requireModule`, or `require()` it; its path is `require('./scripts/ts-hook').path`.
 *
 * Each file is compiled with a source map kept beside its output (a `.map` file the code names,
 * not an inline one: the code V8 keeps for every module is then not twice its size — 4 MB less
 * for the 10 000-pod bench), and Node's own source-map support is switched on so stack traces
 * (and cucumber's step-definition locations, which the step catalogue reads) point at the
 * TypeScript lines. The output is kept in node_modules/.cache/terminating-ts, named
 * by a hash of the swc version, the options, the file's path and its text, so a file is compiled
 * again only when one of them changes (every cucumber run and test process loads ~100 files).
 */
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const OPTIONS = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
  module: { type: 'commonjs' },
  sourceMaps: true,
  // The maps name the .ts files; Node reads a file's text from disk for the rare message that
  // quotes a source line, so the maps need not carry it (loading ~320 modules reads every map).
  inlineSourcesContent: false,
  swcrc: false,
  configFile: false,
};

const CACHE = path.join(__dirname, '..', 'node_modules', '.cache', 'terminating-ts');
// Read from its package.json: loading swc itself (a native module) is needed only on a cache miss.
const SWC_VERSION = JSON.parse(
  fs.readFileSync(path.join(path.dirname(require.resolve('@swc/core')), 'package.json'), 'utf8'),
).version;

/** Where the compiled form of this text of this file is kept. */
function cachedPath(source, filename) {
  const key = createHash('sha256')
    .update(`${SWC_VERSION}\0${JSON.stringify(OPTIONS)}\0${filename}\0${source}`)
    .digest('hex');
  return path.join(CACHE, `${key}.js`);
}

/** The JavaScript for one .ts file, from the cache or compiled (and then cached). */
function compile(source, filename) {
  const cached = cachedPath(source, filename);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const { code: compiled, map } = require('@swc/core').transformSync(source, { ...OPTIONS, filename });
    // Relative to the .ts file, which Node resolves it against (it ignores an absolute file: URL here).
    const mapURL = path
      .relative(path.dirname(filename), `${cached}.map`)
      .split(path.sep)
      .map(encodeURIComponent)
      .join('/');
    const code = `${compiled}\n//# sourceMappingURL=${mapURL}`;
    try {
      // Written under unique names, then renamed (the map first): processes running side by side never read half a file.
      fs.mkdirSync(CACHE, { recursive: true });
      for (const [file, text] of [
        [`${cached}.map`, map],
        [cached, code],
      ]) {
        const partial = `${file}.${process.pid}`;
        fs.writeFileSync(partial, text);
        fs.renameSync(partial, file);
      }
    } catch {
      // A read-only checkout still runs, compiling each time.
    }
    return code;
  }
}

if (!Module._extensions['.ts']) {
  process.setSourceMapsEnabled(true);
  Module._extensions['.ts'] = function loadTypeScript(module, filename) {
    module._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
  };
}

module.exports = { path: __filename, cachedPath };
