// This test file runs in the process that loads cucumber (scripts/unit-tests.ts): it runs two scenarios through cucumber's API, and Chromium as a child process.
/**
 * The report as a person sees it, in a real browser: cucumber writes the report of a graceful
 * deletion scenario and of one whose order assertion fails; Chromium (Debian's
 * `chromium`, driven by playwright-core, no browser download) opens it, and the test checks from
 * the rendered page that one click on a scenario shows its diagram, that no event text is cut or
 * clipped, that the compact view's toggle shows the folded rows, and that a failed scenario is
 * open with its marks. It saves a screenshot in reports/ (and in docs/ for the README with
 * UPDATE_SCREENSHOT=1). Without Chromium it is skipped, saying how to install it.
 */
import { after, before, describe, it } from 'node:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runCucumber } from '../../../scripts/cucumber-in-process';
import { generatedScenarios } from './generated-suite';
import { renderReport } from './html';

const ROOT = path.resolve(__dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, 'reports', 'report-screenshot.png');
const README_SCREENSHOT = path.join(ROOT, 'docs', 'report-screenshot.png');
/** A packed scenario is its summary, its steps and a few controls; an unpacked diagram alone is hundreds of elements. */
const ELEMENTS_PER_PACKED_SCENARIO = 100;
/** The scenario the test opens, by its name (lines move when the feature is edited). */
const OPENED_NAME = 'the kubelet kills the container, reports Failed, and sends the final DELETE';

const FAILING = `Feature: a scenario that fails
  Why this feature: a description under the feature's name.

  Scenario: a pod with a manifest of its own
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      \"\"\"
      spec:
        terminationGracePeriodSeconds: 5
      \"\"\"
    When the user deletes pod "web"
    And the cluster settles
    Then pod "web" is gone

  @wrong-second
  Scenario: SIGKILL expected at the wrong second
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM
    When I run \`kubectl delete pod web\`
    Then these events happen in order:
      | at   | component | event           |
      | T+0s | runtime   | SIGTERM app     |
      | T+2m | runtime   | SIGKILL app     |
`;

const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: install it with  apt-get update && apt-get install -y chromium  (or set CHROMIUM to its path)`;
if (skip) console.log(`# browser test skipped: ${skip}`);

