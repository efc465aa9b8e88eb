/**
 * `npm run bench:web`: Lighthouse on the built app and real server, with an account and 20 products
 * with photos, auditing /auth/login, / and a detail page (mobile and desktop, cold cache,
 * BENCH_WEB_RUNS times, default 3); medians go to bench/results-web.md. Debian's Chromium (or
 * CHROMIUM_PATH). BENCH_WEB_REPORTS=<folder> keeps the JSON reports; BENCH_WEB_PAGES=login,details
 * audits only those pages (login, products, details).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest } from '@playwright/test';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { newAccount } from '../e2e/support/accounts.js';
import { Api } from '../e2e/support/api.js';
import { ENV } from '../e2e/support/env.js';
import { buildTheApp, startBuiltServer } from '../e2e/support/server.js';
import { capturingSmtpServer } from '../e2e/support/smtp.js';
import { photo } from './seed.js';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/chromium.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const PRODUCTS = 20;
const KB = 1000;

/** The targets: mobile performance, accessibility, CLS and JS on the wire. */
const TARGETS = { performance: 95, accessibility: 100, cls: 0.01 };
const JS_BUDGET: Record<PageName, number | undefined> = {
  login: 80 * KB,
  products: 150 * KB,
  details: undefined,
};

/** The browser suite's Chromium and flags (e2e/support/chromium.ts), headless. */
const CHROME_FLAGS = ['--headless', ...CHROMIUM_ARGS];

type PageName = 'login' | 'products' | 'details';
type Preset = 'mobile' | 'desktop';

interface Figures {
  performance: number;
  accessibility: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsBytes: number;
}

let lighthouseVersion = '';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** What one Lighthouse report says, in the units of the results table. */
function figuresOf(lhr: Result): Figures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests =
    (
      lhr.audits['network-requests']?.details as
        { items: { resourceType?: string; transferSize?: number }[] } | undefined
    )?.items ?? [];
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    jsBytes: requests
      .filter((item) => item.resourceType === 'Script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

/**
 * One Lighthouse run on a fresh tab: the browser cache emptied, the session (or none) put into
 * local storage on the origin first, then the audit with Lighthouse's own storage reset off, so
 * that the token stays (the cache stays empty: nothing was loaded since it was cleared).
 */
/**
 * Lighthouse now and then fails a run of its own accord (NO_NAVSTART, a page that did not settle):
 * that run is done again, at most twice, rather than losing the whole benchmark.
 */
async function withRetries<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`[bench:web] ${(error as Error).message}: running it again`);
    }
  }
}

async function audit(
  browser: Browser,
  origin: string,
  url: string,
  preset: Preset,
  token?: string,
) {
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${origin}/api/health`);
    await page.evaluate((value) => {
      localStorage.clear();
      if (value) localStorage.setItem('AccessToken', value);
    }, token ?? null);
    const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: true,
      },
      config,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) {
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} on ${url}`);
    }
    lighthouseVersion = result.lhr.lighthouseVersion;
    if (process.env.BENCH_WEB_REPORTS) {
      // Every report in full, to look into (e.g. with the Lighthouse viewer).
      const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${preset}-${Date.now()}.json`;
      await writeFile(path.join(process.env.BENCH_WEB_REPORTS, name), JSON.stringify(result.lhr));
    }
    return figuresOf(result.lhr);
  } finally {
    await page.close();
  }
}

/** Creates a confirmed account with PRODUCTS products, each with its own photo, via the API. */
async function seed(baseUrl: string) {
  const context = await playwrightRequest.newContext({ baseURL: baseUrl });
  try {
    const api = new Api(context);
    const account = await api.signUpAndConfirm(newAccount('bench'));
    const token = await api.login(account);
    let firstId = '';
    for (let i = 0; i < PRODUCTS; i += 1) {
      const image = await photo(1155 - i * 17, 866 - i * 9);
      const response = await context.post('/api/products', {
        headers: { authorization: `Bearer ${token}` },
        multipart: {
          name: `Bench product ${i + 1}`,
          price: String(10 + i),
          stock: String((i * 7) % 30),
          description: `A product of the web benchmark, number ${i + 1}, with a photo.`,
          image: { name: `photo-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: image },
        },
      });
      if (response.status() !== 201) {
        throw new Error(`product ${i + 1}: ${response.status()} ${await response.text()}`);
      }
      const { product } = (await response.json()) as { product: { id: string } };
      firstId ||= product.id;
    }
    return { token, productId: firstId };
  } finally {
    await context.dispose();
  }
}

