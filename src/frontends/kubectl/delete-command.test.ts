import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Release } from '../../foundation/release';

/** The kubectl these tables describe (the differential test runs the real v1.33 binary). */
const V1_33 = Release.of(33);
import {
  confirmationPrompt,
  confirms,
  KubectlError,
  parseGoDuration,
  parseKubectlDelete,
  pathSegmentError,
  printedLine,
  type KubectlDeleteCommand,
  UnsupportedKubectlError,
  waitTimeoutMessage,
} from './delete-command';

const FORCE_WARNING =
  'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';
const USAGE_HINT = "\nSee 'kubectl delete --help' for usage.";

/** The body exactly as kubectl would serialise it (key order included). */
const bodyOf = (line: string): string => JSON.stringify(parseKubectlDelete(line, V1_33).body);

/** What kubectl prints on stdout for the first object it deletes. */
const said = (cmd: KubectlDeleteCommand): string => printedLine(cmd, cmd.names[0] as string);

function kubectlError(line: string): KubectlError {
  try {
    parseKubectlDelete(line, V1_33);
  } catch (e) {
    expect(e, line).to.be.instanceOf(KubectlError);
    return e as KubectlError;
  }
  throw new Error(`expected kubectl to refuse: ${line}`);
}
const refusal = (line: string): string => kubectlError(line).message;

function unsupportedMessage(line: string): string {
  try {
    parseKubectlDelete(line, V1_33);
  } catch (e) {
    expect(e, line).to.be.instanceOf(UnsupportedKubectlError);
    return (e as Error).message;
  }
  throw new Error(`expected an unsupported command: ${line}`);
}

