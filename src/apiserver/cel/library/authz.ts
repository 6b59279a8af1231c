import type { CelLibrary } from './library';

/**
 * library.Authz (pkg/cel/library/authz.go), in the base environment from 1.27: `authorizer`
 * builds an authorization check — `authorizer.group(g).resource(r).namespace(ns).name(n)
 * .subresource(s).check(verb)`, `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns,
 * name)` for another user, and `authorizer.requestResource` for the request's own resource —
 * whose decision answers `allowed()`, `reason()`, `errored()` and `error()`. This simulation
 * authorises every request (there is no RBAC, R96), so every decision is allowed, for any user,
 * with no reason and no error: what kube-apiserver answers for a user bound to cluster-admin.
 */
export class CelDecision {
  readonly allowedValue = true;
}
export class CelResourceCheck {
  constructor(readonly attributes: Readonly<Record<string, string>>) {}
  with(key: string, value: string): CelResourceCheck {
    return new CelResourceCheck({ ...this.attributes, [key]: value });
  }
}
export class CelGroupCheck {
  constructor(readonly group: string) {}
}
export class CelPathCheck {
  constructor(readonly path: string) {}
}
export class CelAuthorizer {
  constructor(
    readonly user: string,
    readonly requestResource: CelResourceCheck,
  ) {}
}

const T = 'kubernetes.authorization';
const DECISION = new CelDecision();

export const AUTHZ: CelLibrary = {
  name: 'authz',
  introduced: 27,
  register(env) {
    env.registerType(`${T}.Decision`, CelDecision);
    env.registerType(`${T}.PathCheck`, CelPathCheck);
    env.registerType(`${T}.ResourceCheck`, CelResourceCheck);
    env.registerType(`${T}.GroupCheck`, CelGroupCheck);
    env.registerType(`${T}.Authorizer`, { ctor: CelAuthorizer, fields: { requestResource: `${T}.ResourceCheck` } });
    env.registerFunction(
      `${T}.Authorizer.path(string): ${T}.PathCheck`,
      (_a: CelAuthorizer, p: string) => new CelPathCheck(p),
    );
    env.registerFunction(
      `${T}.Authorizer.group(string): ${T}.GroupCheck`,
      (_a: CelAuthorizer, g: string) => new CelGroupCheck(g),
    );
    env.registerFunction(
      `${T}.Authorizer.serviceAccount(string, string): ${T}.Authorizer`,
      (a: CelAuthorizer, ns: string, name: string) =>
        new CelAuthorizer(`system:serviceaccount:${ns}:${name}`, a.requestResource),
    );
    env.registerFunction(
      `${T}.GroupCheck.resource(string): ${T}.ResourceCheck`,
      (g: CelGroupCheck, r: string) => new CelResourceCheck({ group: g.group, resource: r }),
    );
    for (const key of ['subresource', 'namespace', 'name']) {
      env.registerFunction(`${T}.ResourceCheck.${key}(string): ${T}.ResourceCheck`, (c: CelResourceCheck, v: string) =>
        c.with(key, v),
      );
    }
    env.registerFunction(`${T}.ResourceCheck.check(string): ${T}.Decision`, () => DECISION);
    env.registerFunction(`${T}.PathCheck.check(string): ${T}.Decision`, () => DECISION);
    env.registerFunction(`${T}.Decision.allowed(): bool`, (d: CelDecision) => d.allowedValue);
    env.registerFunction(`${T}.Decision.reason(): string`, () => '');
    env.registerFunction(`${T}.Decision.errored(): bool`, () => false);
    env.registerFunction(`${T}.Decision.error(): string`, () => '');
  },
};