const format = {
  ms: (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`,
  cls: (value: number) => value.toFixed(3),
  kb: (bytes: number) => `${(bytes / KB).toFixed(1)} KB`,
};

function report(rows: { page: PageName; path: string; preset: Preset; figures: Figures }[]) {
  const misses: string[] = [];
  for (const { page, path: where, preset, figures } of rows) {
    const label = `${where} (${preset})`;
    if (preset === 'mobile' && figures.performance < TARGETS.performance) {
      misses.push(`${label}: performance ${figures.performance} < ${TARGETS.performance}`);
    }
    if (figures.accessibility < TARGETS.accessibility) {
      misses.push(`${label}: accessibility ${figures.accessibility} < ${TARGETS.accessibility}`);
    }
    if (figures.cls > TARGETS.cls) {
      misses.push(`${label}: CLS ${format.cls(figures.cls)} > ${TARGETS.cls}`);
    }
    const budget = JS_BUDGET[page];
    if (budget !== undefined && figures.jsBytes > budget) {
      misses.push(`${label}: JavaScript ${format.kb(figures.jsBytes)} > ${format.kb(budget)}`);
    }
  }
  const table = [
    '| page | preset | performance | accessibility | LCP | CLS | TBT | JS on the wire |',
    '| ---- | ------ | ----------: | ------------: | --: | --: | --: | -------------: |',
    ...rows.map(
      ({ path: where, preset, figures: f }) =>
        `| \`${where}\` | ${preset} | ${f.performance} | ${f.accessibility} | ${format.ms(f.lcpMs)} | ${format.cls(f.cls)} | ${format.ms(f.tbtMs)} | ${format.kb(f.jsBytes)} |`,
    ),
  ].join('\n');
  return { table, misses };
}

async function main() {
  const chromePath = chromiumPath();
  console.log(`[bench:web] ${await buildTheApp()}`);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-web-'));
  const dataDir = path.join(tmp, 'data');
  const mailDir = path.join(tmp, 'mail');
  for (const dir of [dataDir, mailDir]) mkdirSync(dir);
  // The e2e mail reader (used by Api.signUpAndConfirm) finds the received mails here.
  process.env[ENV.mailDir] = mailDir;
  const smtp = await capturingSmtpServer(mailDir).start();
  const server = await startBuiltServer(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      APP_SECRET: randomBytes(48).toString('base64url'),
      DATABASE_URL: undefined,
    },
    path.join(tmp, 'server.log'),
  );
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    const { token, productId } = await seed(server.baseUrl);
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const pages: { page: PageName; path: string; label: string; token?: string }[] = [
      { page: 'login', path: '/auth/login', label: '/auth/login' },
      { page: 'products', path: '/', label: '/', token },
      {
        page: 'details',
        path: `/details/product/${productId}`,
        label: '/details/product/{id}',
        token,
      },
    ];
    const only = process.env.BENCH_WEB_PAGES?.split(',');
    /** The performance score of every run, to show how much they vary. */
    const scoresOfRuns: string[] = [];
    const rows = [];
    for (const { page, path: where, label, token: session } of pages) {
      if (only && !only.includes(page)) continue;
      for (const preset of ['mobile', 'desktop'] as const) {
        const runs: Figures[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          runs.push(
            await withRetries(() =>
              audit(browser, server.baseUrl, server.baseUrl + where, preset, session),
            ),
          );
        }
        const figures = Object.fromEntries(
          (Object.keys(runs[0]!) as (keyof Figures)[]).map((key) => [
            key,
            median(runs.map((r) => r[key])),
          ]),
        ) as unknown as Figures;
        console.log(
          `[bench:web] ${label} ${preset}: performance ${runs.map((r) => r.performance).join(', ')}`,
        );
        rows.push({ page, path: label, preset, figures });
        scoresOfRuns.push(`\`${label}\` ${preset}: ${runs.map((r) => r.performance).join(', ')}`);
      }
    }
    await browser.disconnect();

    const { table, misses } = report(rows);
    const text = `# Web benchmark (Lighthouse ${lighthouseVersion})

\`npm run bench:web\`: the built app served by the real server on loopback, audited by Lighthouse's
mobile (simulated slow 4G, 4x CPU slowdown) and desktop presets, cold cache, with Debian's
Chromium. Medians of ${RUNS} runs each. The signed-in pages are of an account with ${PRODUCTS} products,
each with its own photo; the session is put into local storage before the audited load. "JS on the
wire" is the transfer size of every script response (brotli, headers included).

${table}

Performance score of each run: ${scoresOfRuns.join('; ')}.

Targets: mobile performance at least ${TARGETS.performance}, accessibility ${TARGETS.accessibility},
CLS at most ${TARGETS.cls}, JavaScript at most 80 KB on \`/auth/login\` and 150 KB on \`/\`.
${misses.length ? `Missed:\n\n${misses.map((miss) => `- ${miss}`).join('\n')}` : 'All met.'}
`;
    await writeFile(path.join(here, 'results-web.md'), text);
    console.log(
      `\n${table}\n\n${misses.length ? `Missed:\n${misses.join('\n')}` : 'All targets met.'}`,
    );
  } finally {
    await chrome.kill();
    await server.stop();
    await smtp.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