describe('kubectl delete: the table (kubectl v1.33; the differential test runs the real binary)', () => {
  it('no flags: Background propagation only, waits, prints "deleted"', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web', V1_33);
    expect(JSON.stringify(cmd.body)).to.equal('{"propagationPolicy":"Background"}');
    expect(cmd).to.deep.include({
      resource: 'pods',
      names: ['web'],
      namespace: 'default',
      wait: true,
      clientDryRun: false,
      ignoreNotFound: false,
    });
    expect(cmd.timeoutMs).to.equal(undefined);
    expect(cmd.warnings).to.deep.equal([]);
    expect(said(cmd)).to.equal('pod "web" deleted');
  });

  it('--grace-period=5 and --grace-period 5', () => {
    for (const line of [
      'kubectl delete pod web --grace-period=5',
      'kubectl delete pod web --grace-period 5',
      'kubectl delete --grace-period 5 pod web',
    ]) {
      expect(bodyOf(line), line).to.equal('{"gracePeriodSeconds":5,"propagationPolicy":"Background"}');
    }
  });

  it('--grace-period=0 without --force becomes 1 (no warning, plain "deleted")', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web --grace-period=0', V1_33);
    expect(JSON.stringify(cmd.body)).to.equal('{"gracePeriodSeconds":1,"propagationPolicy":"Background"}');
    expect(cmd.warnings).to.deep.equal([]);
    expect(said(cmd)).to.equal('pod "web" deleted');
  });

  it('--now is a grace period of 1', () => {
    expect(bodyOf('kubectl delete pod web --now')).to.equal(
      '{"gracePeriodSeconds":1,"propagationPolicy":"Background"}',
    );
    expect(bodyOf('kubectl delete pod web --now --grace-period=-1')).to.equal(
      '{"gracePeriodSeconds":1,"propagationPolicy":"Background"}',
    );
    expect(bodyOf('kubectl delete pod web --now=false')).to.equal('{"propagationPolicy":"Background"}');
  });

  it('--force, or --grace-period=0 --force: grace 0, the warning, "force deleted", still waits', () => {
    for (const line of [
      'kubectl delete pod web --force',
      'kubectl delete pod web --grace-period=0 --force',
      'kubectl delete pod web --force --grace-period 0',
      'kubectl delete pod web --force=true --grace-period=-1',
    ]) {
      const cmd = parseKubectlDelete(line, V1_33);
      expect(JSON.stringify(cmd.body), line).to.equal('{"gracePeriodSeconds":0,"propagationPolicy":"Background"}');
      expect(cmd.warnings, line).to.deep.equal([FORCE_WARNING]);
      expect(said(cmd), line).to.equal('pod "web" force deleted');
      expect(cmd.wait, line).to.equal(true);
    }
    expect(bodyOf('kubectl delete pod web --force=false')).to.equal('{"propagationPolicy":"Background"}');
  });

  it('--grace-period=3 --force (and --now --force) is refused', () => {
    const message = 'error: --force and --grace-period greater than 0 cannot be specified together';
    expect(refusal('kubectl delete pod web --grace-period=3 --force')).to.equal(message);
    expect(refusal('kubectl delete pod web --now --force')).to.equal(message);
    expect(refusal('kubectl delete pod web --force --grace-period 3')).to.equal(message);
  });

  it('--cascade=foreground / orphan / background', () => {
    expect(bodyOf('kubectl delete pod web --cascade=foreground')).to.equal('{"propagationPolicy":"Foreground"}');
    expect(bodyOf('kubectl delete pod web --cascade=orphan')).to.equal('{"propagationPolicy":"Orphan"}');
    expect(bodyOf('kubectl delete pod web --cascade=background')).to.equal('{"propagationPolicy":"Background"}');
    expect(bodyOf('kubectl delete pod web --cascade')).to.equal('{"propagationPolicy":"Background"}');
    expect(bodyOf('kubectl delete pod web --grace-period=5 --cascade=foreground')).to.equal(
      '{"gracePeriodSeconds":5,"propagationPolicy":"Foreground"}',
    );
  });

  it("deprecated boolean --cascade values, with kubectl's warning", () => {
    const t = parseKubectlDelete('kubectl delete pod web --cascade=true', V1_33);
    expect(t.body.propagationPolicy).to.equal('Background');
    expect(t.warnings).to.deep.equal([
      'warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.',
    ]);
    const f = parseKubectlDelete('kubectl delete pod web --cascade=false', V1_33);
    expect(f.body.propagationPolicy).to.equal('Orphan');
    expect(f.warnings).to.deep.equal([
      'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.',
    ]);
    expect(parseKubectlDelete('kubectl delete pod web --cascade=0', V1_33).body.propagationPolicy).to.equal('Orphan');
  });

  it('an invalid --cascade value is refused (values are case-sensitive)', () => {
    expect(refusal('kubectl delete pod web --cascade=sideways')).to.equal(
      'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"',
    );
    expect(refusal('kubectl delete pod web --cascade=Foreground')).to.contain('invalid cascade value (Foreground)');
  });

  it('--dry-run=server: dryRun ["All"], no wait, "(server dry run)"', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web --dry-run=server', V1_33);
    expect(JSON.stringify(cmd.body)).to.equal('{"propagationPolicy":"Background","dryRun":["All"]}');
    expect(cmd).to.deep.include({ wait: false, clientDryRun: false });
    expect(said(cmd)).to.equal('pod "web" deleted (server dry run)');
    const forced = parseKubectlDelete('kubectl delete pod web --dry-run=server --force --grace-period=0', V1_33);
    expect(JSON.stringify(forced.body)).to.equal(
      '{"gracePeriodSeconds":0,"propagationPolicy":"Background","dryRun":["All"]}',
    );
    expect(said(forced)).to.equal('pod "web" force deleted (server dry run)');
  });

  it('--dry-run=client: no request, no wait, "(dry run)"', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web --dry-run=client --wait', V1_33);
    expect(cmd).to.deep.include({ clientDryRun: true, wait: false });
    expect(said(cmd)).to.equal('pod "web" deleted (dry run)');
    expect(cmd.body).to.not.have.property('dryRun');
    expect(said(parseKubectlDelete('kubectl delete pod web --dry-run=client --force', V1_33))).to.equal(
      'pod "web" force deleted (dry run)',
    );
  });

  it('--dry-run=none is no dry run; bare and boolean --dry-run are deprecated spellings', () => {
    expect(parseKubectlDelete('kubectl delete pod web --dry-run=none', V1_33)).to.deep.include({
      clientDryRun: false,
      wait: true,
      warnings: [],
    });
    const bare = parseKubectlDelete('kubectl delete pod web --dry-run', V1_33);
    expect(bare.clientDryRun).to.equal(true);
    expect(bare.warnings).to.deep.equal(['--dry-run is deprecated and can be replaced with --dry-run=client.']);
    const t = parseKubectlDelete('kubectl delete pod web --dry-run=true', V1_33);
    expect(t.clientDryRun).to.equal(true);
    expect(t.warnings).to.deep.equal([
      '--dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.',
    ]);
    const f = parseKubectlDelete('kubectl delete pod web --dry-run=false', V1_33);
    expect(f).to.deep.include({ clientDryRun: false, wait: true });
    expect(f.warnings).to.deep.equal([
      '--dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.',
    ]);
  });

  it('an invalid --dry-run value is refused', () => {
    expect(refusal('kubectl delete pod web --dry-run=maybe')).to.equal(
      'error: Invalid dry-run value (maybe). Must be "none", "server", or "client".',
    );
  });

  it('--grace-period=-1 (or any negative) is the same as no flag', () => {
    expect(bodyOf('kubectl delete pod web --grace-period=-1')).to.equal('{"propagationPolicy":"Background"}');
    expect(bodyOf('kubectl delete pod web --grace-period -7')).to.equal('{"propagationPolicy":"Background"}');
    expect(said(parseKubectlDelete('kubectl delete pod web --grace-period=-1', V1_33))).to.equal('pod "web" deleted');
  });

  it('--grace-period uses Go integer syntax (base prefixes, underscores)', () => {
    expect(parseKubectlDelete('kubectl delete pod web --grace-period=0x10', V1_33).body.gracePeriodSeconds).to.equal(
      16,
    );
    expect(parseKubectlDelete('kubectl delete pod web --grace-period=010', V1_33).body.gracePeriodSeconds).to.equal(8);
    expect(parseKubectlDelete('kubectl delete pod web --grace-period=1_000', V1_33).body.gracePeriodSeconds).to.equal(
      1000,
    );
    expect(parseKubectlDelete('kubectl delete pod web --grace-period=+30', V1_33).body.gracePeriodSeconds).to.equal(30);
  });
});

