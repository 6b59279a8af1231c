import { describe, it } from 'node:test';
import { expect } from 'chai';
import { admissionActivation, admissionVariables } from './admission';
import { compileExpression } from './compile';
import { celEnvironment } from './environment';
import type { AdmissionRequest } from '../webhook/caller';

const VARS = admissionVariables({ authorizer: true, namespaceObject: true });
const request: AdmissionRequest = {
  uid: 'u',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  requestKind: { group: '', version: 'v1', kind: 'Pod' },
  requestResource: { group: '', version: 'v1', resource: 'pods' },
  name: 'web',
  namespace: 'default',
  operation: 'UPDATE',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
  object: null,
  oldObject: null,
  dryRun: false,
  options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
};
const pod = {
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    containers: [{ name: 'app', image: 'nginx:1.27', resources: { limits: { memory: '512Mi' } } }],
    terminationGracePeriodSeconds: 30,
  },
};

/** Evaluates `expression` (which must compile) against the pod above in release `minor`. */
function run(expression: string, minor = 33, returnTypes = ['dyn']): unknown {
  const compiled = compileExpression(celEnvironment(minor, VARS), expression, returnTypes);
  if ('error' in compiled) throw new Error(compiled.error.detail);
  const result = compiled.program.evaluate(admissionActivation({ object: pod, oldObject: pod, request }));
  if ('error' in result) throw new Error(result.error);
  return result.value;
}
const compileError = (expression: string, minor = 33, returnTypes = ['bool']) => {
  const compiled = compileExpression(celEnvironment(minor, VARS), expression, returnTypes);
  return 'error' in compiled ? compiled.error.detail : undefined;
};

describe("Kubernetes' CEL environment (R208; pkg/cel/environment/base.go, pkg/cel/library)", () => {
  it('reads the object, the old object and the request; whole JSON numbers are ints', () => {
    expect(run("object.metadata.labels.app == 'web' && oldObject.metadata.name == 'web'")).to.equal(true);
    expect(
      run(
        "request.userInfo.username == 'alice' && 'system:authenticated' in request.userInfo.groups && request.operation == 'UPDATE' && request.subResource == ''",
      ),
    ).to.equal(true);
    expect(run('object.spec.terminationGracePeriodSeconds + 1')).to.equal(31n);
    expect(
      run("has(object.metadata.annotations) || object.spec.containers.all(c, c.image.startsWith('nginx'))"),
    ).to.equal(true);
    expect(run('object.metadata.?annotations.orValue({}).size() == 0')).to.equal(true);
  });

  it('has the lists, regex, urls, quantity, strings, sets, ip, cidr and authz libraries', () => {
    expect(
      run(
        '[3, 1, 2].min() == 1 && [1, 2, 3].isSorted() && [1, 2].sum() == 3 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1',
      ),
    ).to.equal(true);
    expect(run("'abc 123 def 456'.findAll('[0-9]+')")).to.deep.equal(['123', '456']);
    expect(run("'abc 123'.find('[0-9]+') == '123' && 'abc'.find('x') == ''")).to.equal(true);
    expect(
      run(
        "url('https://example.com:8443/a/b?x=1&x=2').getHost() == 'example.com:8443' && url('https://[::1]:80/').getHostname() == '::1' && url('/p').getScheme() == '' && url('https://a/b?x=1&x=2').getQuery()['x'] == ['1', '2'] && !isURL('not a url')",
      ),
    ).to.equal(true);
    expect(
      run(
        "quantity(object.spec.containers[0].resources.limits.memory).isLessThan(quantity('1Gi')) && quantity('1.5').asApproximateFloat() == 1.5 && quantity('500m').isInteger() == false && quantity('2k').asInteger() == 2000 && quantity('1Gi').compareTo(quantity('1024Mi')) == 0 && quantity('1').add(2) == quantity('3') && isQuantity('1Zi') == false",
      ),
    ).to.equal(true);
    expect(
      run(
        "'a-b-c'.replace('-', '+') == 'a+b+c' && 'a-b-c'.replace('-', '+', 1) == 'a+b-c' && 'héllo'.charAt(1) == 'é' && strings.quote('a\"b') == '\"a\\\\\"b\"'",
      ),
    ).to.equal(true);
    expect(
      run(
        "ip('10.0.0.1').family() == 4 && ip('fe80::1').isLinkLocalUnicast() && ip('::1').isLoopback() && ip('8.8.8.8').isGlobalUnicast() && !ip('224.0.0.1').isGlobalUnicast() && ip('2001:DB8::1') == ip('2001:db8::1') && string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1' && !ip.isCanonical('2001:DB8::1') && isIP('1.2.3.4') && !isIP('1.2.3.04') && !isIP('::ffff:1.2.3.4')",
      ),
    ).to.equal(true);
    expect(
      run(
        "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1')) && cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8')) && cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24') && cidr('192.168.1.5/24').ip() == ip('192.168.1.5') && cidr('::1/128').prefixLength() == 128 && isCIDR('fd00::/8') && !isCIDR('10.0.0.0/33')",
      ),
    ).to.equal(true);
    expect(() => run("ip('fe80::1%eth0') == ip('fe80::1')")).to.throw(
      'IP address "fe80::1%eth0" with zone value is not allowed',
    );
    expect(compileError("ip('10.0.0.1').family() == 4", 29)).to.contain("undeclared reference to 'ip'");
    expect(
      run('sets.contains([1, 2, 3], [2]) && sets.intersects([1], [1, 5]) && !sets.equivalent([1], [1, 2])'),
    ).to.equal(true);
    expect(
      run(
        "authorizer.group('apps').resource('deployments').namespace('default').name('web').check('delete').allowed() && authorizer.requestResource.check('update').allowed() && authorizer.serviceAccount('default', 'sa').path('/healthz').check('get').reason() == ''",
      ),
    ).to.equal(true);
  });

  it('follows the releases: optional types and quantity from 1.28, sets and strings.quote from 1.29, the authorizer from 1.27', () => {
    expect(compileError("quantity('1') == quantity('1')", 27)).to.match(
      /undeclared reference to 'quantity'|found no matching overload for 'quantity\(string\)'/,
    );
    expect(compileError('sets.contains([1], [1])', 28)).to.contain("undeclared reference to 'sets'");
    expect(compileError('object.?metadata.hasValue()', 27)).to.contain('compilation failed: ERROR: <input>:1:');
    expect(compileError("authorizer.path('/').check('get').allowed()", 26)).to.contain('compilation failed');
    expect(compileError("authorizer.path('/').check('get').allowed()", 27)).to.equal(undefined);
  });

  it("compilation errors are upstream's: the position, undefined fields, undeclared references, overloads, and the output type", () => {
    expect(compileError('request.nope == 1')).to.equal(
      "compilation failed: ERROR: <input>:1:9: undefined field 'nope'\n | request.nope == 1\n | ........^",
    );
    expect(compileError('foo == 1')).to.contain("undeclared reference to 'foo' (in container '')");
    expect(compileError("1 + 'a' == 2")).to.contain("found no matching overload for '_+_' applied to '(int, string)'");
    expect(compileError('object.metadata.name')).to.equal('must evaluate to bool but got dyn');
    expect(compileError("'a'")).to.equal('must evaluate to bool but got string');
    expect(compileError('object.a ==')).to.match(/^compilation failed: ERROR: <input>:1:12: Syntax error: /);
    expect(compileError("semver('1.2.3').major() == 1")).to.contain(
      "undeclared reference to 'semver' (in container ''): semver is the semver library (1.33) of Kubernetes' CEL environment, which this simulation does not implement",
    );
  });

  it("evaluation errors are `expression '…' resulted in error: …`", () => {
    expect(() => run('object.spec.nodeName == "x"')).to.throw(
      'expression \'object.spec.nodeName == "x"\' resulted in error: no such key: nodeName',
    );
    expect(() => run('[].min() == 1')).to.throw('min called on empty list');
    expect(() => run("quantity('500m').asInteger() == 0")).to.throw('cannot convert value to integer');
  });
});

