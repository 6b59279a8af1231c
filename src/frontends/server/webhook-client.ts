import { request as httpsRequest } from 'node:https';
import {
  WebhookCallPending,
  webhookUrl,
  type AdmissionResponse,
  type AdmissionReview,
  type WebhookCaller,
  type WebhookOutcome,
} from '../../apiserver/webhook/caller';
import type { Webhook } from '../../apiserver/webhook/configuration';

/** The most webhook calls one request may need (each mutating webhook, reinvocations, then the validating ones). */
const MAX_CALLS_PER_REQUEST = 32;
/** Answers fetched for in-process clients and not used yet: kept for their retry, up to this many. */
const MAX_BACKGROUND_ANSWERS = 256;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** Stands for the uid of the review that was sent, in a remembered answer (see remember). */
const SENT_UID = '\u0000sent-uid';

/**
 * R206 — the WebhookCaller of `serve`: real webhook servers over HTTPS on the loopback address. The
 * simulation's request path is synchronous, so the calls are made around it (admitted): the
 * request runs; when admission asks for an answer this caller does not have yet, it throws
 * WebhookCallPending, the request stops before anything is stored and leaves no trace; the
 * HTTP layer posts the AdmissionReview to the webhook (real latency, wall-clock timeout) and
 * runs the request again, which now finds the answer and goes on to the next webhook or to
 * storage. An answer is matched on the whole review but its uid: if the object changed in
 * between (another client wrote it during the call), the review differs and the webhook is
 * called again with what the request would store now.
 *
 * Requests of the simulated components (kubelets, controllers) cannot wait: a call they need
 * is started in the background and their request fails as an unreachable webhook does (then
 * failurePolicy decides); their retry with the same object gets the answer.
 *
 * Where it posts: `clientConfig.url` if its host is a loopback address; a `service` reference
 * `NAME.NAMESPACE.svc:PORT` goes to 127.0.0.1:PORT, with `NAME.NAMESPACE.svc` as the TLS server
 * name that the certificate must carry (there are no Services or endpoints in the simulation).
 * `caBundle` is the only trusted CA when given (else the system's roots, as upstream).
 */
export class HttpsWebhookCaller implements WebhookCaller {
  private readonly answers = new Map<string, WebhookOutcome>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Set while an HTTP request runs: it can wait for its calls (throw WebhookCallPending). */
  private waiting = false;

  call(hook: Webhook, review: AdmissionReview): WebhookOutcome {
    const key = keyOf(hook, review);
    const answer = this.answers.get(key);
    if (answer !== undefined) {
      if (!this.waiting) this.answers.delete(key);
      return 'response' in answer && answer.response?.uid === SENT_UID
        ? { response: { ...answer.response, uid: review.request.uid } }
        : answer;
    }
    if (this.waiting) throw new WebhookCallPending(hook, review);
    void this.fetch(hook, review);
    return {
      callError: `Post "${webhookUrl(hook)}": the webhook is being called for this in-process client; its retry gets the answer`,
    };
  }

  /**
   * Runs one request of an HTTP client with its webhook calls made around it: `run` again after
   * each call it needed, until it no longer needs one. The answers it used are forgotten after.
   */
  async admitted<T>(run: () => T): Promise<T> {
    const used: string[] = [];
    try {
      for (let calls = 0; ; calls++) {
        this.waiting = true;
        try {
          return run();
        } catch (e) {
          if (!(e instanceof WebhookCallPending) || calls >= MAX_CALLS_PER_REQUEST) throw e;
          used.push(keyOf(e.hook, e.review));
          this.waiting = false;
          await this.fetch(e.hook, e.review);
        } finally {
          this.waiting = false;
        }
      }
    } finally {
      for (const key of used) this.answers.delete(key);
    }
  }

