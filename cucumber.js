// Cucumber profiles. `npm run bdd` uses the default profile; `npm test` runs the ci profile.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const common = {
  // The console shows failures with their message (which carries the timeline); the report files hold the attachments.
  formatOptions: { printAttachments: false },
  // .ts support code is loaded through swc (scripts/ts-hook.js); type checking is `npm run typecheck`.
  requireModule: [require('./scripts/ts-hook').path],
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
  // Cucumber's own message stream (NDJSON), for tools: every pickle, step, result and attachment.
  'message:reports/cucumber-messages.ndjson',
];

/**
 * `file:line` of every scenario with a step that runs kubectl (\`When I run \`kubectl …\`\`), for
 * the real-kubectl profile. A Background with such a step selects its whole feature.
 */
function scenariosRunningKubectl(dir = 'features') {
  const selected = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.feature')).sort()) {
    const path = join(dir, file);
    let scenario;
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(Background|Feature|Rule):/.test(line)) scenario = /Background/.test(line) ? path : undefined;
      else if (/^\s*(Scenario|Scenario Outline|Scenario Template|Example):/.test(line)) scenario = `${path}:${i + 1}`;
      else if (scenario && /^\s*(Given|When|Then|And|But|\*)\s+I (try to )?run `kubectl /.test(line) && !selected.includes(scenario)) selected.push(scenario);
    });
  }
  return selected;
}

module.exports = {
  default: { ...common, format: ['progress', ...reports] },
  ci: { ...common, format: ['progress', ...reports] },
  // No report files: for tests that run cucumber on a feature of their own.
  summary: { ...common, format: ['summary'] },
  // Scenarios parked because the simulation still disagrees with upstream: npx cucumber-js -p wip
  wip: { ...common, tags: '@wip', format: ['progress'] },
  // Every scenario that runs kubectl, with the pinned real kubectl v1.33 over the HTTP API instead of
  // the built-in one. @built-in-kubectl-only marks the few it cannot run, each with its reason.
  'real-kubectl': {
    ...common,
    paths: scenariosRunningKubectl(),
    tags: 'not @wip and not @built-in-kubectl-only',
    worldParameters: { kubectl: 'real' },
    format: ['summary'],
  },
  snippets: { ...common, dryRun: true, format: ['snippets'], formatOptions: { snippetInterface: 'synchronous' } },
  usage: { ...common, dryRun: true, format: ['usage'] },
};
