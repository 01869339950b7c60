// Browser tests of the script foldsvg embeds in its SVGs: real renders by the foldsvg
// binary, loaded in headless Chromium, driven like a person would (mouse, keyboard,
// prompt dialogs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  frameInfo, frameLocator, launchBrowser, makeTmpDir, nextFrame, openGraph, openPage, prefixOf, ready, renderSvg,
  searchBox, SMALL, svgMarkup, text, WIDE,
} from './helpers.mjs';

const OTHER = ['alpha;beta 5', 'alpha;gamma 7', 'delta 3', ''].join('\n');

let browser;
let dir;
const files = {};
const url = (f) => pathToFileURL(f).href;

before(async () => {
  dir = makeTmpDir();
  files.small = await renderSvg(dir, 'small', SMALL);
  files.other = await renderSvg(dir, 'other', OTHER);
  files.wide = await renderSvg(dir, 'wide', WIDE);
  files.fixed = await renderSvg(dir, 'fixed', SMALL, ['--width', '900']);
  files.inverted = await renderSvg(dir, 'inverted', SMALL, ['--inverted']);
  files.nojs = await renderSvg(dir, 'nojs', SMALL, ['--no-javascript']);
  files.prefixed = await renderSvg(dir, 'prefixed', SMALL, ['--id-prefix', 'mine']);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const standalone = (file, opts = {}) => openGraph(browser, url(file) + (opts.query || ''), opts);

describe('standalone SVG', () => {
  test('hover shows the details line', async () => {
    const { page, errors, P } = await standalone(files.small);
    await frameLocator(page, P, 'render').hover();
    assert.equal(await text(page, `${P}-details`), 'Function: render (65 cycles, 43.33%)');
    await page.mouse.move(500, 5);
    assert.equal((await text(page, `${P}-details`)).trim(), '');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('zoomed, the details line gives the share of the zoomed frame beside that of the whole', async () => {
    const { page, errors, P } = await standalone(files.small);
    await frameLocator(page, P, 'render').click();
    await frameLocator(page, P, 'draw_frames').hover();
    // draw_frames: 55 of 150 in all, 55 of render's 65
    assert.equal(await text(page, `${P}-details`), 'Function: draw_frames (55 cycles, 36.67%), 84.62% of render');
    await frameLocator(page, P, 'render').hover();
    assert.equal(await text(page, `${P}-details`), 'Function: render (65 cycles, 43.33%)', 'not of itself');
    await frameLocator(page, P, 'main').hover();
    assert.equal(await text(page, `${P}-details`), 'Function: main (125 cycles, 83.33%)', 'an ancestor: not of the zoomed');
    await page.keyboard.press('Escape');
    await frameLocator(page, P, 'draw_frames').hover();
    assert.equal(await text(page, `${P}-details`), 'Function: draw_frames (55 cycles, 36.67%)');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a flame chart\'s details line says where the frame starts', async () => {
    const chart = await renderSvg(dir, 'chart', 'main;a 3\nmain;b 1200\nmain;a 2\n', ['--flamechart']);
    const { page, errors, P } = await standalone(chart);
    // where the chart draws it (fg:x; inferno's chart order: the last line first)
    await frameLocator(page, P, 'b').hover();
    assert.equal(await text(page, `${P}-details`), 'Function: b (1,200 cycles, 99.59%), starts at 2 cycles');
    await frameLocator(page, P, 'a').last().hover();
    assert.equal(await text(page, `${P}-details`), 'Function: a (3 cycles, 0.25%), starts at 1,202 cycles');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('click zooms, ancestors dimmed, others hidden, labels re-truncated; Reset Zoom and Esc reset', async () => {
    const { page, errors, P } = await standalone(files.small);
    const before_ = await frameInfo(page, P, 'write_svg');
    // 10/150 of a 1000 px viewport is too narrow for the whole name
    assert.equal(before_.label, '..te_svg');
    assert.equal(await page.locator(`[id="${P}-unzoom"]`).isVisible(), false);

    await frameLocator(page, P, 'render').click();
    const render = await frameInfo(page, P, 'render');
    assert.equal(render.x, '0.0000%');
    assert.equal(render.width, '100.0000%');
    assert.match((await frameInfo(page, P, 'main')).cls, /\bparent\b/);
    assert.equal((await frameInfo(page, P, 'parse')).visible, false);
    assert.equal((await frameInfo(page, P, 'idle')).visible, false);
    const draw = await frameInfo(page, P, 'draw_frames');
    assert.equal(draw.x, '0.0000%');
    assert.equal(draw.width, `${((55 / 65) * 100).toFixed(4)}%`);
    const ws = await frameInfo(page, P, 'write_svg');
    assert.equal(ws.x, `${((55 / 65) * 100).toFixed(4)}%`);
    assert.equal(ws.label, 'write_svg');
    assert.equal(await page.locator(`[id="${P}-unzoom"]`).isVisible(), true);

    await page.locator(`[id="${P}-unzoom"]`).click();
    assert.deepEqual(await frameInfo(page, P, 'write_svg'), before_);
    assert.equal((await frameInfo(page, P, 'main')).cls.includes('parent'), false);
    assert.equal((await frameInfo(page, P, 'parse')).visible, true);
    assert.equal(await page.locator(`[id="${P}-unzoom"]`).isVisible(), false);

    await frameLocator(page, P, 'parse').click();
    assert.equal((await frameInfo(page, P, 'parse')).width, '100.0000%');
    await page.keyboard.press('Escape');
    assert.deepEqual(await frameInfo(page, P, 'write_svg'), before_);
    assert.equal((await frameInfo(page, P, 'parse')).width, `${((50 / 150) * 100).toFixed(4)}%`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('search colors matches and shows the matched share, nested matches counted once', async () => {
    const { page, errors, P } = await standalone(files.small);
    const fillBefore = (await frameInfo(page, P, 'draw_frames')).fill;
    await searchBox(page, P, 'parse|draw', { regex: true });
    // parse 50 + draw_frames 55 (text_width nested inside it) of 150
    assert.equal(await text(page, `${P}-matched`), 'Matched: 70.0%');
    assert.equal((await frameInfo(page, P, 'parse')).fill, 'rgb(230,0,230)');
    assert.equal((await frameInfo(page, P, 'draw_frames')).fill, 'rgb(230,0,230)');
    assert.notEqual((await frameInfo(page, P, 'tokenize')).fill, 'rgb(230,0,230)');
    // clicking Search again closes the box and clears
    await page.locator(`[id="${P}-search"]`).click();
    assert.equal((await text(page, `${P}-matched`)).trim(), '');
    assert.equal((await frameInfo(page, P, 'draw_frames')).fill, fillBefore);
    assert.equal(await page.locator(`[id="${P}-searchbox"]`).isVisible(), false);
    // Ctrl-F opens it again, focused, with the toggle as it was; draw_frames lies inside
    // render: 65 of 150
    await page.keyboard.press('Control+f');
    await page.keyboard.type('render|draw');
    await page.waitForFunction((p) => !document.getElementById(`${p}-root`).foldsvg.state().searching, P);
    assert.equal(await text(page, `${P}-matched`), 'Matched: 43.3%');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(`[id="${P}-searchbox"]`).isVisible(), false);
    assert.equal((await text(page, `${P}-matched`)).trim(), '');
    assert.equal((await frameInfo(page, P, 'render')).fill, (await frameInfo(page, P, 'render')).fill);
    assert.notEqual((await frameInfo(page, P, 'render')).fill, 'rgb(230,0,230)');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('F3 searches; the ignore-case toggle re-runs the search', async () => {
    const { page, errors, P } = await standalone(files.small);
    await page.keyboard.press('F3');
    await page.keyboard.type('DRAW');
    assert.equal(await text(page, `${P}-matched`), 'Matched: 0.0%');
    await page.locator(`[id="${P}-ignorecase"]`).click();
    assert.equal(await text(page, `${P}-matched`), 'Matched: 36.7%');
    assert.equal((await frameInfo(page, P, 'draw_frames')).fill, 'rgb(230,0,230)');
    await page.locator(`[id="${P}-ignorecase"]`).click();
    assert.equal(await text(page, `${P}-matched`), 'Matched: 0.0%');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an invalid regular expression is reported, not thrown', async () => {
    const { page, errors, P } = await standalone(files.small);
    await searchBox(page, P, 'draw(', { regex: true });
    assert.match(await text(page, `${P}-matched`), /invalid/i);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a zoom that leaves few frames in view: a zoom layer over the hidden frames; hover, focus, search, Esc', async () => {
    const { page, errors, P } = await standalone(files.wide);
    const layers = () => page.evaluate((p) => ({
      hidden: document.getElementById(`${p}-frames`).getAttribute('aria-hidden'),
      copies: [...document.getElementById(`${p}-zoom`).children].filter((g) => g.checkVisibility()).length,
    }), P);
    await frameLocator(page, P, 'thread_7').click();
    await nextFrame(page); // the focus moves to the copy once the zoom is painted
    assert.deepEqual(await layers(), { hidden: 'true', copies: 4 }); // all, main, thread_7, work_7
    assert.equal((await frameInfo(page, P, 'work_7')).width, '100.0000%');
    assert.equal((await frameInfo(page, P, 'work_7')).label, 'work_7');
    assert.match((await frameInfo(page, P, 'main')).cls, /\bparent\b/);
    assert.equal((await frameInfo(page, P, 'thread_8')).visible, false);
    await frameLocator(page, P, 'work_7').hover();
    assert.match(await text(page, `${P}-details`), /^Function: work_7 \(/);
    // the outline follows the pointer
    const outline = await page.evaluate(() => {
      const o = document.querySelector('.fs-outline');
      return o && o.checkVisibility() ? o.getBoundingClientRect().width : 0;
    });
    assert.ok(outline > 900, `outline around work_7 (${outline})`);
    // Tab and Shift+Tab never land in the hidden frames
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      const inHidden = await page.evaluate((p) => {
        const a = document.activeElement;
        return !!(a && a.closest(`[id="${p}-frames"]`));
      }, P);
      assert.equal(inHidden, false, `focus after ${key}`);
    }
    await searchBox(page, P, 'work_(7|8)', { regex: true });
    assert.equal(await text(page, `${P}-matched`), 'Matched: 3.3%');
    assert.equal((await frameInfo(page, P, 'work_7')).fill, 'rgb(230,0,230)');
    // a click in the zoom layer zooms on
    await frameLocator(page, P, 'work_7').click();
    assert.equal((await frameInfo(page, P, 'work_7')).width, '100.0000%');
    assert.match((await frameInfo(page, P, 'thread_7')).cls, /\bparent\b/);
    await page.keyboard.press('Escape');
    assert.deepEqual(await layers(), { hidden: null, copies: 0 });
    assert.equal((await frameInfo(page, P, 'thread_8')).visible, true);
    assert.notEqual((await frameInfo(page, P, 'work_8')).fill, 'rgb(230,0,230)');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('zoom layer: the hidden frames under it take no clicks and no hover', async () => {
    // thread_N calls work_N for half its time: zoomed into thread_7, work_7 fills the left half
    // of its row; under the empty right half lie the hidden frames work_30.. of P-frames
    const half = Array.from({ length: 60 }, (_, t) => `main;thread_${t};work_${t} 5\nmain;thread_${t} 5`).join('\n') + '\n';
    const file = await renderSvg(dir, 'half', half);
    const { page, errors, P } = await standalone(file);
    await frameLocator(page, P, 'thread_7').click();
    assert.equal(await page.evaluate((p) => document.getElementById(`${p}-frames`).getAttribute('aria-hidden'), P), 'true');
    const row = await frameLocator(page, P, 'thread_7').locator('rect').boundingBox();
    const work = await frameLocator(page, P, 'work_7').locator('rect').boundingBox();
    assert.ok(work.width < row.width * 0.6, `work_7 fills half the row (${work.width} of ${row.width})`);
    // the empty half of work_7's row
    const emptyLeft = work.x - row.x > row.width / 4;
    const spot = { x: emptyLeft ? row.x + row.width / 4 : row.x + row.width * 0.75, y: work.y + work.height / 2 };
    const under = await page.evaluate(([x, y]) => {
      // what lies there in P-frames, hit testing aside
      const hits = [];
      for (const r of document.querySelectorAll('[id$="-frames"] > * > rect')) {
        const b = r.getBoundingClientRect();
        if (b.left <= x && x <= b.right && b.top <= y && y <= b.bottom) hits.push(r.parentNode.querySelector('title').textContent.split(' ')[0]);
      }
      return hits;
    }, [spot.x, spot.y]);
    assert.ok(under.some((n) => /^work_\d+$/.test(n) && n !== 'work_7'), `a hidden frame lies there: ${under}`);
    await page.mouse.move(spot.x, spot.y);
    assert.doesNotMatch(await text(page, `${P}-details`), /work_/, 'no details of a hidden frame');
    await page.mouse.click(spot.x, spot.y);
    assert.equal((await frameInfo(page, P, 'thread_7')).width, '100.0000%', 'still zoomed on thread_7');
    assert.equal((await frameInfo(page, P, 'work_7')).visible, true);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('zoom and search are kept in the URL and restored on load', async () => {
    const { page, errors, P } = await standalone(files.small);
    await frameLocator(page, P, 'render').click();
    await searchBox(page, P, 'text_');
    // the URL is written just after the repaint
    await page.waitForFunction(() => new URLSearchParams(location.search).get('s') === 'text_');
    const u = new URL(await page.evaluate(() => location.href));
    assert.equal(u.searchParams.get('x'), '60');
    assert.ok(u.searchParams.get('y'));
    assert.equal(u.searchParams.get('s'), 'text_');
    await page.close();

    const again = await standalone(files.small, { query: u.search });
    assert.equal((await frameInfo(again.page, again.P, 'render')).width, '100.0000%');
    assert.equal((await frameInfo(again.page, again.P, 'parse')).visible, false);
    assert.equal(await text(again.page, `${again.P}-matched`), 'Matched: 10.0%');
    assert.equal((await frameInfo(again.page, again.P, 'text_width')).fill, 'rgb(230,0,230)');
    // reset clears the URL again
    await again.page.keyboard.press('Escape');
    await again.page.waitForFunction(() => location.search === '');
    assert.equal(new URL(again.page.url()).search, '');
    assert.deepEqual([...errors, ...again.errors], []);
    await again.page.close();
  });

  test('fluid width follows the viewport and re-truncates labels on resize', async () => {
    const { page, errors, P } = await standalone(files.small, { viewport: { width: 1000, height: 500 } });
    const width = () => page.evaluate((p) => document.getElementById(`${p}-root`).getBoundingClientRect().width, P);
    assert.equal(await width(), 1000);
    assert.equal((await frameInfo(page, P, 'write_svg')).label, '..te_svg');
    await page.setViewportSize({ width: 1400, height: 500 });
    await page.waitForFunction((p) => document.getElementById(`${p}-root`).foldsvg.state().width === 1400, P);
    assert.equal((await frameInfo(page, P, 'write_svg')).label, 'write_svg');
    const box = await page.locator(`[id="${P}-search"]`).boundingBox();
    assert.ok(box.x + box.width > 1300, `Search sits at the right edge (${box.x})`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a fixed --width stays as written', async () => {
    const { page, errors, P } = await standalone(files.fixed, { viewport: { width: 1300, height: 500 } });
    const w = await page.evaluate((p) => document.getElementById(`${p}-root`).getBoundingClientRect().width, P);
    assert.equal(w, 900);
    await frameLocator(page, P, 'other').click();
    assert.equal((await frameInfo(page, P, 'idle')).width, '100.0000%');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('inverted (icicle) graphs zoom by depth from the top', async () => {
    const { page, errors, P } = await standalone(files.inverted);
    await frameLocator(page, P, 'draw_frames').click();
    assert.equal((await frameInfo(page, P, 'draw_frames')).width, '100.0000%');
    assert.equal((await frameInfo(page, P, 'text_width')).width, `${((15 / 55) * 100).toFixed(4)}%`);
    assert.match((await frameInfo(page, P, 'render')).cls, /\bparent\b/);
    assert.equal((await frameInfo(page, P, 'write_svg')).visible, false);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('keyboard: Tab reaches the frames (at the root), arrows move, Enter zooms; title and ARIA label present', async () => {
    const { page, errors, P } = await standalone(files.small);
    const focusedName = () => page.evaluate((p) => {
      const a = document.activeElement;
      if (!a || a.parentNode !== document.getElementById(`${p}-frames`)) return null;
      const t = a.querySelector('title').textContent;
      return t.slice(0, t.indexOf(' ('));
    }, P);
    let name = null;
    for (let i = 0; i < 20 && !name; i++) {
      await page.keyboard.press('Tab');
      name = await focusedName();
    }
    assert.equal(name, 'all', 'Tab reaches the frames at the root frame');
    // the frames are one tab stop: the arrow keys move between them (keyboard.test.mjs)
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    name = await focusedName();
    assert.equal(name, 'render');
    assert.match(await text(page, `${P}-details`), new RegExp(`^Function: ${name} \\(`));
    await page.keyboard.press('Enter');
    assert.equal((await frameInfo(page, P, name)).width, '100.0000%');
    const a11y = await page.evaluate((p) => {
      const r = document.getElementById(`${p}-root`);
      const first = [...r.children].find((c) => c.localName === 'title');
      return { role: r.getAttribute('role'), label: r.getAttribute('aria-label'), title: first && first.textContent };
    }, P);
    assert.equal(a11y.role, 'img');
    assert.match(a11y.label, /150/);
    assert.ok(a11y.title && a11y.title.length > 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('dark mode: background and UI text follow the color scheme, frame colors stay', async () => {
    const light = await standalone(files.small, { colorScheme: 'light' });
    const dark = await standalone(files.small, { colorScheme: 'dark' });
    const look = (pg, P) => pg.evaluate((p) => {
      const root = document.getElementById(`${p}-root`);
      const bg = [...root.children].find((c) => c.localName === 'rect');
      const frame = document.getElementById(`${p}-frames`).querySelector('rect');
      // the background is the gradient; its stops take the scheme's colors
      const stops = [...root.querySelectorAll(':scope > defs > linearGradient > stop')];
      return {
        bg: getComputedStyle(bg).fill,
        stops: stops.map((e) => getComputedStyle(e).stopColor),
        title: getComputedStyle(document.getElementById(`${p}-title`)).fill,
        frame: getComputedStyle(frame).fill,
      };
    }, P);
    const l = await look(light.page, light.P);
    const d = await look(dark.page, dark.P);
    assert.match(l.bg, /url/);
    assert.equal(l.title, 'rgb(0, 0, 0)');
    const lum = (c) => c.match(/\d+/g).slice(0, 3).reduce((s, v) => s + +v, 0) / 3;
    assert.ok(l.stops.length === 2 && l.stops.every((c) => lum(c) > 192), `light background (${l.stops})`);
    assert.ok(d.stops.length === 2 && d.stops.every((c) => lum(c) < 64), `dark background (${d.stops})`);
    assert.ok(lum(d.title) > 192, `light title (${d.title})`);
    assert.equal(d.frame, l.frame);
    assert.deepEqual([...light.errors, ...dark.errors], []);
    await light.page.close();
    await dark.page.close();
  });

  test('--no-javascript: settings only, nothing runs, no errors', async () => {
    const { page, errors } = await openPage(browser, url(files.nojs));
    const P = await prefixOf(page);
    const src = fs.readFileSync(files.nojs, 'utf8');
    assert.match(src, /var settings = \{/);
    assert.doesNotMatch(src, /addEventListener/);
    assert.equal(await page.evaluate((p) => !!document.getElementById(`${p}-root`).foldsvg, P), false);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('--id-prefix names every id', async () => {
    const { page, errors, P } = await standalone(files.prefixed);
    assert.equal(P, 'mine');
    const bad = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id).filter((id) => !id.startsWith('mine-')));
    assert.deepEqual(bad, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('inline in HTML', () => {
  async function twoInline(extraCss = '') {
    const html = path.join(dir, `two${extraCss ? '-css' : ''}.html`);
    fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:8px} .box{width:800px} ${extraCss}</style></head><body>
<div class="box" id="a">${svgMarkup(files.small)}</div>
<p>between</p>
<div class="box" id="b">${svgMarkup(files.other)}</div>
</body></html>`);
    const { page, errors } = await openPage(browser, url(html));
    const A = await prefixOf(page, 0);
    const B = await prefixOf(page, 1);
    await ready(page, `${A}-root`);
    await ready(page, `${B}-root`);
    return { page, errors, A, B };
  }

  const snapshot = (page, P) => page.evaluate((p) => {
    const root = document.getElementById(`${p}-root`);
    return [...root.querySelectorAll('rect, text, g')].map((e) => [
      e.getAttribute('x'), e.getAttribute('width'), e.getAttribute('fill'), e.getAttribute('class'),
      e.localName === 'text' ? e.textContent : '',
    ].join('|')).join('\n');
  }, P);

  test('two different SVGs in one page stay independent', async () => {
    const { page, errors, A, B } = await twoInline();
    assert.notEqual(A, B);
    const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
    assert.equal(new Set(ids).size, ids.length, 'ids are unique in the page');

    const b0 = await snapshot(page, B);
    await frameLocator(page, A, 'render').click();
    assert.equal((await frameInfo(page, A, 'render')).width, '100.0000%');
    await searchBox(page, A, 'draw');
    assert.equal(await text(page, `${A}-matched`), 'Matched: 36.7%');
    assert.equal(await snapshot(page, B), b0, 'zoom and search in A left B untouched');

    const a1 = await snapshot(page, A);
    await frameLocator(page, B, 'alpha').click();
    assert.equal((await frameInfo(page, B, 'alpha')).width, '100.0000%');
    await searchBox(page, B, 'gamma');
    assert.equal(await text(page, `${B}-matched`), 'Matched: 46.7%');
    // Escape in the box closes it (the focus back on Search), Escape again resets the zoom
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal((await frameInfo(page, B, 'alpha')).width, `${((12 / 15) * 100).toFixed(4)}%`);
    assert.equal(await snapshot(page, A), a1, 'zoom, search and Esc in B left A untouched');
    assert.equal(new URL(page.url()).search, '', 'inline SVGs leave the URL alone');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('nothing on window but at most one namespaced object', async () => {
    const { page, errors } = await twoInline();
    const blank = path.join(dir, 'blank.html');
    fs.writeFileSync(blank, '<!doctype html><html><body><div class="box" id="a"></div><div class="box" id="b"></div></body></html>');
    const keys = await page.evaluate(() => Object.keys(window));
    const { page: p2 } = await openPage(browser, url(blank));
    const base = new Set(await p2.evaluate(() => Object.keys(window)));
    const extra = keys.filter((k) => !base.has(k));
    assert.ok(extra.length <= 1, `globals left: ${extra.join(', ')}`);
    assert.deepEqual(errors, []);
    await page.close();
    await p2.close();
  });

  test('fluid inline SVGs take their container\'s width, never the 300 px default', async () => {
    const { page, errors, A, B } = await twoInline();
    const w = (P) => page.evaluate((p) => document.getElementById(`${p}-root`).getBoundingClientRect().width, P);
    assert.equal(await w(A), 800);
    assert.equal(await w(B), 800);
    await page.evaluate(() => { document.getElementById('a').style.width = '600px'; });
    await page.waitForFunction((p) => document.getElementById(`${p}-root`).foldsvg.state().width === 600, A);
    assert.equal(await w(A), 600);
    assert.equal(await w(B), 800);
    await page.close();

    // containers that size themselves to their content
    const shrink = await twoInline('.box{display:inline-block;width:auto}');
    for (const P of [shrink.A, shrink.B]) {
      const width = await shrink.page.evaluate((p) => document.getElementById(`${p}-root`).getBoundingClientRect().width, P);
      assert.ok(width >= 1000, `usable width in a shrink-to-fit container (${width})`);
    }
    assert.deepEqual([...errors, ...shrink.errors], []);
    await shrink.page.close();
  });
});
