// Shared helpers of the browser tests: render folded text with foldsvg, drive headless
// Chromium (the system's /usr/bin/chromium; playwright-core never downloads a browser).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const foldsvgBin = path.resolve(repoRoot, process.env.FOLDSVG_BIN || 'build/foldsvg');
export const chromiumPath = process.env.CHROMIUM_BIN || '/usr/bin/chromium';

export function makeTmpDir(tag = 'foldsvg-browser-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), tag));
}

// Renders FOLDED (text of "a;b;c N" lines) to an SVG file in DIR with the real binary and
// returns its path. FLAGS are extra command-line flags.
export async function renderSvg(dir, name, folded, flags = []) {
  const input = path.join(dir, `${name}.folded`);
  const output = path.join(dir, `${name}.svg`);
  fs.writeFileSync(input, folded);
  if (process.env.FOLDSVG_MOCK === '1') {
    // development stand-in for the SVG writer (tests/browser/fixtures/mock_render.mjs)
    const { mockRender } = await import('./fixtures/mock_render.mjs');
    const opt = {};
    for (let i = 0; i < flags.length; i++) {
      if (flags[i] === '--width') opt.width = +flags[++i];
      else if (flags[i] === '--id-prefix') opt.idPrefix = flags[++i];
      else if (flags[i] === '--inverted') opt.inverted = true;
      else if (flags[i] === '--no-javascript') opt.noJs = true;
      else if (flags[i] === '--title') opt.title = flags[++i];
    }
    fs.writeFileSync(output, mockRender(folded, opt));
    return output;
  }
  if (!fs.existsSync(foldsvgBin)) {
    throw new Error(`foldsvg binary not found at ${foldsvgBin} (build it, or set FOLDSVG_BIN)`);
  }
  execFileSync(foldsvgBin, [input, '-o', output, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  return output;
}

// The SVG markup without its XML declaration and DOCTYPE, for inlining in an HTML page.
export function svgMarkup(file) {
  const text = fs.readFileSync(file, 'utf8');
  return text.slice(text.indexOf('<svg'));
}

// How long any one step (a launch, a page load, a click, a wait for a state) may take before
// it fails: the tests wait for states, never for a time, and this ceiling is only there so
// that a hung browser ends the run. It is generous: a machine whose cores are all busy runs
// each step many times slower than an idle one.
export const STEP_TIMEOUT = 180_000;

export async function launchBrowser() {
  const userDataDir = makeTmpDir('foldsvg-chromium-');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    timeout: STEP_TIMEOUT,
    viewport: { width: 1000, height: 600 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  context.setDefaultNavigationTimeout(STEP_TIMEOUT);
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// A new page that records script errors (uncaught exceptions and console errors).
export async function openPage(browser, url, { viewport, colorScheme } = {}) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  if (viewport) await page.setViewportSize(viewport);
  if (colorScheme) await page.emulateMedia({ colorScheme });
  if (url) await page.goto(url);
  return { page, errors };
}

// Waits until the script of the SVG whose root id is ROOTID has started.
export async function ready(page, rootId) {
  await page.waitForFunction((id) => {
    const r = document.getElementById(id);
    return r && r.foldsvg;
  }, rootId);
}

// Opens URL (openPage's options) and waits for the script of its first foldsvg SVG:
// { page, errors, P } with P that SVG's id prefix.
export async function openGraph(browser, url, opts = {}) {
  const { page, errors } = await openPage(browser, url, opts);
  const P = await prefixOf(page);
  await ready(page, `${P}-root`);
  return { page, errors, P };
}

// The id prefix of the first (or only) foldsvg SVG of the page.
export async function prefixOf(page, index = 0) {
  return page.evaluate((i) => {
    const roots = [...document.querySelectorAll('svg[id$="-root"]')];
    return roots[i].id.replace(/-root$/, '');
  }, index);
}

// Facts about the frame named NAME (by its tooltip) in the SVG with prefix P, as shown: the
// script may show a zoomed view in a layer of its own (<svg id="P-zoom">, holding copies of
// the frames in view) over the hidden (opacity 0, aria-hidden) P-frames. The shown element
// is taken when there is one; otherwise the frame of P-frames, with visible false.
export async function frameInfo(page, P, name) {
  return page.evaluate(
    ([p, nm]) => {
      const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
      let first = null;
      for (const id of [`${p}-zoom`, `${p}-frames`]) {
        const layer = document.getElementById(id);
        if (!layer) continue;
        for (const g of layer.children) {
          const t = g.querySelector('title');
          if (t && t.textContent.startsWith(`${nm} (`)) {
            const r = g.querySelector('rect');
            const tx = g.querySelector('text');
            const info = {
              cls: g.getAttribute('class') || '',
              x: r.getAttribute('x'),
              width: r.getAttribute('width'),
              fill: r.getAttribute('fill'),
              label: tx ? tx.textContent : null,
              visible: shown(g),
            };
            if (info.visible) return info;
            if (!first && id === `${p}-frames`) first = info;
          }
        }
      }
      return first;
    },
    [P, name],
  );
}

// The element that shows the frame named NAME (for clicks, hovers, focus): in the zoom layer
// or in P-frames, whichever is not hidden (aria-hidden) by the script.
export function frameLocator(page, P, name) {
  return page
    .locator(`:is([id="${P}-frames"], [id="${P}-zoom"]):not([aria-hidden="true"]) > *`)
    .filter({
      has: page.locator('title', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }),
      visible: true,
    });
}

// Resolves after the next frame the page paints: a zoom shown as copies in the zoom layer
// moves the focus to the copy then.
export function nextFrame(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

// Resolves once the work a graph's script leaves for after its start is done, however slow
// the machine: its resize observer reports in the first frame after the start, and the
// repaint it asks for runs in the frame after that; the third frame comes after both.
export function settled(page) {
  return page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))),
  );
}

