import { ManifestFileError } from './manifest-file';
import { kubectlCommand } from './kubectl/kubectl-command';
import { serveCommand, UsageError } from './serve/command';

const USAGE = `Usage: terminating <command> [options]

Commands:
  serve     serve a simulated cluster over the Kubernetes HTTP API (terminating serve --help)
  kubectl   the pinned real kubectl v1.33 against the served cluster (terminating kubectl get pods)
`;

/** The subcommands of `terminating`; each resolves with its exit code. */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  serve: serveCommand,
  kubectl: kubectlCommand,
};

/** `terminating COMMAND ARGS…` (bin/terminating.js): runs the command; bad usage is one line on stderr and exit code 2. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '-h' || name === '--help') {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return await command(args);
  } catch (e) {
    // Bad input and a port in use are the user's to fix: one line. Anything else is a bug: its stack.
    const expected = e instanceof UsageError || e instanceof ManifestFileError || (e as NodeJS.ErrnoException).syscall === 'listen';
    if (!expected) throw e;
    process.stderr.write(`terminating ${name}: ${(e as Error).message}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}