describe('kubectl delete: --now and --grace-period together', () => {
  it('is refused unless the grace period is -1', () => {
    const message = 'error: --now and --grace-period cannot be specified together';
    expect(refusal('kubectl delete pod web --now --grace-period=5')).to.equal(message);
    expect(refusal('kubectl delete pod web --grace-period=0 --now')).to.equal(message);
    expect(refusal('kubectl delete pod web --now --grace-period -2')).to.equal(message);
  });
});

describe('kubectl delete: --wait and --timeout', () => {
  it('--wait defaults to true; --wait, --wait=true, --wait=false', () => {
    expect(parseKubectlDelete('kubectl delete pod web', V1_33).wait).to.equal(true);
    expect(parseKubectlDelete('kubectl delete pod web --wait', V1_33).wait).to.equal(true);
    expect(parseKubectlDelete('kubectl delete pod web --wait=true', V1_33).wait).to.equal(true);
    expect(parseKubectlDelete('kubectl delete pod web --wait=false', V1_33).wait).to.equal(false);
    expect(parseKubectlDelete('kubectl delete pod web --wait=0', V1_33).wait).to.equal(false);
  });

  it("a bad boolean is cobra's invalid-argument error", () => {
    expect(refusal('kubectl delete pod web --wait=maybe')).to.equal(
      `error: invalid argument "maybe" for "--wait" flag: strconv.ParseBool: parsing "maybe": invalid syntax${USAGE_HINT}`,
    );
  });

  it('a boolean flag does not take the next word as its value: it is one more name', () => {
    expect(parseKubectlDelete('kubectl delete pod web --wait false', V1_33).names).to.deep.equal(['web', 'false']);
  });

  it('--timeout takes Go durations, in both flag forms', () => {
    const cases: [string, number][] = [
      ['--timeout=30s', 30_000],
      ['--timeout 30s', 30_000],
      ['--timeout=500ms', 500],
      ['--timeout=2m', 120_000],
      ['--timeout=1h', 3_600_000],
      ['--timeout=1m30s', 90_000],
      ['--timeout=1.5s', 1_500],
      ['--timeout=-5s', -5_000],
    ];
    for (const [flags, ms] of cases)
      expect(parseKubectlDelete(`kubectl delete pod web ${flags}`, V1_33).timeoutMs, flags).to.equal(ms);
  });

  it('--timeout=0 (in any spelling) means no timeout', () => {
    for (const flags of ['--timeout=0', '--timeout=0s', '--timeout 0m']) {
      expect(parseKubectlDelete(`kubectl delete pod web ${flags}`, V1_33)).to.not.have.property('timeoutMs');
    }
  });

  it("a bad --timeout is refused with time.ParseDuration's reason", () => {
    expect(refusal('kubectl delete pod web --timeout=30')).to.equal(
      `error: invalid argument "30" for "--timeout" flag: time: missing unit in duration "30"${USAGE_HINT}`,
    );
    expect(refusal('kubectl delete pod web --timeout=30x')).to.equal(
      `error: invalid argument "30x" for "--timeout" flag: time: unknown unit "x" in duration "30x"${USAGE_HINT}`,
    );
    expect(refusal('kubectl delete pod web --timeout=soon')).to.equal(
      `error: invalid argument "soon" for "--timeout" flag: time: invalid duration "soon"${USAGE_HINT}`,
    );
    expect(refusal("kubectl delete pod web --timeout=''")).to.contain('time: invalid duration ""');
    expect(refusal('kubectl delete pod web --timeout=1h30')).to.contain('time: missing unit in duration "1h30"');
  });

  it('parseGoDuration follows time.ParseDuration', () => {
    expect(parseGoDuration('1h2m3.5s')).to.equal(3_723_500_000_000n);
    expect(parseGoDuration('.5us')).to.equal(500n);
    expect(parseGoDuration('5.s')).to.equal(5_000_000_000n);
    expect(parseGoDuration('+0')).to.equal(0n);
    expect(() => parseGoDuration('.s')).to.throw('time: invalid duration ".s"');
    expect(() => parseGoDuration('99999999999h')).to.throw('time: invalid duration "99999999999h"');
    expect(() => parseGoDuration('5constructor')).to.throw(
      'time: unknown unit "constructor" in duration "5constructor"',
    );
  });
});

