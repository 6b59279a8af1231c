import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { parse } from 'yaml';
import { eventually, openWatch, request } from '../server/testing';
import { Release } from '../../foundation/release';
import { formatTimeline } from '../../foundation/timeline/text';
import { JUMP_QUIET_MS, type JumpClock, parseClockMode, type ClockMode } from './clock-driver';
import { CLOCK_PATH, REPORT_PATH, serve, VIRTUAL_TIME_HEADER, type ServedCluster } from './serve';

const running: ServedCluster[] = [];
after(() => Promise.all(running.map((s) => s.close())));

async function start(clock: ClockMode = parseClockMode('jump')): Promise<ServedCluster> {
  const s = await serve({ port: 0, clock, reportDir: mkdtempSync(join(tmpdir(), 'serve-test-')) });
  running.push(s);
  return s;
}

const PODS = '/api/v1/namespaces/default/pods';

/**
 * What `kubectl delete pod web` sends (delete.go, then wait/delete.go): DELETE, then a LIST by
 * name and a WATCH from its resourceVersion until DELETED.
 */
async function kubectlDelete(s: ServedCluster, name: string): Promise<void> {
  const del = await request(s.url, 'DELETE', `${PODS}/${name}`, {
    body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
  });
  expect(del.status).to.equal(200);
  const list = await request(s.url, 'GET', `${PODS}?fieldSelector=metadata.name%3D${name}`);
  const watch = await openWatch(
    s.url,
    `${PODS}?fieldSelector=metadata.name%3D${name}&resourceVersion=${list.json.metadata.resourceVersion}&watch=true`,
  );
  await eventually(() => watch.events.some((e) => e.type === 'DELETED'), `pod ${name} DELETED on the watch`, 10_000);
  watch.close();
}

