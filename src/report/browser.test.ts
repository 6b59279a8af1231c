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
import { runCucumber } from '../../scripts/cucumber-in-process';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, 'reports', 'report-screenshot.png');
const README_SCREENSHOT = path.join(ROOT, 'docs', 'report-screenshot.png');
/** The scenario the test opens, by its name (lines move when the feature is edited). */
const OPENED_NAME = 'the kubelet kills the container, reports Failed, and sends the final DELETE';

const FAILING = `Feature: a scenario that fails
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
      name: [`^${OPENED_NAME}$`, '^SIGKILL expected at the wrong second$'],
      format: [`./src/report/formatter.cjs:${report}`],
    });
    expect(run.success, `cucumber should fail on the failing scenario only:\n${run.output}`).to.equal(false);
    expect(run.output, run.output).to.include('2 scenarios (1 failed, 1 passed)');
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
    expect(await failed.count()).to.equal(1);
    expect(await failed.locator('pre.error').isVisible()).to.equal(true);
    expect(await failed.locator('.sd-mismatch .sd-badge').innerText()).to.contain("row 2's text, at T+30s instead of T+2m");
    expect(await failed.locator('.sd-expected').innerText()).to.contain('expected row 2 | T+2m | runtime | SIGKILL app |');
  });

  it('takes the screenshot the README shows', async () => {
    const scenario = opened();
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await scenario.screenshot({ path: SCREENSHOT });
    if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(SCREENSHOT, README_SCREENSHOT);
    expect(existsSync(README_SCREENSHOT), 'docs/report-screenshot.png (UPDATE_SCREENSHOT=1 writes it)').to.equal(true);
  });
});