  private fetch(hook: Webhook, review: AdmissionReview): Promise<void> {
    const key = keyOf(hook, review);
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = postReview(hook, review).then((outcome) => {
        this.inFlight.delete(key);
        if (this.answers.size >= MAX_BACKGROUND_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
        this.answers.set(key, remember(outcome, review.request.uid));
      });
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}

/** The review without its uid (a new one each time the request runs again). */
function keyOf(hook: Webhook, review: AdmissionReview): string {
  return `${hook.name}\u0000${webhookUrl(hook)}\u0000${JSON.stringify({ ...review.request, uid: '' })}`;
}

/** An answer for the review sent: its uid, if it was that review's, stands for whichever uid the next run's review has. */
function remember(outcome: WebhookOutcome, sentUid: string): WebhookOutcome {
  if ('response' in outcome && outcome.response?.uid === sentUid)
    return { response: { ...outcome.response, uid: SENT_UID } };
  return outcome;
}

/** Where a webhook is posted: the address to connect to and the TLS name to verify. */
function target(hook: Webhook): { host: string; port: number; path: string; servername?: string } | string {
  const cc = hook.clientConfig ?? {};
  if (cc.service) {
    const svc = cc.service;
    return {
      host: '127.0.0.1',
      port: svc.port ?? 443,
      path: svc.path ?? '/',
      servername: `${svc.name}.${svc.namespace}.svc`,
    };
  }
  const url = new URL(cc.url ?? '');
  if (!LOOPBACK.has(url.hostname))
    return `dial tcp: lookup ${url.hostname}: this simulated kube-apiserver calls webhooks on the loopback address only`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, port: Number(url.port || 443), path: url.pathname || '/' };
}

/**
 * POSTs the AdmissionReview (webhook.go callHook through client-go's rest client) and reads the
 * AdmissionReview answered, worded as Go's HTTP client words failures.
 */
function postReview(hook: Webhook, review: AdmissionReview): Promise<WebhookOutcome> {
  const url = webhookUrl(hook);
  const to = target(hook);
  if (typeof to === 'string') return Promise.resolve({ callError: `Post "${url}": ${to}` });
  const timeoutMs = (hook.timeoutSeconds ?? 10) * 1000;
  const body = JSON.stringify(review);
  const ca = hook.clientConfig?.caBundle
    ? Buffer.from(hook.clientConfig.caBundle, 'base64').toString('utf8')
    : undefined;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = httpsRequest(
      {
        host: to.host,
        port: to.port,
        path: `${to.path}?timeout=${hook.timeoutSeconds ?? 10}s`,
        method: 'POST',
        ...(to.servername ? { servername: to.servername } : {}),
        ...(ca ? { ca } : {}),
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, */*',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'kube-apiserver-admission',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => done({ callError: `Post "${url}": ${e.message}` }));
        res.on('end', () => done(readAnswer(url, res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      },
    );
    // The context deadline of the call (timeoutSeconds), on the wall clock: a webhook's latency is real.
    const timer = setTimeout(() => {
      done({ callError: `Post "${url}": context deadline exceeded` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => done({ callError: `Post "${url}": ${goError(e, to)}` }));
    req.end(body);
  });
}

function readAnswer(url: string, code: number, text: string): WebhookOutcome {
  if (code < 200 || code > 299) {
    // rest.Result.Error for a body that is not a Status: client-go's generic status errors.
    if (code === 404) return { callError: 'the server could not find the requested resource' };
    return {
      callError: `an error on the server (${JSON.stringify(text.trim() || 'unknown')}) has prevented the request from succeeding`,
    };
  }
  let parsed: { response?: AdmissionResponse };
  try {
    parsed = JSON.parse(text) as { response?: AdmissionResponse };
  } catch (e) {
    return { callError: `Post "${url}": couldn't get version/kind; json parse error: ${(e as Error).message}` };
  }
  return { response: parsed.response as AdmissionResponse };
}

/** Node's connection and TLS errors as Go's net/http and crypto/tls word them. */
function goError(e: NodeJS.ErrnoException, to: { host: string; port: number }): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${to.host}:${to.port}: connect: connection refused`;
    case 'ECONNRESET':
      return 'EOF';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${e.message}`;
    default:
      return e.message;
  }
}
