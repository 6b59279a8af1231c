import { CommandError } from './command-error';

const USAGE = `Usage: terminating <command> [options]

Commands:
  init      set up this folder for scenarios: features/, cucumber.cjs, reports/ ignored (terminating init --help)
  test      run this folder's scenarios with terminating's steps; reports in reports/ (terminating test --help)
  serve     serve a simulated cluster over the Kubernetes HTTP API (terminating serve --help)
  kubectl   the pinned real kubectl v1.33 against the served cluster (terminating kubectl get pods)
  explain   why is my pod stuck? resume kubectl get -o yaml output and say what holds each pod (terminating explain --help)
  explore   find the race: rerun a scenario with components seeing changes late or restarting (terminating explore --help)
`;

/** The subcommands of `terminating`, each loaded when used (kubectl needs none of the simulation); each resolves with its exit code. */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  init: async (args) => (await import('./project/init-command')).initCommand(args),
  test: async (args) => (await import('./project/test-command')).testCommand(args),
  serve: async (args) => (await import('./serve/command')).serveCommand(args),
  kubectl: async (args) => (await import('./kubectl/kubectl-command')).kubectlCommand(args),
  explain: async (args) => (await import('./explain/command')).explainCommand(args),
  explore: async (args) => (await import('./explore/command')).exploreCommand(args),
};

/** `terminating COMMAND ARGS…` (bin/terminating.js): runs the command; what the user must fix is one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '-h' || name === '--help') {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  try {
    const command = COMMANDS[name];
    if (!command)
      throw new CommandError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`, 2);
    return await command(args);
  } catch (e) {
    if (!(e instanceof CommandError)) throw e; // a bug: its stack trace
    process.stderr.write(`terminating ${name}: ${e.message}\n`);
    return e.exitCode;
  }
}
