// Cucumber profiles. `npm run bdd` uses the default profile; `npm test` runs the ci profile.
const common = {
  // The console shows failures with their message (which carries the timeline); the report files hold the attachments.
  formatOptions: { printAttachments: false },
  requireModule: ['ts-node/register/transpile-only'],
  // Support code only: the *.test.ts files beside it are node:test suites, not step definitions.
  require: ['steps/**/!(*.test).ts'],
  tags: 'not @wip',
};

const reports = [
  // The project's report: each scenario's steps, error and sequence diagram (README "Reading the report").
  './src/report/formatter.cjs:reports/report.html',
  'html:reports/cucumber-report.html',
  'json:reports/cucumber-report.json',
  'junit:reports/junit.xml',
];

module.exports = {
  default: { ...common, format: ['progress', ...reports] },
  ci: { ...common, format: ['progress', ...reports] },
  // No report files: for tests that run cucumber on a feature of their own.
  summary: { ...common, format: ['summary'] },
  // Scenarios parked because the simulation still disagrees with upstream: npx cucumber-js -p wip
  wip: { ...common, tags: '@wip', format: ['progress'] },
  snippets: { ...common, dryRun: true, format: ['snippets'], formatOptions: { snippetInterface: 'synchronous' } },
  usage: { ...common, dryRun: true, format: ['usage'] },
};
