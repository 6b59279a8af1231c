import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { KubectlNotInstalledError, realKubectlPath, UnsupportedPlatformError } from './real-kubectl';

/** Where `terminating serve` writes its kubeconfig unless told otherwise (its --report-dir default). */
export const SERVED_KUBECONFIG = 'reports/serve/kubeconfig';

/**
 * `terminating kubectl ARGS…`: the pinned real kubectl (v1.36, the default release's) with the served cluster's kubeconfig
 * ($KUBECONFIG if set, else the one `terminating serve` wrote in reports/serve/). Its stdin,
 * stdout and stderr are this process's; it resolves with kubectl's exit code.
 */
export async function kubectlCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let binary: string;
  try {
    binary = await realKubectlPath();
  } catch (e) {
    if (!(e instanceof UnsupportedPlatformError || e instanceof KubectlNotInstalledError)) throw e;
    process.stderr.write(`terminating kubectl: ${e.message}\n`);
    return 1;
  }
  const kubeconfig = env.KUBECONFIG || resolve(SERVED_KUBECONFIG);
  if (!env.KUBECONFIG && !existsSync(kubeconfig)) {
    process.stderr.write(
      `terminating kubectl: no served cluster: ${SERVED_KUBECONFIG} does not exist; start one with \`npx terminating serve\` (or set KUBECONFIG)\n`,
    );
    return 1;
  }
  const child = spawn(binary, args, { stdio: 'inherit', env: { ...env, KUBECONFIG: kubeconfig } });
  // Ctrl-C reaches kubectl through the terminal's process group; a SIGTERM sent to us is passed on.
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