// Types TERM into the search box of the SVG with prefix P (opened by a click on its Search
// when closed), its regular-expression toggle set as REGEX says, and waits until the search
// has answered (a regular expression runs in a worker). SCOPE: a selector around that SVG.
export async function searchBox(page, P, term, { regex = false, scope = '' } = {}) {
  const input = page.locator(`${scope} [id="${P}-searchbox"] input`);
  if (!(await input.count()) || !(await input.isVisible())) await page.locator(`${scope} [id="${P}-search"]`).click();
  const toggle = page.locator(`${scope} [id="${P}-searchbox"] button`);
  if ((await toggle.getAttribute('aria-pressed')) !== String(regex)) await toggle.click();
  await input.fill(term);
  await page.waitForFunction(([s, p]) => {
    const r = document.querySelector(`${s} [id="${p}-root"]`);
    return r && !r.foldsvg.state().searching;
  }, [scope, P]);
}

export async function text(page, id) {
  return page.evaluate((i) => document.getElementById(i).textContent, id);
}

// Shared inputs. SMALL, total 150, frames as drawn (x in counts): main 0..125 (alloc 0..10,
// parse 10..60 (read_line 10..40, tokenize 40..60), render 60..125 (draw_frames 60..115
// (text_width 60..75), write_svg 115..125)), other 125..150 (idle 125..150).
export const SMALL = [
  'main;parse;read_line 30',
  'main;parse;tokenize 20',
  'main;render;draw_frames 40',
  'main;render;write_svg 10',
  'main;render;draw_frames;text_width 15',
  'other;idle 25',
  'main;alloc 10',
  '',
].join('\n');
// WIDE: 60 threads of 10 each below main, each calling work_N: zooming into one leaves 4 of
// 122 frames in view (all, main, thread_N, work_N; as copies in the zoom layer)
export const WIDE = Array.from({ length: 60 }, (_, t) => `main;thread_${t};work_${t} 10`).join('\n') + '\n';

// Whether the views of the report's section holding the flamegraph of prefix P are open
// below it, the flamegraph left where it was (in the flow, visible, before them).
export async function viewsFollow(page, P) {
  return page.evaluate((p) => {
    const root = document.getElementById(`${p}-root`);
    const views = root.closest('.fs-section').querySelector(':scope > .fs-views');
    const a = root.getBoundingClientRect();
    return !!views && a.width > 0 && root.checkVisibility() && views.getBoundingClientRect().top >= a.bottom;
  }, P);
}
