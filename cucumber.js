// Cucumber profiles. `npm run bdd` uses the default profile; `npm test` runs the ci profile.
const { featureFiles, scenariosRunningKubectl } = require('./scripts/feature-files');
const common = {
  // The console shows failures with their message (which carries the timeline); the report files hold the attachments.
  formatOptions: { printAttachments: false },
  // .ts support code is loaded through swc (scripts/ts-hook.js); type checking is `npm run typecheck`.
  requireModule: [require('./scripts/ts-hook').path],
  // Support code only: the step definitions and their support. The *.test.ts files beside them are
  // node:test suites, and steps/bad-input/ is the harness of steps/bad-input.test.ts (it needs chai,
  // a devDependency), so neither is loaded.
  require: ['steps/{definitions,support}/**/!(*.test).ts'],
  tags: 'not @wip',
  // A feature file with a Gherkin syntax error fails as a stand-in scenario; the rest still runs (scripts/gherkin-errors.ts).
  plugin: ['./scripts/gherkin-errors-plugin.cjs'],
};

const reports = [
  // The project's report: each scenario's steps, error and sequence diagram (docs/report.md).
  './src/frontends/report/formatter.cjs:reports/report.html',
  'html:reports/cucumber-report.html',
  'json:reports/cucumber-report.json',
  'junit:reports/junit.xml',
  // Cucumber's own message stream (NDJSON), for tools: every pickle, step, result and attachment.
  'message:reports/cucumber-messages.ndjson',
];

module.exports = {
  // Every feature, features/local/ (one's own scenarios) included.
  default: { ...common, format: ['progress', ...reports] },
  // What `npm test` runs: the project's features, without features/local/.
  ci: { ...common, paths: featureFiles('features', { local: false }), format: ['progress', ...reports] },
  // No report files: for tests that run cucumber on a feature of their own.
  summary: { ...common, format: ['summary'] },
  // Scenarios parked because the simulation still disagrees with upstream: npx cucumber-js -p wip
  wip: { ...common, tags: '@wip', format: ['progress'] },
  // Every scenario that runs kubectl, with the pinned real kubectl (v1.36, the default release's) over the HTTP API instead of
  // the built-in one. @built-in-kubectl-only marks the few it cannot run, each with its reason;
  // @real-kubectl-differential the few whose kubectl line the differential test already runs with the
  // real kubectl, request for request (src/frontends/kubectl/differential-lines.ts says when).
  'real-kubectl': {
    ...common,
    paths: scenariosRunningKubectl(),
    tags: 'not @wip and not @built-in-kubectl-only and not @real-kubectl-differential',
    worldParameters: { kubectl: 'real' },
    format: ['summary'],
  },
  // `npm run scenario -- FILE[:LINE]`: one feature or scenario, its reports in reports/scenarios/NAME/ (scripts/scenario.ts adds them), the suite's left alone.
  scenario: { ...common, format: ['progress'] },
  snippets: { ...common, dryRun: true, format: ['snippets'], formatOptions: { snippetInterface: 'synchronous' } },
  usage: { ...common, dryRun: true, format: ['usage'] },
};
