import type { Environment } from '@marcbachmann/cel-js';
import { AUTHZ } from './library/authz';
import { IP } from './library/ip';
import type { CelLibrary } from './library/library';
import { LISTS } from './library/lists';
import { QUANTITY } from './library/quantity';
import { REGEX } from './library/regex';
import { SETS, STRINGS, STRINGS_V2 } from './library/strings';
import { URLS } from './library/urls';

/**
 * Kubernetes' CEL base environment (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go
 * MustBaseEnvSet) on @marcbachmann/cel-js: the libraries each release adds, homogeneous
 * aggregate literals (always), optional types (`.?field`, `optional.of`, from 1.28). Not
 * modelled: runtime cost budgets and cost estimates (an expression runs to its end), and the
 * libraries listed in UNIMPLEMENTED, which an expression cannot call (it fails to compile,
 * naming the function).
 */
export const LIBRARIES: readonly CelLibrary[] = [LISTS, REGEX, URLS, STRINGS, AUTHZ, QUANTITY, STRINGS_V2, SETS, IP];

/** Functions of Kubernetes' CEL environment that this one lacks, with the release that added them. */
export const UNIMPLEMENTED: Readonly<Record<string, string>> = {
  format: 'the format library (1.31) or strings.format',
  semver: 'the semver library (1.33)',
  isSemver: 'the semver library (1.33)',
  fieldSelector: 'the authz selectors library (1.31)',
  labelSelector: 'the authz selectors library (1.31)',
  transformList: 'two-variable comprehensions (1.32)',
  transformMap: 'two-variable comprehensions (1.32)',
  transformMapEntry: 'two-variable comprehensions (1.32)',
  existsOne: 'two-variable comprehensions (1.32)',
  reverse: 'cel-go strings version 3 (not in Kubernetes)',
};

/** The variables an environment declares, as Kubernetes' admission plugins declare them (plugin/cel/compile.go createEnvForOpts). */
export interface CelVariableDecl {
  readonly name: string;
  /** A type name (`dyn`, `bool`, a registered type), or an object schema (field → type name or nested schema). */
  readonly type: string | Readonly<Record<string, unknown>>;
}

const bases = new Map<number, Environment>();

/**
 * The evaluator, loaded on first use: a process whose webhooks have no conditions (every
 * scenario and bench without them) never parses its code (≈ 4 MB of heap less).
 */
let celJs: typeof import('@marcbachmann/cel-js') | undefined;
const evaluator = () => (celJs ??= require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js'));

/** The base environment of one minor release, shared (variables are added to clones). */
function baseEnvironment(minor: number): Environment {
  let env = bases.get(minor);
  if (env === undefined) {
    env = new (evaluator().Environment)({
      homogeneousAggregateLiterals: true,
      enableOptionalTypes: minor >= 28,
      unlistedVariablesAreDyn: false,
    });
    for (const lib of LIBRARIES)
      if (minor >= lib.introduced && (lib.removed === undefined || minor < lib.removed)) lib.register(env);
    bases.set(minor, env);
  }
  return env;
}

const environments = new Map<string, Environment>();

/**
 * The environment of one minor release with these variables (cached: environments are built
 * once per release and set of variables, as upstream builds its EnvSets once).
 */
export function celEnvironment(minor: number, variables: readonly CelVariableDecl[]): Environment {
  const key = `${minor}\0${JSON.stringify(variables)}`;
  let env = environments.get(key);
  if (env === undefined) {
    env = baseEnvironment(minor).clone();
    for (const v of variables) {
      if (typeof v.type === 'string') env.registerVariable(v.name, v.type);
      else env.registerVariable({ name: v.name, schema: v.type as never });
    }
    environments.set(key, env);
  }
  return env;
}
