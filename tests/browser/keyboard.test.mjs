// Browser tests of keyboard use of the frames: a roving tab stop (exactly one frame in the tab
// order, the root at first, then the frame last focused) and the arrow keys, which follow
// what is shown, zoomed or not, in P-frames or in the zoom layer (P-zoom).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  frameLocator, launchBrowser, makeTmpDir, nextFrame, openPage, prefixOf, ready, renderSvg, settled, SMALL, svgMarkup, WIDE,
} from './helpers.mjs';

// top 0..100 has children aa 0..10 and bb 10..40 and none under its middle (50)
const GAP = ['top;aa 10', 'top;bb 30', 'top 60', ''].join('\n');

let browser;
let dir;
const files = {};

before(async () => {
  dir = makeTmpDir();
  files.small = await renderSvg(dir, 'small', SMALL);
  files.gap = await renderSvg(dir, 'gap', GAP);
  files.wide = await renderSvg(dir, 'wide', WIDE);
  files.inverted = await renderSvg(dir, 'inverted', SMALL, ['--inverted']);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// The SVG inline in a page between two buttons, followed by enough height to scroll: an
// arrow key that is not taken by the script would scroll the page.
async function inPage(file) {
  const html = path.join(dir, `${path.basename(file, '.svg')}.html`);
  fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:8px} .box{width:900px}</style></head><body>
<button id="before">before</button>
<div class="box">${svgMarkup(file)}</div>
<button id="after">after</button>
<div style="height:4000px"></div>
</body></html>`);
  const { page, errors } = await openPage(browser, pathToFileURL(html).href);
  const P = await prefixOf(page);
  await ready(page, `${P}-root`);
  // let the start-up work that runs in later frames finish
  await settled(page);
  return { page, errors, P };
}

// What has the focus: a frame (its name, fg:x, the layer it is in, whether it is shown and
// whether it is the tab stop), or another element by id.
function focused(page, P) {
  return page.evaluate((p) => {
    const a = document.activeElement;
    if (!a || a === document.body) return { id: null };
    const layer = a.parentNode && a.parentNode.id;
    if (layer !== `${p}-frames` && layer !== `${p}-zoom`) return { id: a.id || a.localName };
    const t = a.querySelector(':scope > title').textContent;
    return {
      name: t.slice(0, t.indexOf(' (')),
      x: a.querySelector(':scope > rect').getAttribute('fg:x'),
      layer: layer.slice(p.length + 1),
      visible: a.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
      tabindex: a.getAttribute('tabindex'),
    };
  }, P);
}

// The frames (in P-frames and the zoom layer) in the tab order, as "layer:name".
function tabStops(page, P) {
  return page.evaluate((p) => {
    const out = [];
    for (const id of [`${p}-frames`, `${p}-zoom`]) {
      for (const g of document.getElementById(id).children) {
        if (g.tabIndex >= 0 && g.getAttribute('tabindex') !== null) {
          const t = g.querySelector(':scope > title').textContent;
          out.push(`${id.slice(p.length + 1)}:${t.slice(0, t.indexOf(' ('))}`);
        }
      }
    }
    return out;
  }, P);
}

// Presses each key and checks that the focus is then on the frame named, shown, and the one
// tab stop; LAYER (when given) is where the element that has the focus must be.
async function walk(page, P, steps, layer) {
  for (const [key, name] of steps) {
    await page.keyboard.press(key);
    const f = await focused(page, P);
    assert.equal(f.name, name, `${key} -> ${name} (focus on ${JSON.stringify(f)})`);
    assert.equal(f.visible, true, `${key} -> ${name}: the focused element is shown`);
    assert.equal(f.tabindex, '0', `${key} -> ${name}: the focused frame is the tab stop`);
    if (layer) assert.equal(f.layer, layer, `${key} -> ${name}: in P-${layer}`);
    assert.deepEqual(await tabStops(page, P), [`${f.layer}:${name}`], `${key} -> ${name}: one tab stop`);
  }
}

const scrollY = (page) => page.evaluate(() => window.scrollY);

describe('keyboard: one tab stop in the frames, arrows between them', () => {
  test('exactly one frame is in the tab order at the start: the root', async () => {
    for (const file of [files.small, files.wide]) {
      const { page, errors, P } = await inPage(file);
      assert.deepEqual(await tabStops(page, P), ['frames:all']);
      const total = await page.evaluate((p) => document.getElementById(`${p}-frames`).children.length, P);
      assert.ok(total > 10, `${total} frames`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('Tab from Search enters the graph at one frame, the next Tab leaves it, Shift+Tab comes back', async () => {
    const { page, errors, P } = await inPage(files.small);
    await page.locator(`[id="${P}-search"]`).focus();
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page, P), { id: `${P}-ignorecase` });
    await page.keyboard.press('Tab');
    assert.equal((await focused(page, P)).name, 'all');
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page, P), { id: 'after' });
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focused(page, P)).name, 'all');
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual(await focused(page, P), { id: `${P}-ignorecase` });
    // the frame last focused is the one Tab comes back to, from either side
    await page.keyboard.press('Tab');
    await walk(page, P, [['ArrowUp', 'main'], ['ArrowUp', 'render']]);
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page, P), { id: 'after' });
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focused(page, P)).name, 'render');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual(await focused(page, P), { id: `${P}-search` });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page, P)).name, 'render');
    // a frame clicked takes the focus, and with it the tab stop
    await frameLocator(page, P, 'idle').click();
    await nextFrame(page); // the focus moves to the copy once the zoom is painted
    const clicked = await focused(page, P);
    assert.equal(clicked.name, 'idle');
    assert.deepEqual(await tabStops(page, P), [`${clicked.layer}:idle`]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Up to the child under the middle, Down to the parent, Left/Right in the row, Home; the page never scrolls', async () => {
    const { page, errors, P } = await inPage(files.small);
    await page.locator(`[id="${P}-ignorecase"]`).focus();
    await page.keyboard.press('Tab');
    assert.equal((await focused(page, P)).name, 'all');
    await walk(page, P, [
      ['ArrowDown', 'all'], // no parent: stays
      ['ArrowLeft', 'all'],
      ['ArrowUp', 'main'], // all 0..150, middle 75: main 0..125
      ['ArrowUp', 'render'], // main 0..125, middle 62.5: render 60..125
      ['ArrowUp', 'draw_frames'],
      ['ArrowRight', 'write_svg'],
      ['ArrowRight', 'write_svg'], // the last of its row: stays
      ['ArrowLeft', 'draw_frames'],
      ['ArrowUp', 'text_width'],
      ['ArrowUp', 'text_width'], // a leaf: stays
      ['ArrowDown', 'draw_frames'],
      ['ArrowDown', 'render'],
      ['ArrowRight', 'idle'], // the next frame of the row, under another parent
      ['ArrowLeft', 'render'],
      ['ArrowLeft', 'parse'],
      ['ArrowLeft', 'alloc'],
      ['ArrowLeft', 'alloc'],
      ['ArrowRight', 'parse'],
      ['ArrowUp', 'read_line'], // parse 10..60, middle 35: read_line 10..40
      ['ArrowRight', 'tokenize'],
      ['Home', 'all'],
    ], 'frames');
    assert.equal(await scrollY(page), 0, 'arrow keys on frames do not scroll the page');
    // the focus outline (focus-visible) follows the focused frame
    await page.keyboard.press('ArrowUp');
    const box = await page.evaluate((p) => {
      const o = document.querySelector(`#${p}-root > .fs-outline`);
      const r = document.activeElement.querySelector('rect').getBoundingClientRect();
      const b = o.getBoundingClientRect();
      return { shown: o.checkVisibility(), focus: o.classList.contains('focus'), dx: Math.abs(b.x - r.x), dw: Math.abs(b.width - r.width) };
    }, P);
    assert.deepEqual({ shown: box.shown, focus: box.focus }, { shown: true, focus: true });
    assert.ok(box.dx < 2 && box.dw < 2, `outline on the frame (${JSON.stringify(box)})`);
    // other keys are left alone: Space zooms, Escape resets, arrows elsewhere scroll
    await page.keyboard.press(' ');
    assert.equal(await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().zoomed, P), 'main');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().zoomed, P), null);
    assert.equal((await focused(page, P)).name, 'main');
    await page.locator('#after').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => window.scrollY > 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Up with no child under the middle goes to the widest child', async () => {
    const { page, errors, P } = await inPage(files.gap);
    await page.locator(`[id="${P}-ignorecase"]`).focus();
    await page.keyboard.press('Tab');
    await walk(page, P, [['ArrowUp', 'top'], ['ArrowUp', 'bb'], ['ArrowLeft', 'aa'], ['ArrowDown', 'top']]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('inverted graphs: Up goes towards the leaves, drawn below', async () => {
    const { page, errors, P } = await inPage(files.inverted);
    await page.locator(`[id="${P}-ignorecase"]`).focus();
    await page.keyboard.press('Tab');
    const y = () => page.evaluate(() => document.activeElement.querySelector('rect').getBoundingClientRect().y);
    const y0 = await y();
    await walk(page, P, [['ArrowUp', 'main']]);
    assert.ok((await y()) > y0, 'the child is drawn below its parent');
    await walk(page, P, [['ArrowUp', 'render'], ['ArrowDown', 'main'], ['Home', 'all']]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('zoomed in place: hidden frames are skipped', async () => {
    const { page, errors, P } = await inPage(files.small);
    await page.locator(`[id="${P}-ignorecase"]`).focus();
    await page.keyboard.press('Tab');
    await walk(page, P, [['ArrowUp', 'main']]);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().zoomed, P), 'main');
    const hidden = await page.evaluate((p) => document.getElementById(`${p}-frames`).getAttribute('aria-hidden'), P);
    assert.equal(hidden, null, 'zoomed in place, in P-frames');
    await walk(page, P, [
      ['ArrowRight', 'main'], // other is hidden
      ['ArrowLeft', 'main'],
      ['ArrowDown', 'all'],
      ['ArrowUp', 'main'],
      ['ArrowUp', 'render'],
      ['ArrowRight', 'render'], // idle is hidden
      ['ArrowLeft', 'parse'],
      ['ArrowUp', 'read_line'],
      ['Home', 'all'],
    ], 'frames');
    assert.equal(await scrollY(page), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('zoomed into the zoom layer: the focus moves between the copies shown, never into the hidden frames', async () => {
    const { page, errors, P } = await inPage(files.wide);
    await frameLocator(page, P, 'thread_7').click();
    await nextFrame(page); // the focus moves to the copy once the zoom is painted
    const hidden = await page.evaluate((p) => document.getElementById(`${p}-frames`).getAttribute('aria-hidden'), P);
    assert.equal(hidden, 'true', 'the zoom is shown as copies in the zoom layer');
    const f = await focused(page, P);
    assert.deepEqual([f.name, f.layer, f.tabindex], ['thread_7', 'zoom', '0']);
    assert.deepEqual(await tabStops(page, P), ['zoom:thread_7']);
    await walk(page, P, [
      ['ArrowLeft', 'thread_7'], // thread_6 is hidden
      ['ArrowRight', 'thread_7'],
      ['ArrowUp', 'work_7'],
      ['ArrowDown', 'thread_7'],
      ['ArrowDown', 'main'],
      ['ArrowDown', 'all'],
      ['ArrowUp', 'main'],
      ['ArrowUp', 'thread_7'], // the one child shown, though thread_36 is under main's middle
      ['Home', 'all'],
    ], 'zoom');
    // Tab leaves the graph from the copy, Shift+Tab comes back to it
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page, P), { id: 'after' });
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual((({ name, layer }) => ({ name, layer }))(await focused(page, P)), { name: 'all', layer: 'zoom' });
    // Enter zooms on the frame focused; Escape shows P-frames again with the focus kept
    await walk(page, P, [['ArrowUp', 'main'], ['ArrowUp', 'thread_7'], ['ArrowUp', 'work_7']], 'zoom');
    await page.keyboard.press('Enter');
    await nextFrame(page);
    assert.deepEqual((({ name, layer }) => ({ name, layer }))(await focused(page, P)), { name: 'work_7', layer: 'zoom' });
    await page.keyboard.press('Escape');
    const back = await focused(page, P);
    assert.deepEqual([back.name, back.layer, back.visible], ['work_7', 'frames', true]);
    assert.deepEqual(await tabStops(page, P), ['frames:work_7']);
    await walk(page, P, [['ArrowRight', 'work_8'], ['ArrowDown', 'thread_8'], ['ArrowLeft', 'thread_7']], 'frames');
    assert.equal(await scrollY(page), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
