// `require('terminating')`: the harness for controller tests (src/frontends/harness.ts; its types: index.d.ts).
// The TypeScript sources run through the project's loader (scripts/ts-hook.js, swc at run time).
'use strict';
require('./scripts/ts-hook.js');
const { startCluster, StartClusterError } = require('./src/frontends/harness.ts');
module.exports = { startCluster, StartClusterError };
