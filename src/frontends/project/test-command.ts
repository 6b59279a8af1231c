import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const TEST_USAGE = `Usage: terminating test [cucumber-js options] [paths…]

Runs the project's scenarios (default: features/**/*.feature) with terminating's step library, as
cucumber-js with the project's cucumber configuration (cucumber.cjs, which \`terminating init\`
writes; without one, terminating's default: the same as init's). Every option goes to cucumber-js:
  npx terminating test features/drain.feature:12
  npx terminating test --tags '@smoke and not @slow'
  npx terminating test -p ci          a profile of your cucumber.cjs
Reports: reports/report.html (each scenario's steps, error and sequence diagram), and cucumber's
reports beside it (cucumber-report.html, cucumber-report.json, junit.xml, cucumber-messages.ndjson).
`;

/** The configuration files cucumber-js looks for in the project (its loadConfiguration's DEFAULT_FILENAMES). */
const CONFIG_FILES = ['cucumber.js', 'cucumber.cjs', 'cucumber.mjs', 'cucumber.json', 'cucumber.yaml', 'cucumber.yml'];

/** `terminating test …`: cucumber-js in the project's folder; resolves with its exit code. */
export async function testCommand(
  args: string[],
  cwd: string = process.cwd(),
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  if (args[0] === '-h' || args[0] === '--help') {
    out.write(TEST_USAGE);
    return 0;
  }
  const cucumber = join(dirname(require.resolve('@cucumber/cucumber/package.json')), 'bin', 'cucumber.js');
  const hasConfig =
    args.includes('-c') || args.includes('--config') || CONFIG_FILES.some((f) => existsSync(join(cwd, f)));
  const config = hasConfig ? [] : ['--config', join(__dirname, '..', '..', '..', 'cucumber-user.cjs')];
  const child = spawn(process.execPath, [cucumber, ...config, ...args], { cwd, stdio: 'inherit' });
  const forward = () => child.kill('SIGTERM');
  process.on('SIGTERM', forward);
  try {
    return await new Promise<number>((done, fail) => {
      child.once('error', fail);
      child.once('close', (code, signal) => done(code ?? (signal === 'SIGINT' ? 130 : 1)));
    });
  } finally {
    process.off('SIGTERM', forward);
  }
}
