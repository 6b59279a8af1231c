/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * serves clusters" — each serves a cluster in process and runs the real kubectl (or Helm) against
 * it. Loaded together, the simulation and the HTTP server load once for all of them; node:test runs
 * what they define one file after another.
 *
 * Each file is loaded inside a suite of its own (requireEachInASuite), so its top-level hooks run
 * around its tests alone, as in a process of its own. Loaded at the top level, as they were, every
 * file's `before` ran while the files loaded and every `after` when the process ended: each file's
 * served cluster lived for the whole process, and the eight on a `fast=60` clock kept running
 * their kubelets' lease renewals and controllers' loops at 60× wall time all along (≈ 0.024 s of
 * CPU per wall second each for the default cluster; 17 s of the process's CPU profile under load).
 *
 * Such a file changes no process-wide state (environment, working directory, signal handlers) and
 * runs no child synchronously (its served cluster must go on answering); one that must is "runs in a
 * process of its own" instead.
 */
import { requireEachInASuite, testFiles } from './unit-tests';

requireEachInASuite(testFiles().serving);
