// Test support: a served cluster with the real kubectl pointed at it, for the kubectl-*.test.ts files.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Release } from '../../foundation/release';
import { type PinnedKubectlMinor, realKubectlPath } from '../kubectl/real-kubectl';
import { parseClockMode } from './clock-driver';
import { type ServedCluster, serve } from './serve';

/** One kubectl run: its exit code (0 when it succeeded) and what it printed. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A served cluster and the real kubectl configured for it, with a HOME of its own. */
export interface ServedKubectl {
  readonly served: ServedCluster;
  /** The session's report directory, a fresh temporary one; a test may write its manifests there. */
  readonly dir: string;
  run(...args: string[]): Promise<KubectlResult>;
}

export interface ServedKubectlOptions {
  /** The prefix of the temporary directories (`PREFIX-` for the report, `PREFIX-home-` for HOME). */
  readonly prefix: string;
  /** The clock mode as `serve --clock` takes it (default `fast=60`). */
  readonly clock?: string;
  /** The served release (default: serve's). */
  readonly release?: Release;
  /** The pinned kubectl (default: v1.36). */
  readonly kubectlMinor?: PinnedKubectlMinor;
}

/** Starts `serve` on a free port and finds the pinned real kubectl; the caller closes `served`. */
export async function serveWithRealKubectl(options: ServedKubectlOptions): Promise<ServedKubectl> {
  const dir = mkdtempSync(join(tmpdir(), `${options.prefix}-`));
  const served = await serve({
    port: 0,
    clock: parseClockMode(options.clock ?? 'fast=60'),
    reportDir: dir,
    ...(options.release === undefined ? {} : { release: options.release }),
  });
  const kubectl = await realKubectlPath(process.platform, process.arch, options.kubectlMinor);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), `${options.prefix}-home-`)),
    KUBECONFIG: served.kubeconfig,
  };
  return { served, dir, run: (...args) => runKubectl(kubectl, env, args) };
}

/** Runs one kubectl command (at most a minute); a failure resolves with its exit code, never rejects. */
export function runKubectl(kubectl: string, env: NodeJS.ProcessEnv, args: readonly string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(kubectl, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
