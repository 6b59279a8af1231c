/**
 * Run by `node --test` from scripts/unit-tests.ts: the test files that say "runs in the process that
 * loads cucumber", loaded together, so cucumber's support code loads once for all of them
 * (scripts/cucumber-in-process.ts); node:test runs what they define.
 */
import * as path from 'node:path';
import { testFiles } from './unit-tests';

for (const f of testFiles().withCucumber) require(path.resolve(__dirname, '..', f));
