/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * serves clusters" — each serves a cluster in process and runs the real kubectl (or Helm) against
 * it. Loaded together, the simulation and the HTTP server load once for all of them; node:test runs
 * what they define one file after another, each file's top-level hooks as in a process of its own.
 * Such a file changes no process-wide state (environment, working directory, signal handlers) and
 * runs no child synchronously (its served cluster must go on answering); one that must is "runs in a
 * process of its own" instead.
 */
import * as path from 'node:path';
import { testFiles } from './unit-tests';

for (const f of testFiles().serving) require(path.resolve(__dirname, '..', f));
