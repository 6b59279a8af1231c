// `require('terminating')`: the harness for controller tests (src/harness.ts; its types: index.d.ts).
// The TypeScript sources run through the project's loader (scripts/ts-hook.js, swc at run time).
'use strict';
require('./scripts/ts-hook.js');
const { startCluster, StartClusterError } = require('./src/harness.ts');
module.exports = { startCluster, StartClusterError };
