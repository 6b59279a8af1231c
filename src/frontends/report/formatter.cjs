// Cucumber loads formatters with import(), which does not go through the TypeScript loader that
// cucumber.js registers (requireModule); require() does.
module.exports = require('./formatter.ts').default;
