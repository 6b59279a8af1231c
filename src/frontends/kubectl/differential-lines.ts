/**
 * The `kubectl delete` lines of the differential test (kubectl.differential.test.ts): each is run
 * by the built-in kubectl and by the real kubectl v1.36 (DIFFERENTIAL_KUBECTL_MINOR), each on its
 * own copy of one cluster (pods web and batch labelled app=web, api labelled app=api, on node-1,
 * running for a minute; namespace team with a pod), and must send the same requests and print the
 * same output. A scenario whose kubectl line is one of these, on the default release, and whose
 * outcome depends on nothing but pod web existing (and pod nope not), may be tagged
 * `@real-kubectl-differential` (differential-lines.test.ts checks its line and release): the real-kubectl
 * profile leaves it out, the real kubectl's run of its line being compared here, request for request.
 */
export const DIFFERENTIAL_LINES: readonly string[] = [
  // grace periods
  'kubectl delete pod web',
  'kubectl delete pod web --grace-period=5',
  'kubectl delete pod web --grace-period 0',
  'kubectl delete pod web --grace-period=-1',
  'kubectl delete pod web --grace_period=5',
  'kubectl delete pod web --now',
  'kubectl delete pod web --now --grace-period=5',
  'kubectl delete pod web --grace-period=abc',
  // --force
  'kubectl delete pod web --force',
  'kubectl delete pod web --grace-period=0 --force',
  'kubectl delete pod web --force --wait=false',
  'kubectl delete pod web --grace-period=3 --force',
  // --cascade
  'kubectl delete pod web --cascade=background',
  'kubectl delete pod web --cascade=foreground',
  'kubectl delete pod web --cascade=orphan --wait=false',
  'kubectl delete pod web --cascade',
  'kubectl delete pod web --cascade=false',
  'kubectl delete pod web --cascade=sideways',
  // --dry-run
  'kubectl delete pod web --dry-run=client',
  'kubectl delete pod web --dry-run=server',
  'kubectl delete pod web --dry-run',
  'kubectl delete pod web --dry-run=maybe',
  // --wait, --timeout
  'kubectl delete pod web --wait=false',
  'kubectl delete pod web --now --wait=false',
  'kubectl delete pod web --timeout=2m',
  'kubectl delete pod web --timeout=-1s',
  'kubectl delete pod web --timeout=5',
  // selectors and --all
  'kubectl delete pods -l app=web',
  'kubectl delete pods -l app=web --wait=false',
  'kubectl delete pods --selector=app=none',
  'kubectl delete pods -l app=web -o name --dry-run=client',
  'kubectl delete pods --all',
  'kubectl delete pods --all --force',
  'kubectl delete pods --all --dry-run=server',
  'kubectl delete pod web -l app=web',
  'kubectl delete pod --all -l app=web',
  // names
  'kubectl delete pod nope',
  'kubectl delete pod nope --ignore-not-found',
  'kubectl delete pod web nope',
  'kubectl delete pod web nope --ignore-not-found',
  'kubectl delete pod web api',
  'kubectl delete pod/web pod/api',
  'kubectl delete pod web -n kube-system',
  'kubectl -n default delete pod web --wait=false',
  'kubectl delete pod',
  'kubectl delete',
  // namespaces (R121, C10): stamped Terminating, emptied by the namespace controller, then gone
  'kubectl delete namespace team',
  'kubectl delete ns team --wait=false',
  'kubectl delete namespace nope',
  // output and bad flags
  'kubectl delete pod web -o name',
  'kubectl delete pod web -o yaml',
  'kubectl delete pod web --bogus',
  'kubectl delete pod web -x',
];
