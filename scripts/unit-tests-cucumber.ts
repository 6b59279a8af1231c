/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * loads cucumber", loaded together, so cucumber's support code loads once for all of them
 * (scripts/cucumber-in-process.ts); node:test runs what they define, each file's hooks around its
 * own tests (requireEachInASuite).
 */
import { requireEachInASuite, testFiles } from './unit-tests';

requireEachInASuite(testFiles().withCucumber);
