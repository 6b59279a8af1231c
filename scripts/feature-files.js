// Which feature files each cucumber profile runs (cucumber.js). Plain CommonJS: cucumber.js loads it
// before the TypeScript hook.
const { readdirSync, readFileSync } = require('node:fs');
const { join, sep } = require('node:path');

/**
 * Where one's own scenarios live (README "The first scenario", docs/scenarios.md): every profile picks them up
 * (`npm run bdd`, `-p real-kubectl`, `npm run scenario`), `npm test` does not, so a failing
 * experiment never fails the project's tests. git ignores them (.gitignore).
 */
const LOCAL_DIR = join('features', 'local');

function isLocal(path) {
  return path === LOCAL_DIR || path.startsWith(LOCAL_DIR + sep) || path.startsWith('features/local/');
}

/** Every `.feature` file under `dir`, subfolders included, in path order; `features/local/` only when asked. */
function featureFiles(dir = 'features', { local = true } = {}) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.feature'))
    .map((f) => join(dir, f))
    .filter((f) => local || !isLocal(f))
    .sort();
}

/**
 * `file:line` of every scenario with a step that runs kubectl (\`When I run \`kubectl …\`\`), for
 * the real-kubectl profile, in every folder under `dir`. A Background with such a step selects its
 * whole feature.
 */
function scenariosRunningKubectl(dir = 'features', options = {}) {
  const selected = [];
  for (const path of featureFiles(dir, options)) {
    let scenario;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(Background|Feature|Rule):/.test(line)) scenario = /Background/.test(line) ? path : undefined;
        else if (/^\s*(Scenario|Scenario Outline|Scenario Template|Example):/.test(line)) scenario = `${path}:${i + 1}`;
        else if (
          scenario &&
          /^\s*(Given|When|Then|And|But|\*)\s+I (try to )?run `kubectl /.test(line) &&
          !selected.includes(scenario)
        )
          selected.push(scenario);
      });
  }
  return selected;
}

module.exports = { LOCAL_DIR, isLocal, featureFiles, scenariosRunningKubectl };
