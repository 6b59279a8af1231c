// `require('terminating/cucumber')`: cucumber configuration for a project that installed terminating
// (`npx terminating init` writes a cucumber.cjs that uses it). Plain CommonJS: cucumber loads its
// configuration before any TypeScript loader.
'use strict';
const path = require('node:path');

const ROOT = __dirname;
/** Glob patterns take forward slashes. */
const inPackage = (...parts) => path.join(ROOT, ...parts).split(path.sep).join('/');

/** Where the report files go, relative to the project: the project's report page and cucumber's own reports. */
function reports(dir = 'reports') {
  return [
    `${inPackage('src', 'frontends', 'report', 'formatter.cjs')}:${dir}/report.html`,
    `html:${dir}/cucumber-report.html`,
    `json:${dir}/cucumber-report.json`,
    `junit:${dir}/junit.xml`,
    `message:${dir}/cucumber-messages.ndjson`,
  ];
}

/**
 * One cucumber profile: the package's step library and support (steps/, with the TypeScript loader),
 * then the project's own support code (`support`, default every .js/.cjs/.ts file under features/,
 * loaded after the package's so its World can extend TerminatingWorld), progress on the console and
 * the reports in reports/. The features are cucumber's default paths (every .feature file under
 * features/) or the paths given to `terminating test`. Anything given overrides.
 */
function profile(overrides = {}) {
  const { support = ['features/**/*.{js,cjs,ts}'], ...rest } = overrides;
  return {
    requireModule: [require('./scripts/ts-hook').path],
    require: [inPackage('steps', '{definitions,support}', '**', '!(*.test).ts'), ...support],
    // A feature file with a Gherkin syntax error fails as a stand-in scenario; the rest still runs.
    plugin: [inPackage('scripts', 'gherkin-errors-plugin.cjs')],
    formatOptions: { printAttachments: false },
    format: ['progress', ...reports()],
    ...rest,
  };
}

module.exports = { profile, reports };