describe('kubectl delete: namespace and --ignore-not-found', () => {
  it('accepts -n X, -nX, -n=X, --namespace=X and --namespace X, also before the verb', () => {
    for (const line of [
      'kubectl delete pod web -n team-a',
      'kubectl delete pod web -nteam-a',
      'kubectl delete pod web -n=team-a',
      'kubectl delete pod web --namespace=team-a',
      'kubectl delete pod web --namespace team-a',
      'kubectl -n team-a delete pod web',
      'kubectl --namespace=team-a delete pod web',
      "kubectl delete pod web --namespace 'team-a'",
    ]) {
      expect(parseKubectlDelete(line, V1_33).namespace, line).to.equal('team-a');
    }
    expect(parseKubectlDelete('kubectl delete pod web -n ""', V1_33).namespace).to.equal('default');
  });

  it('refuses -n / --namespace without a value', () => {
    expect(refusal('kubectl delete pod web -n')).to.equal(`error: flag needs an argument: 'n' in -n${USAGE_HINT}`);
    expect(refusal('kubectl delete pod web --namespace')).to.equal(
      `error: flag needs an argument: --namespace${USAGE_HINT}`,
    );
  });

  it('--ignore-not-found', () => {
    expect(parseKubectlDelete('kubectl delete pod web --ignore-not-found', V1_33).ignoreNotFound).to.equal(true);
    expect(parseKubectlDelete('kubectl delete pod web --ignore-not-found=false', V1_33).ignoreNotFound).to.equal(false);
  });
});

