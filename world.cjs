// `require('terminating/world')`: the World every scenario step runs in (steps/support/world.ts), for a
// project's own step definitions that extend it (setWorldConstructor(class extends TerminatingWorld …)).
'use strict';
require('./scripts/ts-hook.js');
const { TerminatingWorld, ScenarioError } = require('./steps/support/world.ts');
module.exports = { TerminatingWorld, ScenarioError };
