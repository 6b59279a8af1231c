'use strict';
// The report formatter's worker thread (render-worker.ts). A worker does not share its parent's
// module loaders, so it registers the project's TypeScript loader itself.
require('../../../scripts/ts-hook.js');
require('./render-worker.ts');