describe('the report in Chromium', { skip, timeout: 180_000 }, () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;

  const opened = () => page.locator('details.scenario', { has: page.locator(':scope > summary', { hasText: OPENED_NAME }) });

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'terminating-report-'));
    const failing = path.join(dir, 'failing.feature');
    writeFileSync(failing, FAILING);
    const report = path.join(dir, 'report.html');
    // Only the two scenarios the test looks at, to keep it fast.
    const run = await runCucumber({
      paths: ['features/graceful-deletion.feature', failing],
      name: [`^${OPENED_NAME}$`, '^SIGKILL expected at the wrong second$', '^a pod with a manifest of its own$'],
      format: [`./src/frontends/report/formatter.cjs:${report}`],
    });
    expect(run.success, `cucumber should fail on the failing scenario only:\n${run.output}`).to.equal(false);
    expect(run.output, run.output).to.include('3 scenarios (1 failed, 2 passed)');
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    context.setDefaultTimeout(15_000);
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`file://${report}`);
  });

  after(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows a scenario\'s diagram after one click on the scenario', async () => {
    const scenario = opened();
    expect(await scenario.locator('.sd').isVisible(), 'closed before the click').to.equal(false);
    await scenario.locator(':scope > summary').click();
    const diagram = scenario.locator('.diagram .sd');
    await diagram.waitFor({ state: 'visible' });
    expect(await diagram.isVisible()).to.equal(true);
    expect(await diagram.locator('.sd-row:visible').count()).to.be.above(15);
    expect(await diagram.locator('.sd-arrow:visible').count(), 'arrows from sender to receiver').to.be.above(5);
  });

  it('cuts no event text: every text is whole, inside its row and inside the page', async () => {
    const problems = await opened().locator('.sd').evaluate((sd) => {
      const out: string[] = [];
      const box = sd.getBoundingClientRect();
      for (const x of sd.querySelectorAll<HTMLElement>('.sd-row:not(.sd-head) .sd-x')) {
        if (x.offsetParent === null) continue; // folded away (compact view)
        const text = x.querySelector('.sd-text')?.textContent ?? '';
        const r = x.getBoundingClientRect();
        if (x.scrollWidth > x.clientWidth + 1) out.push(`overflows its row: ${text}`);
        if (r.right > box.right + 1 || r.right > window.innerWidth) out.push(`runs out of the diagram: ${text}`);
        if (text.endsWith('…')) out.push(`ends with an ellipsis: ${text}`);
      }
      return out;
    });
    expect(problems, problems.join('\n')).to.deep.equal([]);
    const long = opened().locator('.sd-text', { hasText: 'preconditions.uid=' }).first();
    expect(await long.innerText()).to.match(/^DELETE pods\/web gracePeriodSeconds=0 preconditions\.uid=[0-9a-f-]{36}$/);
  });

  it('folds the etcd and watch rows into their request until the toggle shows them', async () => {
    const echo = opened().locator('.sd-echo');
    expect(await echo.count()).to.be.above(3);
    expect(await echo.first().isVisible()).to.equal(false);
    await page.locator('#expand-echoes').check();
    expect(await echo.first().isVisible()).to.equal(true);
    await page.locator('#expand-echoes').uncheck();
  });

  it('opens a failed scenario with its error and marks where the expected row was looked for', async () => {
    const failed = page.locator('details.scenario.st-failed');
    await failed.locator('.diagram').waitFor();
    expect(await failed.count()).to.equal(1);
    expect(await failed.locator('pre.error').isVisible()).to.equal(true);
    expect(await failed.locator('.sd-mismatch .sd-badge').innerText()).to.contain("row 2's text, at T+30s instead of T+2m");
    expect(await failed.locator('.sd-expected').innerText()).to.contain('expected row 2 | T+2m | runtime | SIGKILL app |');
  });

  it('draws the grace period as a bar, labelled where it starts, and the steps on the time axis', async () => {
    const scenario = opened();
    const bars = scenario.locator('.sd-bar.k-grace');
    expect(await bars.count(), 'one bar segment per row of the grace period').to.be.above(5);
    const from = scenario.locator('.sd-bar.k-grace.sd-bar-from');
    expect(await from.isVisible()).to.equal(true);
    const box = (await from.boundingBox())!;
    expect(box.width, 'a visible bar').to.be.at.least(3);
    expect(await scenario.locator('.sd-ibar.k-grace').first().innerText()).to.match(/^grace period of pods\/web: deletionTimestamp T\+30s$/);
    expect(await scenario.locator('.sd-step').first().innerText()).to.contain('When I run `kubectl delete pod web`');
  });

  it("shows a step's doc string and table with the step, and the feature's description", async () => {
    const manifest = page.locator('details.scenario', { has: page.locator(':scope > summary', { hasText: 'a pod with a manifest of its own' }) });
    await manifest.locator(':scope > summary').click();
    await manifest.locator('.diagram').waitFor();
    const doc = manifest.locator('pre.docstring');
    expect(await doc.isVisible()).to.equal(true);
    expect(await doc.innerText()).to.equal('spec:\n  terminationGracePeriodSeconds: 5');
    expect(await page.locator('details.st-failed .datatable tbody tr').first().innerText()).to.match(/^row 1\s+T\+0s\s+runtime\s+SIGTERM app$/);
    expect(await page.locator('.description', { hasText: "Why this feature: a description under the feature's name." }).isVisible()).to.equal(true);
  });

  it('links the failed count to the list of failed scenarios, each a link that opens it', async () => {
    await page.locator('header a.st-failed').click();
    const link = page.locator('#list-failed a', { hasText: 'SIGKILL expected at the wrong second' });
    expect(await link.isVisible()).to.equal(true);
    await link.click();
    expect(await page.locator('details.scenario.st-failed').evaluate((d) => (d as HTMLDetailsElement).open)).to.equal(true);
  });

  it('explains its marks in a legend', async () => {
    const legend = page.locator('#legend');
    expect(await legend.locator('dl').isVisible(), 'closed at first').to.equal(false);
    await legend.locator('summary').click();
    expect(await legend.locator('dl').isVisible()).to.equal(true);
    const text = await legend.innerText();
    for (const words of ['causality', '✓ row 2', 'dashed', 'grace period up to the deletionTimestamp', 'back-off', 'one lane per pod']) expect(text).to.contain(words);
    expect(await legend.locator('.lg-bar.k-grace').isVisible()).to.equal(true);
    await legend.locator('summary').click();
  });

  it('finds scenarios by a word of their events, and filters by status, tag and feature', async () => {
    const visible = () => page.locator('details.scenario:visible').count();
    /** Does what changes a filter and waits for the page to have applied it (a search may unpack diagrams first). */
    const filter = async (change: () => Promise<unknown>) => {
      const before = await page.evaluate(() => document.body.dataset.filtered ?? '');
      await change();
      await page.waitForFunction((b) => (document.body.dataset.filtered ?? '') !== b, before);
    };
    expect(await visible()).to.equal(3);
    await filter(() => page.locator('#q').fill('propagationPolicy=Background'));
    expect(await visible(), 'a text of the diagrams: the two kubectl scenarios').to.equal(2);
    await filter(() => page.locator('#q').fill('sigkill wrong'));
    expect(await visible()).to.equal(1);
    expect(await page.locator('#shown').innerText()).to.equal('1 of 3 scenarios shown');
    await filter(() => page.locator('#q').fill(''));
    await filter(() => page.locator('.f-status[value="failed"]').uncheck());
    expect(await visible()).to.equal(2);
    expect(await page.locator('details.scenario.st-failed').isVisible()).to.equal(false);
    await filter(() => page.locator('.f-status[value="failed"]').check());
    await filter(() => page.locator('#f-tag').selectOption('@wrong-second'));
    expect(await visible()).to.equal(1);
    await filter(() => page.locator('#f-tag').selectOption(''));
    await filter(() => page.locator('#f-feature').selectOption({ label: 'a scenario that fails' }));
    expect(await visible()).to.equal(2);
    expect(await page.locator('section.feature:visible').count(), 'a feature with nothing left to show is hidden').to.equal(1);
    await filter(() => page.locator('#f-feature').selectOption(''));
    expect(await visible()).to.equal(3);
  });

  // What keeps a big report quick to open is how little it builds at load: each scenario's diagram
  // stays packed until it is opened or searched. That is counted here (elements in the page), not
  // timed: a wall-time bound fails on a loaded machine whatever the page does.
  it('opens a report of 500 scenarios with their diagrams still packed (a few elements per scenario)', async () => {
    const file = path.join(dir, 'big.html');
    writeFileSync(file, renderReport(generatedScenarios(500)));
    const big = await context.newPage();
    await big.goto(`file://${file}`);
    const elements = await big.evaluate(() => document.getElementsByTagName('*').length);
    expect(await big.locator('details.scenario').count()).to.equal(500);
    // A text only in one scenario's diagram, which nobody opened (still packed): the search unpacks it.
    await big.locator('#q').fill('pods/web-123 ');
    await big.waitForFunction(() => document.body.dataset.filtered !== undefined);
    expect(await big.locator('details.scenario:visible').count()).to.equal(1);
    expect(await big.locator('details.scenario:visible > summary').innerText()).to.contain('scenario 123');
    // The bound can fail: one opened scenario's diagram alone is more than a packed scenario's share.
    await big.locator('details.scenario:visible > summary').click();
    await big.locator('details.scenario:visible .diagram .sd').waitFor({ state: 'visible' });
    const unpacked = (await big.evaluate(() => document.getElementsByTagName('*').length)) - elements;
    expect(unpacked, 'elements one unpacked diagram adds').to.be.above(ELEMENTS_PER_PACKED_SCENARIO);
    await big.close();
    expect(elements, `${elements} elements at load for 500 scenarios`).to.be.below(500 * ELEMENTS_PER_PACKED_SCENARIO);
  });

  it('takes the screenshot the README shows', async () => {
    const scenario = opened();
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await scenario.screenshot({ path: SCREENSHOT });
    if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(SCREENSHOT, README_SCREENSHOT);
    expect(existsSync(README_SCREENSHOT), 'docs/report-screenshot.png (UPDATE_SCREENSHOT=1 writes it)').to.equal(true);
  });
});
