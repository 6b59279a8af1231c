// The configuration `terminating test` uses in a project without a cucumber configuration of its own
// (the same as the cucumber.cjs `terminating init` writes).
'use strict';
module.exports = { default: require('./cucumber-profile.cjs').profile() };
