/**
 * Loads `.ts` files at run time by stripping their types with swc (no TypeScript compiler, no type
 * check: that is `npm run typecheck`). Use it as `node --require ./scripts/ts-hook.js file.ts`, in
 * cucumber's `requireModule`, or `require()` it; its path is `require('./scripts/ts-hook').path`.
 *
 * Each file is compiled once per process with an inline source map, and Node's own source-map
 * support is switched on so stack traces (and cucumber's step-definition locations, which the
 * step catalogue reads) point at the TypeScript lines.
 */
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const OPTIONS = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  swcrc: false,
  configFile: false,
};

if (!Module._extensions['.ts']) {
  const { transformSync } = require('@swc/core');
  process.setSourceMapsEnabled(true);
  Module._extensions['.ts'] = function loadTypeScript(module, filename) {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
    module._compile(code, filename);
  };
}

module.exports = { path: __filename };
