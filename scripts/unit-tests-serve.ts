/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * serves clusters" — each serves a cluster in process and runs the real kubectl (or Helm) against
 * it. Loaded together, the simulation and the HTTP server load once for all of them; node:test runs
 * what they define one file after another.
 *
 * Each file is loaded inside a suite of its own (a describe named after it), so its top-level
 * before/after hooks belong to that suite and run around its tests alone, as in a process of its
 * own. Required at the top level instead, every file's hooks would join node:test's root: every
 * file's `before` runs when the process starts and every `after` when it ends, so each file's
 * served cluster lives for the whole process — and one with a scaled clock (`fast=60`) keeps
 * running its kubelets' lease renewals and controllers' loops at 60× wall time all along (≈ 0.024 s
 * of CPU per wall second for the default cluster; eight of them, 17 s of the process's CPU profile
 * under load).
 *
 * Such a file changes no process-wide state (environment, working directory, signal handlers) and
 * runs no child synchronously (its served cluster must go on answering); one that must is "runs in a
 * process of its own" instead.
 */
import * as path from 'node:path';
import { describe } from 'node:test';
import { testFiles } from './unit-tests';

for (const f of testFiles().serving)
  describe(f, () => {
    require(path.resolve(__dirname, '..', f));
  });