describe('kubectl delete: resource arguments', () => {
  it('pod, pods, po, Pod, TYPE/NAME all mean pods', () => {
    for (const line of [
      'kubectl delete pod web',
      'kubectl delete pods web',
      'kubectl delete po web',
      'kubectl delete Pod web',
      'kubectl delete pod/web',
      'kubectl delete po/web',
    ]) {
      expect(parseKubectlDelete(line, V1_33), line).to.deep.include({ resource: 'pods', names: ['web'] });
      expect(said(parseKubectlDelete(line, V1_33)), line).to.equal('pod "web" deleted');
    }
  });

  it('replicaset, replicasets, rs, rs/NAME, replicasets.apps mean replicasets ("replicaset.apps")', () => {
    for (const line of [
      'kubectl delete replicaset web',
      'kubectl delete replicasets web',
      'kubectl delete rs web',
      'kubectl delete rs/web',
      'kubectl delete replicasets.apps web',
    ]) {
      expect(parseKubectlDelete(line, V1_33), line).to.deep.include({ resource: 'replicasets', names: ['web'] });
      expect(said(parseKubectlDelete(line, V1_33)), line).to.equal('replicaset.apps "web" deleted');
    }
    expect(bodyOf('kubectl delete rs web --cascade=orphan')).to.equal('{"propagationPolicy":"Orphan"}');
  });

  it("refuses a missing resource or name with kubectl's messages", () => {
    expect(refusal('kubectl delete')).to.equal(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
    );
    expect(refusal('kubectl delete pod')).to.equal('error: resource(s) were provided, but no name was specified');
    expect(refusal('kubectl delete pod --force')).to.equal(
      'error: resource(s) were provided, but no name was specified',
    );
    expect(refusal('kubectl delete pod/')).to.equal(
      'error: arguments in resource/name form must have a single resource and name',
    );
    expect(refusal('kubectl delete /web')).to.equal(
      'error: arguments in resource/name form must have a single resource and name',
    );
    expect(refusal('kubectl delete pod/a/b')).to.equal(
      'error: arguments in resource/name form may not have more than one slash',
    );
    expect(refusal('kubectl delete pod pod/web')).to.equal(
      "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
    );
  });

  it('names and namespaces that are not safe path segments fail as each request is built', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web', V1_33);
    expect(pathSegmentError(cmd, '..')).to.equal(`invalid resource name "..": [may not be '..']`);
    expect(pathSegmentError(cmd, 'a%b')).to.equal(`invalid resource name "a%b": [may not contain '%']`);
    expect(pathSegmentError(cmd, '')).to.equal('resource name may not be empty');
    expect(pathSegmentError(cmd, 'web')).to.equal(undefined);
    expect(pathSegmentError(parseKubectlDelete('kubectl delete pod web -n a/b', V1_33), 'web')).to.equal(
      `invalid namespace "a/b": [may not contain '/']`,
    );
    expect(said(parseKubectlDelete('kubectl delete pod .. --dry-run=client', V1_33))).to.equal(
      'pod ".." deleted (dry run)',
    );
  });

  it('several names, TYPE/NAME several times, -l and --all', () => {
    expect(parseKubectlDelete('kubectl delete pod web api', V1_33)).to.deep.include({
      resource: 'pods',
      names: ['web', 'api'],
    });
    expect(parseKubectlDelete('kubectl delete pod/web po/api', V1_33)).to.deep.include({
      resource: 'pods',
      names: ['web', 'api'],
    });
    expect(parseKubectlDelete('kubectl delete pods -l app=web', V1_33)).to.deep.include({
      names: [],
      selector: 'app=web',
      ignoreNotFound: true,
    });
    expect(
      parseKubectlDelete('kubectl delete pods --selector app=web --ignore-not-found=false', V1_33),
    ).to.deep.include({ selector: 'app=web', ignoreNotFound: false });
    expect(parseKubectlDelete('kubectl delete pods --all', V1_33)).to.deep.include({ names: [], selector: '' });
    expect(parseKubectlDelete('kubectl delete pods -l app=web --all=false', V1_33).selector).to.equal('app=web');
  });

  it("refuses names beside a selector, --all beside -l, a selector without a type, with the builder's messages", () => {
    expect(refusal('kubectl delete pod web -l app=web')).to.equal(
      'error: name cannot be provided when a selector is specified',
    );
    expect(refusal('kubectl delete pod web --all')).to.equal(
      'error: name cannot be provided when a selector is specified',
    );
    expect(refusal('kubectl delete pod --all -l app=web')).to.equal(
      "error: setting 'all' parameter but found a non empty selector. ",
    );
    expect(refusal('kubectl delete pod/web -l app=web')).to.equal(
      'error: selectors and the all flag cannot be used when passing resource/name arguments',
    );
    expect(refusal('kubectl delete -l app=web')).to.equal(
      'error: at least one resource must be specified to use a selector',
    );
    expect(refusal('kubectl delete --all')).to.equal(
      'error: at least one resource must be specified to use a selector',
    );
    expect(refusal("kubectl delete pods -l ''")).to.equal(
      'error: resource(s) were provided, but no name was specified',
    );
  });

  it('refuses -o other than name', () => {
    expect(refusal('kubectl delete pod web -o yaml')).to.equal(
      "error: unexpected -o output mode: yaml. We only support '-o name'",
    );
  });

  it('tokenises quotes like a shell', () => {
    expect(parseKubectlDelete(`kubectl delete pod "web" --namespace='team a'`, V1_33)).to.deep.include({
      names: ['web'],
      namespace: 'team a',
    });
    expect(parseKubectlDelete(`kubectl   delete\tpod we\\b`, V1_33).names).to.deep.equal(['web']);
    expect(parseKubectlDelete('kubectl delete pod -- --web', V1_33).names).to.deep.equal(['--web']);
  });
});

