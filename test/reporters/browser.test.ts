/**
 * report.html in a real browser, without screenshots: Debian's Chromium driven by playwright-core
 * opens the report of a failing run from a file, with its Content-Security-Policy in force: a
 * synthetic run (the project's whole catalog and ambiguity register; failed, errored, warning,
 * skipped and passed checks) and a real run of the operator suite against a broken Operator. The
 * test reads the laid-out page: failures come first, passed checks are collapsed, every in-page
 * link (`href="#..."`) resolves to an element, and following the stable anchor of a passed check
 * opens its collapsed block.
 *
 * Needs `/usr/bin/chromium` (`apt-get install -y chromium`; `CPRC_CHROMIUM` names another
 * binary). Without it the test is skipped, and its title says why.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAmbiguities, loadCatalog } from '../../src/catalog/index.js';
import { writeReports } from '../../src/reporters/index.js';
import { statusOpen } from '../broken/operator/status-open.js';
import { config, fullTests, stream } from './fixtures.js';

const CHROMIUM = process.env.CPRC_CHROMIUM ?? '/usr/bin/chromium';
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cprc.js');
const missing = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CPRC_CHROMIUM`;
const browserIt = missing ? it.skip : it;

/** The few DOM members the page check reads. */
interface PageElement {
  id: string;
  open?: boolean;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { top: number };
  querySelector(selector: string): PageElement | null;
  checkVisibility(options?: { contentVisibilityAuto?: boolean }): boolean;
}
interface PageDocument {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getElementById(id: string): PageElement | null;
}

describe('report.html of a failing run in Chromium', () => {
  let dir: string;
  let browser: Browser | undefined;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cprc-browser-'));
    await writeReports({
      reportsDir: dir,
      events: stream(fullTests()),
      catalog: loadCatalog(),
      ambiguities: loadAmbiguities(),
      incomplete: false,
      config: config(),
    });
    url = pathToFileURL(join(dir, 'report.html')).href;
    if (!missing) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  browserIt(
    `a synthetic failing run: failures first, passed checks collapsed, every anchor resolving${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      await checkReport(url);
    },
    60_000,
  );

  browserIt(
    `a real failing run (operator suite against a broken Operator): the same${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const broken = await statusOpen.start({ workDir: dir });
      try {
        const configPath = join(dir, 'config.json');
        writeFileSync(configPath, JSON.stringify(broken.config));
        const reports = join(dir, 'real');
        const code = await new Promise<number | null>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              BIN,
              'run',
              '--config',
              configPath,
              '--target',
              'operator',
              '--seed',
              '9',
              '--runs',
              '5',
              '--reports',
              reports,
            ],
            { stdio: 'ignore' },
          );
          child.on('error', reject);
          child.on('close', resolve);
        });
        expect(code).toBe(1);
        await checkReport(pathToFileURL(join(reports, 'report.html')).href);
      } finally {
        await broken.close();
      }
    },
    240_000,
  );

  /** Opens `reportUrl` and checks the laid-out page. */
  async function checkReport(reportUrl: string): Promise<void> {
    const page = await (browser as Browser).newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') blocked.push(m.text());
    });
    await page.goto(reportUrl);
    const layout = await page.evaluate(() => {
      // the page's own DOM (the project compiles without the DOM library)
      const document = (globalThis as unknown as { document: PageDocument }).document;
      const top = (sel: string): number =>
        document.querySelector(sel)?.getBoundingClientRect().top ?? Number.NaN;
      const firstH2 = document.querySelector('h2')?.id;
      const articles = [...document.querySelectorAll('article.failure')].map((a) => ({
        id: a.id,
        state: a.querySelector('h3 .v')?.textContent,
      }));
      const links = [...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute('href') ?? '');
      const dangling = links.filter((href) => !document.getElementById(decodeURIComponent(href.slice(1))));
      const passed = document.querySelector('details#passed');
      const passedRow = passed?.querySelector('tr[id^="check-"]');
      return {
        firstH2,
        failuresTop: top('#failures'),
        requirementsTop: top('#requirements'),
        testsTop: top('#tests'),
        articles,
        links: links.length,
        dangling,
        passedOpen: passed?.open,
        passedRowId: passedRow?.id,
        passedRowShown: passedRow ? passedRow.checkVisibility({ contentVisibilityAuto: true }) : undefined,
      };
    });
    expect(layout.firstH2).toBe('failures');
    expect(layout.failuresTop).toBeLessThan(layout.requirementsTop);
    expect(layout.failuresTop).toBeLessThan(layout.testsTop);
    expect(layout.articles.length).toBeGreaterThan(0);
    expect(layout.articles.every((a) => a.id.startsWith('check-'))).toBe(true);
    expect(layout.articles.every((a) => a.state === 'failed' || a.state === 'error')).toBe(true);
    expect(layout.links).toBeGreaterThan(50);
    expect(layout.dangling).toEqual([]);
    expect(layout.passedOpen).toBe(false);
    expect(layout.passedRowShown).toBe(false);
    // the inline filter script runs under the page's CSP (its hash is allowed), nothing is refused
    expect(blocked).toEqual([]);

    // following a stable link to a passed check opens the collapsed block and shows the row
    await page.goto(`${reportUrl}#${layout.passedRowId}`);
    const target = page.locator(`[id="${layout.passedRowId}"]`);
    await expect.poll(() => target.isVisible()).toBe(true);
    // and a requirement anchor is an element of the page
    expect(await page.locator('[id="req-CPR-5-TOKEN-SINGLE-USE"]').count()).toBe(1);
    await page.close();
  }
});
