/**
 * Loads `.ts` files at run time by stripping their types with swc (no TypeScript compiler, no type
 * check: that is `npm run typecheck`). Use it as `node --require ./scripts/ts-hook.js file.ts`, in
 * cucumber's `requireModule`, or `require()` it; its path is `require('./scripts/ts-hook').path`.
 *
 * Each file is compiled with an inline source map, and Node's own source-map support is switched
 * on so stack traces (and cucumber's step-definition locations, which the step catalogue reads)
 * point at the TypeScript lines.
 *
 * The output is kept on disk (node_modules/.cache/terminating-ts/), under a hash of the swc
 * version, the options, the file's path and its text: `npm test` starts some 30 node processes
 * that load the same files, and swc (loading its native binding, then compiling) was a quarter
 * of each one's start-up. A changed file has another hash, so it is compiled again; swc itself
 * is loaded only then.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const OPTIONS = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  swcrc: false,
  configFile: false,
};

const CACHE = path.join(__dirname, '..', 'node_modules', '.cache', 'terminating-ts');

/** What the output depends on besides the file: swc's version and the options. */
const SALT = `${require('@swc/core/package.json').version}\n${JSON.stringify(OPTIONS)}\n`;

function compile(source, filename) {
  const key = crypto.createHash('sha256').update(SALT).update(filename).update('\n').update(source).digest('hex');
  const cached = path.join(CACHE, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // not compiled yet
  }
  const { code } = require('@swc/core').transformSync(source, { ...OPTIONS, filename });
  try {
    // Written aside and renamed: processes loading the same file at once never read half of it.
    fs.mkdirSync(CACHE, { recursive: true });
    const partial = `${cached}.${process.pid}`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, cached);
  } catch {
    // A read-only tree: compile each time.
  }
  return code;
}

if (!Module._extensions['.ts']) {
  process.setSourceMapsEnabled(true);
  Module._extensions['.ts'] = function loadTypeScript(module, filename) {
    module._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
  };
}

module.exports = { path: __filename };
