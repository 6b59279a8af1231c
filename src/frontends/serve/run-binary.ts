import { spawn } from 'node:child_process';

/** What a finished child process said. */
export interface BinaryRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a client binary (the real kubectl or Helm) with `env` only, `stdin` written and closed,
 * killed after `timeoutMs`; resolves with its exit code and what it printed (for tests).
 */
export function runBinary(
  path: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
  timeoutMs = 60_000,
): Promise<BinaryRun> {
  return new Promise((resolve, reject) => {
    const p = spawn(path, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => p.kill(), timeoutMs);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    p.stdin.end(stdin);
  });
}