describe('kubectl delete: flags kubectl does not have', () => {
  it('an unknown long flag', () => {
    expect(refusal('kubectl delete pod web --foo')).to.equal(`error: unknown flag: --foo${USAGE_HINT}`);
    expect(refusal('kubectl delete pod web --foo=bar')).to.equal(`error: unknown flag: --foo${USAGE_HINT}`);
    expect(refusal('kubectl delete pod web --grace-period-0')).to.equal(
      `error: unknown flag: --grace-period-0${USAGE_HINT}`,
    );
  });

  it('an unknown shorthand, bad syntax, a missing value', () => {
    expect(refusal('kubectl delete pod web -y')).to.equal(`error: unknown shorthand flag: 'y' in -y${USAGE_HINT}`);
    expect(refusal('kubectl delete pod web ---force')).to.equal(`error: bad flag syntax: ---force${USAGE_HINT}`);
    expect(refusal('kubectl delete pod web --grace-period')).to.equal(
      `error: flag needs an argument: --grace-period${USAGE_HINT}`,
    );
  });

  it('a bad integer for --grace-period', () => {
    expect(refusal('kubectl delete pod web --grace-period=x')).to.equal(
      `error: invalid argument "x" for "--grace-period" flag: strconv.ParseInt: parsing "x": invalid syntax${USAGE_HINT}`,
    );
    expect(refusal('kubectl delete pod web --grace-period 5s')).to.contain(
      'strconv.ParseInt: parsing "5s": invalid syntax',
    );
    expect(refusal('kubectl delete pod web --grace-period=99999999999999999999')).to.contain(
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    // pflag takes the next word as the value, even when it looks like a flag.
    expect(refusal('kubectl delete pod web --grace-period --force')).to.contain(
      'invalid argument "--force" for "--grace-period" flag',
    );
  });

  it('underscores in long names are converted, silently', () => {
    const cmd = parseKubectlDelete('kubectl delete pod web --grace_period=5', V1_33);
    expect(cmd.body.gracePeriodSeconds).to.equal(5);
    expect(cmd.warnings).to.deep.equal([]);
  });
});

describe('kubectl delete: which error comes first', () => {
  it("follows kubectl's order: flags, --cascade, --now, --dry-run, arguments, --force", () => {
    expect(refusal('kubectl delete pod web --cascade=bad --now --grace-period=3 --foo')).to.contain(
      'unknown flag: --foo',
    );
    expect(refusal('kubectl delete pod web --now --grace-period=3 --cascade=bad')).to.contain('invalid cascade value');
    expect(refusal('kubectl delete pod web --dry-run=bad --now --grace-period=3')).to.contain(
      '--now and --grace-period',
    );
    expect(refusal('kubectl delete pod --dry-run=bad')).to.contain('Invalid dry-run value');
    expect(refusal('kubectl delete pod --force --grace-period=3')).to.contain('no name was specified');
  });

  it('keeps the warnings printed before the error', () => {
    const err = kubectlError('kubectl delete pod web --cascade=true --grace-period=3 --force');
    expect(err.message).to.equal('error: --force and --grace-period greater than 0 cannot be specified together');
    expect(err.warnings).to.deep.equal([
      'warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.',
    ]);
  });
});

describe('kubectl delete: commands this simulator does not model', () => {
  it('real kubectl flags it does not model, named in the message with the supported list', () => {
    for (const [line, named] of [
      ['kubectl delete pods --all -A', '-A (--all-namespaces)'],
      ['kubectl delete -f pod.yaml', '-f (--filename)'],
      ['kubectl delete pods --field-selector=metadata.name=web', '--field-selector'],
      ['kubectl delete --raw /api/v1/namespaces/default/pods/web', '--raw'],
      ['kubectl delete pod web --context=kind', '--context'],
      ['kubectl delete pod web -R', '-R (--recursive)'],
      ['kubectl --force delete pod web', '--force before the verb'],
    ] as const) {
      const message = unsupportedMessage(line);
      expect(message, line).to.contain(`flag ${named} is not modelled`);
      expect(message, line).to.contain(
        '--grace-period, --now, --force, --cascade, --dry-run, --wait, --timeout, --ignore-not-found, -o name, -i/--interactive',
      );
    }
  });

  it('other resource types, other verbs, non-kubectl lines, shell syntax', () => {
    expect(unsupportedMessage('kubectl delete pod/web rs/db')).to.contain(
      'objects of several resource types (pod/web rs/db)',
    );
    expect(unsupportedMessage('kubectl delete pods,services web')).to.contain(
      'more than one resource type (pods,services)',
    );
    expect(unsupportedMessage('kubectl delete deployment web')).to.contain('resource type "deployment"');
    expect(unsupportedMessage('kubectl get pod web')).to.contain('kubectl get is not modelled');
    expect(unsupportedMessage('kubectl')).to.contain('kubectl without a command');
    expect(unsupportedMessage('delete pod web')).to.contain('does not start with "kubectl"');
    expect(unsupportedMessage('kubectl delete pod web | cat')).to.contain('shell syntax (|)');
    expect(unsupportedMessage('kubectl delete pod $POD')).to.contain('shell syntax ($)');
    expect(() => parseKubectlDelete("kubectl delete pod 'web", V1_33)).to.throw(
      UnsupportedKubectlError,
      'unterminated single quote',
    );
    expect(unsupportedMessage('kubectl delete pod web --help')).to.contain('flag --help');
    expect(unsupportedMessage('FOO=1 kubectl delete pod web')).to.contain(
      'the environment variable FOO is not modelled',
    );
  });
});

describe('kubectl delete: messages printed after the request', () => {
  it('--wait timing out', () => {
    expect(waitTimeoutMessage(parseKubectlDelete('kubectl delete pod web --timeout=5s', V1_33), 'web')).to.equal(
      'error: timed out waiting for the condition on pods/web',
    );
    expect(waitTimeoutMessage(parseKubectlDelete('kubectl delete rs web', V1_33), 'web')).to.equal(
      'error: timed out waiting for the condition on replicasets/web',
    );
  });

  it('-o name prints TYPE/NAME', () => {
    expect(printedLine(parseKubectlDelete('kubectl delete pod web -o name', V1_33), 'web')).to.equal('pod/web');
    expect(printedLine(parseKubectlDelete('kubectl delete rs web --output=name', V1_33), 'web')).to.equal(
      'replicaset.apps/web',
    );
  });
});

describe('kubectl delete output by kubectl release (delete.go PrintObj)', () => {
  it('V4 v1.34 (#126619) names the namespace of a namespaced object, before the dry-run suffix; v1.33 does not', () => {
    expect(parseKubectlDelete('kubectl delete pod web', Release.of(33)).operation).to.equal('deleted');
    expect(parseKubectlDelete('kubectl delete pod web', Release.of(34)).operation).to.equal(
      'deleted from default namespace',
    );
    expect(
      parseKubectlDelete('kubectl delete pod web -n prod --force --grace-period=0', Release.of(35)).operation,
    ).to.equal('force deleted from prod namespace');
    expect(parseKubectlDelete('kubectl delete pod web --dry-run=client', Release.of(34)).operation).to.equal(
      'deleted from default namespace (dry run)',
    );
  });
});

describe('V13 — kubectl delete -i/--interactive (delete.go confirmation, delete_flags.go AddFlags)', () => {
  it('the flag exists from v1.29, on v1.28 only with KUBECTL_INTERACTIVE_DELETE=true, not before', () => {
    expect(parseKubectlDelete('kubectl delete pod web -i', Release.of(29)).interactive).to.equal(true);
    expect(parseKubectlDelete('kubectl delete pod web --interactive=false', Release.of(33)).interactive).to.equal(
      false,
    );
    expect(parseKubectlDelete('kubectl delete pod web', Release.of(33)).interactive).to.equal(false);
    expect(
      parseKubectlDelete('KUBECTL_INTERACTIVE_DELETE=true kubectl delete pod web -i', Release.of(28)).interactive,
    ).to.equal(true);
    const refused = (line: string, release: Release) => {
      try {
        parseKubectlDelete(line, release);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refused('kubectl delete pod web -i', Release.of(28))).to.equal(
      `error: unknown shorthand flag: 'i' in -i${USAGE_HINT}`,
    );
    expect(refused('KUBECTL_INTERACTIVE_DELETE=1 kubectl delete pod web --interactive', Release.of(28))).to.equal(
      `error: unknown flag: --interactive${USAGE_HINT}`,
    );
    expect(refused('KUBECTL_INTERACTIVE_DELETE=true kubectl delete pod web -i', Release.of(27))).to.equal(
      `error: unknown shorthand flag: 'i' in -i${USAGE_HINT}`,
    );
  });

  it('the prompt lists kind/name and asks (y/n) up to v1.33, (y/N) from v1.34 (#132251)', () => {
    const pods = parseKubectlDelete('kubectl delete pod web api -i', V1_33);
    expect(confirmationPrompt(pods, ['web', 'api'], Release.of(33))).to.equal(
      'You are about to delete the following 2 resource(s):\npod/web\npod/api\nDo you want to continue? (y/n): ',
    );
    const rs = parseKubectlDelete('kubectl delete rs db -i', V1_33);
    expect(confirmationPrompt(rs, ['db'], Release.of(34))).to.equal(
      'You are about to delete the following 1 resource(s):\nreplicaset.apps/db\nDo you want to continue? (y/N): ',
    );
  });

  it('up to v1.33 (fmt.Fscan) the first word decides and blank lines are skipped; from v1.34 (fmt.Fscanln) the first line must be one word', () => {
    const v33 = Release.of(33);
    const v34 = Release.of(34);
    for (const [answer, at33, at34] of [
      ['y\n', true, true],
      ['Y\n', true, true],
      ['  y  \n', true, true],
      ['n\n', false, false],
      ['yes\n', false, false],
      ['\n', false, false],
      ['\ny\n', true, false],
      ['y n\n', true, false],
      ['', false, false],
      [undefined, false, false],
    ] as const) {
      expect(confirms(answer, v33), `v1.33 ${JSON.stringify(answer)}`).to.equal(at33);
      expect(confirms(answer, v34), `v1.34 ${JSON.stringify(answer)}`).to.equal(at34);
    }
  });
});
