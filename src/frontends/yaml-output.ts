import { stringify } from 'yaml';

/**
 * A value as YAML the way Kubernetes writes it (sigs.k8s.io/yaml: the JSON form turned into YAML):
 * every object written out where it appears. The simulation shares one frozen object between
 * versions, and could between two places of one object; the yaml package would write such an
 * object once with an anchor (`&a1`) and then an alias (`*a1`), which neither the apiserver nor
 * kubectl ever prints. Not looking for shared objects also makes it ≈ 20 % quicker.
 */
export function toYaml(value: unknown): string {
  return stringify(value, { aliasDuplicateObjects: false });
}

/** Objects as one multi-document YAML stream (`---` between them), or `empty` (a comment line) when there are none. */
export function yamlDocuments(objects: readonly unknown[], empty: string): string {
  return objects.length > 0 ? objects.map(toYaml).join('---\n') : `# ${empty}\n`;
}