describe('terminating serve', () => {
  it('serves the default cluster on 127.0.0.1 with a kubeconfig for it and the virtual time in a header', async () => {
    const s = await start();
    expect(s.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const config = parse(readFileSync(s.kubeconfig, 'utf8'));
    expect(config.clusters[0].cluster.server).to.equal(s.url);
    expect(config.contexts[0].context.namespace).to.equal('default');
    const pods = await request(s.url, 'GET', PODS);
    expect(pods.json.items.map((p: { metadata: { name: string } }) => p.metadata.name)).to.have.members([
      'web',
      'api',
      'held',
      'data',
      'frontend-1',
      'frontend-2',
    ]);
    expect(pods.headers[VIRTUAL_TIME_HEADER.toLowerCase()]).to.equal('2025-01-01T00:01:00.000Z');
  });

  it('jump: a graceful deletion of 30s ends at T+31s, with the same timeline on every run', async () => {
    const timelines: string[] = [];
    for (let run = 0; run < 2; run++) {
      const s = await start();
      await kubectlDelete(s, 'web');
      const text = formatTimeline(s.cluster.timeline.since(s.t0), s.t0).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'UID');
      expect(text)
        .to.match(/T\+30s\s+runtime\s+SIGKILL app pods\/web/)
        .and.match(/T\+31s\s+status\s+DELETE pods\/web gracePeriodSeconds=0/);
      timelines.push(text.slice(0, text.indexOf('DELETE pods/web gracePeriodSeconds=0')));
      await s.close();
    }
    expect(timelines[1]).to.equal(timelines[0]);
  });

  it('jump: time stands still while no client waits on a watch', async () => {
    const s = await start();
    const jump = s.driver as JumpClock;
    await request(s.url, 'DELETE', `${PODS}/web`);
    expect(jump.armed).to.equal(false);
    const watch = await openWatch(s.url, `${PODS}?watch=true&fieldSelector=metadata.name%3Dweb`);
    await eventually(
      () => watch.events.some((e) => e.type === 'DELETED'),
      'the jump to the kubelet finishing web',
      10_000,
    );
    watch.close();
    await eventually(() => !jump.armed, 'the watch closed');
    const at = (await request(s.url, 'GET', CLOCK_PATH)).json.sinceStartMs;
    expect(at).to.be.at.least(31_000);
    await request(s.url, 'GET', PODS);
    expect((await request(s.url, 'GET', CLOCK_PATH)).json.sinceStartMs).to.equal(at);
  });

  it('jump: a watch of one pod by name stops waiting once its DELETED went out, so a client slow to close it cannot move time on', async () => {
    const s = await start();
    const jump = s.driver as JumpClock;
    // web (it ignores SIGTERM) goes after its 1 s; api, deleted too, takes longer: work is left when web is gone.
    await request(s.url, 'DELETE', `${PODS}/web?gracePeriodSeconds=1`);
    await request(s.url, 'DELETE', `${PODS}/api`);
    const watch = await openWatch(s.url, `${PODS}?watch=true&fieldSelector=metadata.name%3Dweb`);
    await eventually(() => watch.events.some((e) => e.type === 'DELETED'), 'web DELETED on the watch', 10_000);
    const at = s.cluster.clock.now();
    // Six quiet periods with the stream still open, as a kubectl slow to exit leaves it.
    await new Promise((done) => setTimeout(done, 6 * JUMP_QUIET_MS));
    expect(jump.armed).to.equal(false);
    expect(s.cluster.clock.now() - s.t0).to.equal(at - s.t0);
    expect(
      s.cluster.apiserver.get('pods', 'default', 'api').ok,
      'api still terminating: there was work to jump to',
    ).to.equal(true);
    watch.close();
  });

  it('K81 jump: a client that polls one object (the third GET, each a quiet period apart) moves time one instant per quiet period; two GETs do not', async () => {
    const s = await start();
    const jump = s.driver as JumpClock;
    await request(s.url, 'DELETE', `${PODS}/web`);
    const poll = (session: string) => request(s.url, 'GET', `${PODS}/web`, { headers: { 'Kubectl-Session': session } });
    const pause = () => new Promise((done) => setTimeout(done, 2 * JUMP_QUIET_MS));
    // Two GETs of one process, and a third from another kubectl: nobody polls, time stands still.
    await poll('a');
    await pause();
    await poll('a');
    await pause();
    await poll('b');
    await pause();
    expect(jump.armed).to.equal(false);
    expect(s.cluster.clock.now()).to.equal(s.t0);
    // The third GET of process a: now it polls.
    await poll('a');
    expect(jump.armed).to.equal(true);
    await eventually(() => s.cluster.clock.now() > s.t0, 'time moves for the polling client', 10_000);
    const first = s.cluster.clock.now();
    await pause();
    expect(s.cluster.clock.now()).to.be.above(first);
    // web ignores SIGTERM: it goes at the end of its 30 s, one instant at a time.
    // kubectl drain's wait: GET every so often until the pod is gone.
    for (let i = 0; (await poll('a')).status !== 404; i++) {
      expect(i, 'web gone within 200 polls').to.be.below(200);
      await pause();
    }
    const timeline = formatTimeline(s.cluster.timeline.since(s.t0), s.t0);
    expect(timeline).to.match(/T\+30s\s+runtime\s+SIGKILL app pods\/web/);
  });

  it('jump: stops when the cluster has settled (a finalizer holds the pod), a client still watching', async () => {
    const s = await start();
    await request(s.url, 'DELETE', `${PODS}/held`);
    const watch = await openWatch(s.url, `${PODS}?watch=true&fieldSelector=metadata.name%3Dheld`);
    await eventually(
      () => watch.events.some((e) => e.object.status?.phase === 'Succeeded' || e.object.status?.phase === 'Failed'),
      'the kubelet reports held terminal',
      10_000,
    );
    await eventually(() => !(s.driver as JumpClock).armed, 'nothing left to jump to');
    expect(watch.events.some((e) => e.type === 'DELETED')).to.equal(false);
    const now = (await request(s.url, 'GET', CLOCK_PATH)).json.sinceStartMs;
    expect(now).to.be.below(10 * 60_000);
    watch.close();
  });

  it('the clock endpoint reads and advances the virtual time, and rejects what it cannot do', async () => {
    const s = await start();
    expect((await request(s.url, 'GET', CLOCK_PATH)).json).to.deep.equal({
      mode: 'jump',
      now: '2025-01-01T00:01:00.000Z',
      sinceStart: 'T+0s',
      sinceStartMs: 0,
    });
    await request(s.url, 'DELETE', `${PODS}/api`);
    const advanced = await request(s.url, 'POST', `${CLOCK_PATH}?advance=1m`);
    expect(advanced.json.sinceStart).to.equal('T+1m');
    expect(advanced.headers[VIRTUAL_TIME_HEADER.toLowerCase()]).to.equal('2025-01-01T00:02:00.000Z');
    expect((await request(s.url, 'GET', `${PODS}/api`)).status).to.equal(404);
    expect(s.cluster.timeline.since(s.t0).map((e) => e.text)).to.include('clock advanced by 1m');
    const bad = await request(s.url, 'POST', `${CLOCK_PATH}?advance=soon`);
    expect(bad.status).to.equal(400);
    expect(bad.json.message).to.match(/^bad duration "soon": expected /);
    expect((await request(s.url, 'POST', CLOCK_PATH)).status).to.equal(400);
    expect((await request(s.url, 'PUT', CLOCK_PATH)).status).to.equal(405);
  });

  it('fast=N: virtual time runs N times as fast as wall time', async () => {
    const s = await start(parseClockMode('fast=600'));
    await request(s.url, 'DELETE', `${PODS}/web`);
    await eventually(
      () => s.cluster.apiserver.get('pods', 'default', 'web').ok === false,
      'web gone after 31 virtual seconds',
      10_000,
    );
    expect(s.cluster.clock.now() - s.t0).to.be.at.least(31_000);
  });

  it('writes the session report on demand: the timeline as HTML diagram, text and data', async () => {
    const s = await start();
    await kubectlDelete(s, 'web');
    const r = await request(s.url, 'POST', REPORT_PATH);
    expect(r.status).to.equal(200);
    expect(readFileSync(r.json.files.text, 'utf8')).to.match(/T\+0s\s+apiserver\s+DELETE pods\/web/);
    expect(
      JSON.parse(readFileSync(r.json.files.data, 'utf8')).events.some(
        (e: { text: string }) => e.text === 'SIGKILL app pods/web',
      ),
    ).to.equal(true);
    expect(readFileSync(r.json.files.html, 'utf8')).to.contain('<div class="sd"').and.contain('SIGKILL app pods/web');
    expect(readFileSync(r.json.files.objects, 'utf8')).to.not.match(/name: web\n/);
    // The served pods keep managedFields (R112); the report prints them as kubectl does, without.
    const api = s.cluster.apiserver.get('pods', 'default', 'api');
    expect(api.ok && api.object.metadata.managedFields).to.not.equal(undefined);
    expect(readFileSync(r.json.files.objects, 'utf8'))
      .to.match(/name: api\n/)
      .and.not.include('managedFields');
    expect((await request(s.url, 'GET', REPORT_PATH)).status).to.equal(405);
  });

  it('--kubernetes: every component runs that release', async () => {
    const s = await serve({
      port: 0,
      clock: parseClockMode('jump'),
      release: Release.of(30),
      reportDir: mkdtempSync(join(tmpdir(), 'serve-test-')),
    });
    running.push(s);
    expect(s.cluster.release.toString()).to.equal('v1.30');
    expect(s.cluster.node('node-1').config.kubelet.release.toString()).to.equal('v1.30');
  });

  it('bad --clock values get one clear error', () => {
    expect(() => parseClockMode('slow')).to.throw(
      'invalid --clock "slow": expected jump, jump=QUIET (e.g. jump=200ms), realtime, manual, or fast=N',
    );
    expect(() => parseClockMode('fast=0')).to.throw('invalid --clock "fast=0"');
    expect(() => parseClockMode('jump=1x')).to.throw(
      'invalid --clock "jump=1x": the quiet period of jump=QUIET is a duration',
    );
  });
});
