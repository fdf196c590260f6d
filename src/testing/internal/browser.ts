import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type { YeoulConfig } from '../../config/index.ts';
import { requireSystemProgram } from './system-programs.ts';
import { startTestServer } from './test-server.ts';
import { waitUntil } from './wait-until.ts';

const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Chromium with a fresh profile; `close` ends it and removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts the system's Chromium (YEOUL_CHROMIUM, else Debian's /usr/bin/chromium, else one on
 * PATH) through playwright-core, which downloads no browser; `npm test` installs Debian's when
 * it can. Throws a one-line error naming the install command when Chromium is missing: browser
 * tests fail within seconds, never skip. Start it before the servers a test needs, so a missing
 * browser leaves nothing running.
 * @example
 * const browser = await launchBrowser();
 * const page = await browser.newPage({ width: 390 });
 */
export async function launchBrowser(options: { locale?: string } = {}): Promise<TestBrowser> {
  const executablePath = requireSystemProgram('chromium');
  const profile = mkdtempSync(join(tmpdir(), 'yeoul-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    // A browser that cannot start fails the test instead of holding it.
    timeout: 60_000,
    args: chromiumFlags,
    locale: options.locale ?? 'en-US',
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async newPage(size = {}) {
      const page = await context.newPage();
      if (size.width || size.height)
        await page.setViewportSize({ width: size.width ?? 1280, height: size.height ?? 860 });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects what the page logs as errors (console errors, uncaught exceptions) from now on. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return errors;
}

/** A `yeoul serve` on a free port and a fresh data folder, for browser tests. */
export interface ConsoleServer {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Starts the real server (runtime and HTTP) as `yeoul serve` does, on port 0 with a temporary
 * data folder, the environment given (e.g. `YEOUL_MODEL`, `YEOUL_API_KEYS`) and no logging.
 */
export async function serveConsole(
  env: Record<string, string> = {},
  config?: YeoulConfig,
): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-console-'));
  const { server } = await startTestServer(
    dataDir,
    { HOST: '127.0.0.1', ...env },
    config ? { config } : {},
  );
  return {
    url: server.url,
    dataDir,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sends `text` from the console's composer and waits for its answer; resolves to the answer's message. */
export async function askConsole(page: Page, text: string) {
  const before = await page.locator('[data-testid="message"][data-role="assistant"]').count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="message"][data-role="assistant"]').nth(before);
  await waitUntil(
    async () => (await answer.getAttribute('aria-busy')) === 'false',
    `the answer to "${text}"`,
  );
  return answer;
}

/** axe-core's critical and serious violations on the page as it is now (`id: targets` each). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the page's CSP does not apply.
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.evaluate(
      readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
    );
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations as Array<{
      id: string;
      impact: string;
      nodes: Array<{ target: string[] }>;
    }>;
  });
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`);
}