/**
 * Kubernetes' base environment has cel.HomogeneousAggregateLiterals from its first release
 * (pkg/cel/environment/base.go, introduced "1.0"), and from 1.29 also the AST validator
 * cel.ValidateHomogeneousAggregateLiterals (cel-go validator.go: every element of a list or map
 * literal must have a type equivalent to the first's — `dyn` is not equivalent to `string`).
 */
describe('aggregate literals are homogeneous, as in cel-go with HomogeneousAggregateLiterals (R208)', () => {
  it("refuses mixed value types in a map or list literal with cel-go's message, at the element", () => {
    for (const minor of [26, 29, 36]) {
      expect(compileError('{"a": 1, "b": "s"}.size() == 2', minor)).to.equal(
        'compilation failed: ERROR: <input>:1:15: expected type \'int\' but found \'string\'\n | {"a": 1, "b": "s"}.size() == 2\n | ..............^',
      );
      expect(compileError('[1, "a"].size() == 2', minor)).to.match(
        /^compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n/,
      );
    }
    expect(compileError('{"a": {"x": 1}, "b": {"y": "s"}}.size() == 2', 36)).to.match(
      /expected type 'map\(string, int\)' but found 'map\(string, string\)'/,
    );
  });

  it('from 1.29 a dyn value (a field of the object) beside a string is refused; string() or dyn() on each makes it one type', () => {
    // The object is dyn in the admission plugins' environment, so its fields are dyn.
    expect(compileError('{"team": object.metadata.name, "x": "y"}.size() == 2', 36)).to.match(
      /^compilation failed: ERROR: <input>:1:37: expected type 'dyn' but found 'string'\n/,
    );
    expect(compileError('{"team": string(object.metadata.name), "x": "y"}.size() == 2', 36)).to.equal(undefined);
    expect(compileError('{"a": dyn(1), "b": dyn("s")}.size() == 2', 36)).to.equal(undefined);
    expect(run('{"team": string(object.metadata.name), "x": "y"}', 36)).to.deep.equal({ team: 'web', x: 'y' });
  });

  it('accepts literals whose elements agree, empty ones included', () => {
    expect(compileError('{"a": "x", "b": object.metadata.name + "-y"}.size() == 2', 36)).to.equal(undefined);
    expect(compileError('[[1], []].size() == 2', 36)).to.equal(undefined);
    expect(compileError('{"a": [1], "b": []}.size() == 2', 36)).to.equal(undefined);
  });
});
