// The project's World: everything terminating's steps use (this.cluster, this.plan, …) plus what the
// team's own steps need. Loaded after terminating's step library, so this constructor is the one used.
const { setWorldConstructor, Then } = require('@cucumber/cucumber');
const { TerminatingWorld } = require('terminating/world');

class TeamWorld extends TerminatingWorld {
  /** The pods of the default namespace still in the API, by name. */
  podNames() {
    const pods = this.cluster.apiserver.list('pods', 'default');
    if (!pods.ok) throw new Error(`listing pods failed: ${pods.status.message}`);
    return pods.object.items.map((p) => p.metadata.name).sort();
  }
}
setWorldConstructor(TeamWorld);

Then('the runbook lists only pods {string}', function (names) {
  const expected = names
    .split(',')
    .map((n) => n.trim())
    .sort();
  const actual = this.podNames();
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`expected pods ${expected.join(', ')}, the API has ${actual.join(', ') || 'none'}`);
});
