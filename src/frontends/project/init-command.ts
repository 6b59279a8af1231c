import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CommandError } from '../command-error';

export const INIT_USAGE = `Usage: terminating init [--force]

Sets up the project in the current folder for scenarios (run them with \`npx terminating test\`):
  features/first.feature   a first scenario, with the package's step library
  cucumber.cjs             cucumber configuration: the package's steps and support, your features/,
                           reports in reports/ (report.html and cucumber's reports)
  .gitignore               reports/ added
  package.json             a "test:scenarios" script (terminating test); created if there is none
Existing files are left as they are (--force overwrites features/first.feature and cucumber.cjs).
`;

/** The first scenario `init` writes: a pod that ignores SIGTERM waits out its grace period. */
export const FIRST_FEATURE = `Feature: What does a plain delete do?

  Scenario: a container that ignores SIGTERM is killed at the deadline
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM
    When I run \`kubectl delete pod web\`
    Then pod "web" is gone
    And these events happen in order:
      | at              | component | event                                 |
      | T+0s            | apiserver | DELETE pods/web                       |
      | T+0s            | runtime   | SIGTERM app                           |
      | T+30s           | runtime   | SIGKILL app                           |
      | T+30s           | runtime   | exited app code=137                   |
      | T+30s..T+31s    | status    | DELETE pods/web                       |
`;

export const CUCUMBER_CONFIG = `// Cucumber configuration for \`npx terminating test\` (npx terminating init wrote it).
// profile() loads terminating's step library, then your own support code (features/**/*.{js,cjs,ts});
// pass cucumber options to override, e.g. profile({ tags: 'not @slow' }). Add profiles beside default.
const { profile } = require('terminating/cucumber');

module.exports = {
  default: profile(),
};
`;

/** `terminating init`: writes what is missing; resolves with the exit code. */
export async function initCommand(
  args: string[],
  cwd: string = process.cwd(),
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    out.write(INIT_USAGE);
    return 0;
  }
  const unknown = args.filter((a) => a !== '--force');
  if (unknown.length) throw new CommandError(`unknown argument "${unknown[0]}" (see terminating init --help)`, 2);
  const force = args.includes('--force');
  // package.json first: one that cannot be read stops init before anything is written.
  const manifest = join(cwd, 'package.json');
  let pkg: { scripts?: Record<string, string> } & Record<string, unknown> = {
    name: basename(cwd) || 'scenarios',
    private: true,
  };
  if (existsSync(manifest)) {
    try {
      pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch (e) {
      throw new CommandError(
        `package.json: ${(e as Error).message}; nothing else changed: fix it and run terminating init again`,
      );
    }
  }
  const done: string[] = [];
  const write = (file: string, text: string) => {
    const path = join(cwd, file);
    if (existsSync(path) && !force) return done.push(`${file}: kept (it exists)`);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    done.push(`${file}: written`);
  };
  write(join('features', 'first.feature'), FIRST_FEATURE);
  write('cucumber.cjs', CUCUMBER_CONFIG);

  const gitignore = join(cwd, '.gitignore');
  const ignored = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
  if (ignored.split('\n').some((l) => /^\/?reports\/?$/.test(l.trim())))
    done.push('.gitignore: reports/ already ignored');
  else {
    writeFileSync(gitignore, `${ignored}${ignored && !ignored.endsWith('\n') ? '\n' : ''}reports/\n`);
    done.push('.gitignore: reports/ added');
  }

  if (pkg.scripts?.['test:scenarios']) done.push('package.json: script "test:scenarios" kept');
  else {
    pkg.scripts = { ...pkg.scripts, 'test:scenarios': 'terminating test' };
    writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
    done.push('package.json: script "test:scenarios" added (npm run test:scenarios)');
  }
  out.write(
    `${done.map((d) => `  ${d}`).join('\n')}\nRun the scenarios: npx terminating test   (the report: reports/report.html)\n`,
  );
  return 0;
}
