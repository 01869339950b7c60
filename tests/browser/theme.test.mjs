// Browser tests of --theme (auto, light, dark) under emulated light and dark system schemes,
// for standalone SVGs, an SVG inlined in a light-only page, the HTML report and the views
// (callers and callees) of both; and of one SVG inlined twice in one page (the same ids
// twice): both copies zoom and search on their own, and each keeps working without the other.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { foldsvgBin, launchBrowser, makeTmpDir, openPage, prefixOf, ready, renderSvg, searchBox, SMALL, svgMarkup } from './helpers.mjs';

const THEMES = ['auto', 'light', 'dark'];
const SCHEMES = ['light', 'dark'];
const isDark = (theme, scheme) => theme === 'dark' || (theme === 'auto' && scheme === 'dark');

let browser;
let dir;
const svgs = {};
const reports = {};
const url = (f) => pathToFileURL(f).href;

before(async () => {
  dir = makeTmpDir();
  for (const theme of THEMES) {
    svgs[theme] = await renderSvg(dir, `small-${theme}`, SMALL, ['--theme', theme]);
    reports[theme] = path.join(dir, `report-${theme}.html`);
    execFileSync(foldsvgBin, [path.join(dir, `small-${theme}.folded`), '-o', reports[theme], '--theme', theme], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// How the SVG whose root is the INDEX-th foldsvg root of the page looks: its background (the
// rect's fill, and the color of the gradient's stops it is filled with), the title's fill, a
// frame's fill, the hover outline's stroke.
const look = (page, index = 0) => page.evaluate((i) => {
  const root = document.querySelectorAll('svg[id$="-root"]')[i];
  const P = root.id.replace(/-root$/, '');
  const child = (id) => [...root.children].find((c) => c.id === `${P}-${id}`);
  const frames = root.querySelector(`[id="${P}-frames"]`);
  const outline = [...root.children].find((c) => c.classList.contains('fs-outline'));
  return {
    bg: getComputedStyle(child('bg')).fill,
    stops: [...root.querySelectorAll(':scope > defs > linearGradient > stop')].map((e) => getComputedStyle(e).stopColor),
    title: getComputedStyle(child('title')).fill,
    frame: getComputedStyle(frames.querySelector('rect')).fill,
    outline: outline ? getComputedStyle(outline).stroke : null,
  };
}, index);

const lum = (c) => c.match(/\d+/g).slice(0, 3).reduce((s, v) => s + +v, 0) / 3;

function assertLook(l, dark, what) {
  assert.equal(l.stops.length, 2, `${what}: the gradient's stops`);
  if (dark) {
    assert.ok(l.stops.every((c) => lum(c) < 64), `${what}: dark background (${l.stops})`);
    assert.ok(lum(l.title) > 192, `${what}: light title (${l.title})`);
  } else {
    assert.match(l.bg, /url/, `${what}: the gradient background`);
    assert.deepEqual(l.stops, ['rgb(238, 238, 238)', 'rgb(238, 238, 176)'], `${what}: light stops`);
    assert.equal(l.title, 'rgb(0, 0, 0)', `${what}: black title`);
  }
}

describe('--theme', () => {
  test('standalone SVGs: auto follows the system, light and dark hold; frame colors stay', async () => {
    const frames = new Set();
    for (const theme of THEMES) {
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, url(svgs[theme]), { colorScheme });
        await ready(page, `${await prefixOf(page)}-root`);
        const l = await look(page);
        assertLook(l, isDark(theme, colorScheme), `--theme ${theme} under a ${colorScheme} system`);
        frames.add(l.frame);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
    assert.equal(frames.size, 1, `one frame color throughout: ${[...frames]}`);
  });

  test('--no-javascript: the style alone follows the theme', async () => {
    for (const theme of THEMES) {
      const file = await renderSvg(dir, `nojs-${theme}`, SMALL, ['--theme', theme, '--no-javascript']);
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, url(file), { colorScheme });
        assertLook(await look(page), isDark(theme, colorScheme), `--no-javascript --theme ${theme}, ${colorScheme} system`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  });

  // auto follows the scheme of the page it sits in, as the page's own colors do: a page
  // without color-scheme (or light only) keeps it light under a dark system, a dark-only page
  // makes it dark under a light one, a "light dark" page follows the system
  for (const [pageScheme, autoDark] of [['', () => false], ['light', () => false], ['dark', () => true], ['light dark', (sys) => sys === 'dark']]) {
    test(`inline in a page with color-scheme "${pageScheme || 'normal'}": auto follows the page, light and dark hold`, async () => {
      const html = path.join(dir, `page-${pageScheme.replace(' ', '-') || 'normal'}.html`);
      const scheme = pageScheme ? `<meta name="color-scheme" content="${pageScheme}"><style>:root{color-scheme:${pageScheme}}</style>` : '';
      fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8">${scheme}
<style>body{margin:8px} .box{width:800px}</style></head><body>
<div class="box">${svgMarkup(svgs.light)}</div><div class="box">${svgMarkup(svgs.auto)}</div><div class="box">${svgMarkup(svgs.dark)}</div>
</body></html>`);
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, url(html), { colorScheme });
        for (let i = 0; i < 3; i++) await ready(page, `${await prefixOf(page, i)}-root`);
        const [light, auto, dark] = [await look(page, 0), await look(page, 1), await look(page, 2)];
        assertLook(light, false, `light, ${colorScheme} system`);
        assertLook(auto, autoDark(colorScheme), `auto, ${colorScheme} system`);
        assertLook(dark, true, `dark, ${colorScheme} system`);
        // the dark styles of one do not reach the others (each theme has its own ids)
        assert.equal(light.outline, 'rgb(0, 0, 0)', 'the light one keeps its black hover outline');
        assert.equal(dark.outline, 'rgb(255, 255, 255)');
        assert.deepEqual(errors, []);
        await page.close();
      }
    });
  }

  test('the HTML report and its flamegraph follow the theme', async () => {
    for (const theme of THEMES) {
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, url(reports[theme]), { colorScheme });
        await ready(page, `${await prefixOf(page)}-root`);
        const dark = isDark(theme, colorScheme);
        const page_ = await page.evaluate(() => ({
          bg: getComputedStyle(document.body).backgroundColor,
          fg: getComputedStyle(document.body).color,
          scheme: getComputedStyle(document.documentElement).colorScheme,
          meta: document.querySelector('meta[name="color-scheme"]').content,
        }));
        assert.equal(page_.bg, dark ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)', `report --theme ${theme}, ${colorScheme} system`);
        assert.ok(dark ? lum(page_.fg) > 192 : lum(page_.fg) < 64, `text color ${page_.fg}`);
        const want = { auto: 'light dark', light: 'light', dark: 'dark' }[theme];
        assert.equal(page_.scheme, want);
        assert.equal(page_.meta, want);
        assertLook(await look(page), dark, `the report's flamegraph, --theme ${theme}, ${colorScheme} system`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  });
});

describe('--theme and the views (callers and callees)', () => {
  // the views' roots come after the graph's: callees, then callers
  test("the report's views follow its theme", async () => {
    for (const theme of THEMES) {
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, `${url(reports[theme])}#sandwich=render`, { colorScheme });
        await ready(page, `${await prefixOf(page)}-root`);
        await page.locator('.fs-views [data-view="callers"] svg[id$="-root"]').waitFor();
        const dark = isDark(theme, colorScheme);
        for (const i of [1, 2]) assertLook(await look(page, i), dark, `report view ${i}, --theme ${theme}, ${colorScheme} system`);
        const bar = await page.evaluate(() => getComputedStyle(document.querySelector('.fs-views-bar')).backgroundColor);
        assert.equal(bar, dark ? 'rgb(21, 27, 35)' : 'rgb(246, 248, 250)', `the views' bar, --theme ${theme}, ${colorScheme} system`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  });

  // the views an SVG draws below itself (Shift+click in the diff report's graph; a standalone
  // SVG has none), here in the report's
  test("the views an SVG draws itself follow its theme", async () => {
    for (const theme of THEMES) {
      for (const colorScheme of SCHEMES) {
        const { page, errors } = await openPage(browser, url(reports[theme]), { colorScheme });
        const P = await prefixOf(page);
        await ready(page, `${P}-root`);
        await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.views('render'), P);
        await page.locator('[data-view="callers"] svg[id$="-root"]').waitFor();
        const dark = isDark(theme, colorScheme);
        for (const i of [1, 2]) assertLook(await look(page, i), dark, `SVG view ${i}, --theme ${theme}, ${colorScheme} system`);
        const label = await page.evaluate((p) => getComputedStyle(document.getElementById(`${p}-views-title`)).fill, P);
        assert.ok(dark ? lum(label) > 192 : lum(label) < 64, `the views' title ${label}, --theme ${theme}, ${colorScheme} system`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  });
});

describe('one SVG inlined twice in one page', () => {
  // the copies share every id; everything below is looked up inside one copy's box
  async function twice() {
    const html = path.join(dir, 'twice.html');
    fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:8px} .box{width:800px}</style></head><body>
<div class="box" id="a">${svgMarkup(svgs.auto)}</div><p>between</p><div class="box" id="b">${svgMarkup(svgs.auto)}</div>
</body></html>`);
    const { page, errors } = await openPage(browser, url(html));
    await page.waitForFunction(() => [...document.querySelectorAll('svg[id$="-root"]')].filter((r) => r.foldsvg).length === 2);
    const P = await prefixOf(page, 0);
    assert.equal(await prefixOf(page, 1), P, 'the same ids twice');
    return { page, errors, P };
  }

  const frameIn = (page, box, P, name) => page.locator(`#${box}`)
    .locator(`:is([id="${P}-frames"], [id="${P}-zoom"]):not([aria-hidden="true"]) > *`)
    .filter({ has: page.locator('title', { hasText: new RegExp(`^${name} \\(`) }), visible: true });

  // what one copy shows: the zoomed frame, the search, the matched text, each visible
  // frame's name, width and fill
  const state = (page, box, P) => page.evaluate(([b, p]) => {
    const root = document.querySelector(`#${b} svg[id$="-root"]`);
    const shown = [];
    for (const id of [`${p}-zoom`, `${p}-frames`]) {
      const layer = root.querySelector(`[id="${id}"]`);
      for (const g of layer.children) {
        if (!g.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const r = g.querySelector('rect');
        shown.push(`${g.querySelector('title').textContent.replace(/ \(.*/, '')} ${r.getAttribute('width')} ${r.getAttribute('fill')}`);
      }
    }
    const matched = [...root.children].find((c) => c.id === `${p}-matched`).textContent;
    return { ...root.foldsvg.state(), matched, shown: shown.sort() };
  }, [box, P]);

  test('both copies zoom and search on their own', async () => {
    const { page, errors, P } = await twice();
    const b0 = await state(page, 'b', P);
    await frameIn(page, 'a', P, 'render').click();
    await searchBox(page, P, 'draw', { scope: '#a' });
    const a1 = await state(page, 'a', P);
    assert.equal(a1.zoomed, 'render');
    assert.equal(a1.search, 'draw');
    assert.equal(a1.matched, 'Matched: 36.7%');
    assert.ok(a1.shown.some((s) => /^render 100\.0000% /.test(s)), `A zoomed into render: ${a1.shown}`);
    assert.ok(a1.shown.some((s) => /^draw_frames .* rgb\(230,0,230\)$/.test(s)), 'A colors its match');
    assert.deepEqual(await state(page, 'b', P), b0, 'zoom and search in A leave B as it was');

    await frameIn(page, 'b', P, 'parse').click();
    await searchBox(page, P, 'idle', { scope: '#b' });
    const b1 = await state(page, 'b', P);
    assert.equal(b1.zoomed, 'parse');
    assert.equal(b1.matched, 'Matched: 16.7%');
    assert.deepEqual(await state(page, 'a', P), a1, 'zoom and search in B leave A as it was');

    await frameIn(page, 'a', P, 'render').focus();
    await page.keyboard.press('Escape');
    const a2 = await state(page, 'a', P);
    assert.equal(a2.zoomed, null);
    assert.equal(a2.search, null);
    assert.deepEqual(await state(page, 'b', P), b1, 'Esc in A leaves B zoomed and searched');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('each copy has its own script styles: one keeps working when the other is removed', async () => {
    const { page, errors, P } = await twice();
    const own = await page.evaluate((p) => [...document.querySelectorAll('svg[id$="-root"]')]
      .map((r) => [...r.children].filter((c) => c.id === `${p}-jsstyle`).length), P);
    assert.deepEqual(own, [1, 1]);
    await page.evaluate(() => document.getElementById('a').remove());
    const ic = await page.evaluate((p) => {
      const root = document.querySelector('#b svg');
      const el = [...root.children].find((c) => c.id === `${p}-ignorecase`);
      const outline = [...root.children].find((c) => c.classList.contains('fs-outline'));
      return { opacity: getComputedStyle(el).opacity, outline: getComputedStyle(outline).fill };
    }, P);
    assert.deepEqual(ic, { opacity: '0.35', outline: 'none' });
    await frameIn(page, 'b', P, 'render').click();
    assert.equal((await state(page, 'b', P)).zoomed, 'render');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
