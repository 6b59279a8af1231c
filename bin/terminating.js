#!/usr/bin/env node
// `npx terminating serve …`: loads the TypeScript sources with the project's loader and runs the CLI.
'use strict';
require('../scripts/ts-hook.js');
require('../src/frontends/cli.ts')
  .main(process.argv.slice(2))
  .then((code) => process.exit(code));
