// Browser tests of the frame labels the script fits (and of what inferno shows in the
// browser around them): every visible label stays inside its frame's box at any container
// width, standalone and inline, with the default font and a proportional --fonttype and
// --fontsize, after a zoom and after a resize; labels are cut on the left by default and on
// the right with --truncate-text-right; the title is 17 px; the root frame reads "all".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  foldsvgBin, frameInfo, frameLocator, launchBrowser, makeTmpDir, openGraph, renderSvg, repoRoot, settled, SMALL, svgMarkup,
} from './helpers.mjs';

// A real profile with long Java and kernel names (the case: 43 of 364 labels spilled
// out standalone, 62 of 90 inline in a 435 px container).
const VERTX = fs.readFileSync(
  path.join(repoRoot, 'tests/data/compat/inputs/flamegraph/test/results/perf-vertx-stacks-01-collapsed-all.txt'),
  'utf8',
);

// Names that stress a width estimate: wide and narrow glyphs, generics, spaces, accents, CJK
// (another font's glyphs inside a monospace label), at spread widths so that many labels sit
// near the point where they must be cut.
const KINDS = [
  (k) => 'W'.repeat(k + 4),
  (k) => 'il1.'.repeat(k + 2),
  (k) => `core::ptr::drop_in_place<alloc::vec::Vec<u${k}>>`,
  (k) => `数据处理::读取_${k}`,
  (k) => `café_naïve_${'é'.repeat(k % 7)}::résumé`,
  (k) => `impl Fn(&mut [u8; ${k}]) for Closure<'_>`,
  (k) => `MMMM_wide_${k}::mmmm`,
];
const NAMES = Array.from({ length: 56 }, (_, k) => {
  const leaf = KINDS[k % KINDS.length](k);
  return `main;group_${k % 4};${leaf};${KINDS[(k + 3) % KINDS.length](k + 1)} ${3 + ((k * 37) % 61)}`;
}).join('\n') + '\n';

const FONTS = [
  { tag: 'default', flags: [] },
  { tag: 'verdana15', flags: ['--fonttype', 'Verdana', '--fontsize', '15'] },
];
const WIDTHS = [1200, 800, 435];

let browser;
let dir;
const files = {};
const url = (f) => pathToFileURL(f).href;

before(async () => {
  dir = makeTmpDir();
  for (const [input, text] of [['vertx', VERTX], ['names', NAMES]]) {
    for (const font of FONTS) {
      files[`${input}-${font.tag}`] = await renderSvg(dir, `${input}-${font.tag}`, text, font.flags);
      files[`${input}-${font.tag}-fixed`] = await renderSvg(dir, `${input}-${font.tag}-fixed`, text, [...font.flags, '--width', '1200']);
    }
  }
  files.small = await renderSvg(dir, 'small', SMALL);
  files.right = await renderSvg(dir, 'right', SMALL, ['--truncate-text-right']);
  files.subtitle = await renderSvg(dir, 'subtitle', SMALL, ['--subtitle', 'a subtitle']);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const standalone = (file, width) => openGraph(browser, url(file), { viewport: { width, height: 900 } });

// An HTML page holding the SVG inline in a container WIDTH px wide (CSS: extra rules).
async function inline(file, width, css = '') {
  const html = path.join(dir, `${path.basename(file, '.svg')}-${width}${css ? '-css' : ''}.html`);
  fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0} #box{width:${width}px} ${css}</style></head>
<body><div id="box">${svgMarkup(file)}</div></body></html>`);
  return openGraph(browser, url(html), { viewport: { width: 1300, height: 900 } });
}

// Every shown frame with a label, in the layer that shows it (the zoom layer when it is up):
// the label's box against its rect's box, in CSS px. `over` lists labels that leave their
// frame (left or right); `loose` truncated labels that leave room for much more than the
// character they dropped; `short` cut labels keeping under 4 characters of the name;
// `missing` frames wide enough for a label that show none;
// `misplaced` labels whose y is not the writer's.
function checkLabels(page, P) {
  return page.evaluate((p) => {
    const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const root = document.getElementById(`${p}-root`);
    const vb = root.viewBox.baseVal;
    const scale = vb && vb.width ? root.getBoundingClientRect().width / vb.width : 1;
    const fontPx = parseFloat(getComputedStyle(root.querySelector(`[id="${p}-frames"] text`)).fontSize) * scale;
    const zoomLayer = document.getElementById(`${p}-zoom`);
    const layer = zoomLayer && zoomLayer.children.length && shown(zoomLayer.firstElementChild)
      ? zoomLayer : document.getElementById(`${p}-frames`);
    const out = { checked: 0, over: [], loose: [], missing: [], misplaced: [], short: [] };
    for (const g of layer.children) {
      const r = g.querySelector('rect');
      const t = g.querySelector('text');
      if (!r || !shown(g)) continue;
      const rb = r.getBoundingClientRect();
      const name = g.querySelector('title').textContent.replace(/ \([^(]*\)$/, '');
      // a frame never labelled has no <text> (the script makes it with the first label)
      const label = t ? t.textContent : '';
      if (label === '') {
        // room for 4 of the widest characters and the dots
        if (rb.width > 6 * fontPx + 4 * scale) out.missing.push({ name, width: +rb.width.toFixed(2) });
        continue;
      }
      out.checked++;
      // where the writer puts a label: 3 below the middle of its rect (a <text> the script
      // made is placed the same)
      const y = (3 + +r.getAttribute('y') + +r.getAttribute('height') / 2).toFixed(2);
      if (t.getAttribute('y') !== y) out.misplaced.push({ name, label, y: t.getAttribute('y'), want: y });
      const tb = t.getBoundingClientRect();
      const eps = 1e-3;
      if (tb.left < rb.left - eps || tb.right > rb.right + eps) {
        out.over.push({ name, label, by: +Math.max(rb.left - tb.left, tb.right - rb.right).toFixed(2) });
      }
      // (a left cut drops the path separator it would start on: "..::run" reads "..run")
      const kept = label.replace(/^\.\.|\.\.$/, '');
      const seps = label.startsWith('..') && name.endsWith(kept)
        ? (name.slice(0, name.length - kept.length).match(/:*$/)[0].length) : 0;
      if (label !== name && rb.right - tb.right > (1.3 + 0.7 * seps) * fontPx + 2 * scale) {
        out.loose.push({ name, label, room: +(rb.right - tb.right).toFixed(2) });
      }
      // a cut label keeps at least 4 characters of its name ("..e" names nothing)
      if (label !== name && Array.from(kept).length < 4) {
        out.short.push({ name, label });
      }
    }
    return out;
  }, P);
}

function assertInside(res, what) {
  assert.ok(res.checked > 5, `${what}: labels shown (${res.checked})`);
  assert.deepEqual(res.over.slice(0, 5), [], `${what}: ${res.over.length} of ${res.checked} labels leave their frame`);
  assert.deepEqual(res.loose.slice(0, 5), [], `${what}: cut labels leave room for more`);
  assert.deepEqual(res.missing.slice(0, 5), [], `${what}: wide frames without a label`);
  assert.deepEqual(res.misplaced.slice(0, 5), [], `${what}: labels off their frame's baseline`);
  assert.deepEqual(res.short.slice(0, 5), [], `${what}: cut labels that keep under 4 characters of the name`);
}

// Zooms (a real click) into a frame that keeps many labels in view: the widest frame that
// is not wider than 60% of the graph and not the root's row.
async function zoomSomewhere(page, P) {
  await page.evaluate((p) => {
    const frames = document.getElementById(`${p}-frames`);
    const total = +frames.getAttribute('total_samples');
    let best = null;
    for (const g of frames.children) {
      const r = g.querySelector('rect');
      const w = +r.getAttribute('fg:w');
      if (w <= 0.6 * total && (!best || w > +best.querySelector('rect').getAttribute('fg:w'))) best = g;
    }
    best.setAttribute('data-zoom-here', '');
  }, P);
  await page.locator(`[id="${P}-frames"] > [data-zoom-here]`).click();
  const zoomed = await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().zoomed, P);
  assert.ok(zoomed, 'zoomed in');
}

describe('labels fit their frames', () => {
  for (const input of ['vertx', 'names']) {
    for (const font of FONTS) {
      for (const width of WIDTHS) {
        test(`standalone, ${input}, ${font.tag}, viewport ${width} px: before and after a zoom`, async () => {
          const { page, errors, P } = await standalone(files[`${input}-${font.tag}`], width);
          assertInside(await checkLabels(page, P), 'at load');
          await zoomSomewhere(page, P);
          assertInside(await checkLabels(page, P), 'zoomed');
          await page.keyboard.press('Escape');
          assertInside(await checkLabels(page, P), 'reset');
          assert.deepEqual(errors, []);
          await page.close();
        });

        test(`inline, ${input}, ${font.tag}, container ${width} px: fluid, and a fixed --width scaled by CSS`, async () => {
          const fluid = await inline(files[`${input}-${font.tag}`], width);
          assertInside(await checkLabels(fluid.page, fluid.P), 'fluid at load');
          await zoomSomewhere(fluid.page, fluid.P);
          assertInside(await checkLabels(fluid.page, fluid.P), 'fluid zoomed');
          await fluid.page.close();

          const scaled = await inline(files[`${input}-${font.tag}-fixed`], width, '#box svg{width:100%;height:auto}');
          const w = await scaled.page.evaluate((p) => document.getElementById(`${p}-root`).getBoundingClientRect().width, scaled.P);
          assert.equal(Math.round(w), width, 'the SVG is scaled to its container');
          assertInside(await checkLabels(scaled.page, scaled.P), 'scaled at load');
          await zoomSomewhere(scaled.page, scaled.P);
          assertInside(await checkLabels(scaled.page, scaled.P), 'scaled zoomed');
          assert.deepEqual([...fluid.errors, ...scaled.errors], []);
          await scaled.page.close();
        });
      }
    }
  }

  test('labels are fitted again when the container is resized, zoomed or not', async () => {
    for (const [file, css] of [[files['vertx-default'], ''], [files['vertx-verdana15-fixed'], '#box svg{width:100%;height:auto}']]) {
      const { page, errors, P } = await inline(file, 1200, css);
      const resize = async (w) => {
        await page.evaluate((px) => { document.getElementById('box').style.width = `${px}px`; }, w);
        // the resize observer, then the repaint it asks for
        await settled(page);
      };
      await resize(435);
      assertInside(await checkLabels(page, P), 'narrowed to 435 px');
      await zoomSomewhere(page, P);
      await resize(800);
      assertInside(await checkLabels(page, P), 'zoomed, widened to 800 px');
      await page.keyboard.press('Escape');
      await resize(1200);
      assertInside(await checkLabels(page, P), 'reset, widened to 1200 px');
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('in the HTML report, at page widths 1200, 800 and 435 px', async () => {
    const input = path.join(dir, 'vertx.folded');
    fs.writeFileSync(input, VERTX);
    const report = path.join(dir, 'vertx.html');
    execFileSync(foldsvgBin, [input, '-o', report], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const width of WIDTHS) {
      const { page, errors, P } = await openGraph(browser, url(report), { viewport: { width, height: 900 } });
      assertInside(await checkLabels(page, P), `report at ${width} px`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('an SVG hidden when the page loads (a closed tab) fits its labels once shown', async () => {
    for (const file of [files['vertx-default'], files['names-verdana15-fixed']]) {
      const { page, errors, P } = await inline(file, 800, '#box{display:none}');
      await page.evaluate(() => { document.getElementById('box').style.display = 'block'; });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assertInside(await checkLabels(page, P), 'shown');
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});

describe('labels on a real-shaped SP1 trace', () => {
  // 30,000 cycles of an SP1-shaped guest whose Rust symbols carry ::h<16 hex> hashes: dropped
  // by default, and a frame too narrow for 4 characters of its name shows none rather than
  // "..e" or "..0f996"
  test('no label is a hash or a fragment, at 1200 and 435 px, zoomed too', async () => {
    const file = path.join(dir, 'sp1.svg');
    execFileSync(foldsvgBin, ['-q', path.join(repoRoot, 'tests/data/firefox/sp1-generated-30k.json.gz'), '-o', file]);
    for (const width of [1200, 435]) {
      const { page, errors, P } = await standalone(file, width);
      for (let round = 0; round < 2; round++) {
        const res = checkLabels(page, P);
        const labels = await page.evaluate((p) =>
          [...document.querySelectorAll(`[id="${p}-frames"] text, [id="${p}-zoom"] text`)].map((t) => t.textContent), P);
        assert.ok(labels.length > 40, `labels shown (${labels.length})`);
        assert.deepEqual(labels.filter((l) => /::h[0-9a-f]{16}|^\.\.[0-9a-f]{1,8}$/.test(l)), [], `hash labels at ${width} px`);
        assertInside(await res, `SP1 at ${width} px`);
        if (round === 0) await zoomSomewhere(page, P);
      }
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});

describe('what inferno shows around the labels', () => {
  // write_svg is 10 of 150: 52 px of an 800 px graph, too narrow for its 9 characters
  test('long labels are cut on the left by default (..tail), on the right with --truncate-text-right', async () => {
    for (const [file, re] of [[files.small, /^\.\.[a-z_]*svg$/], [files.right, /^wr[a-z_]*\.\.$/]]) {
      const { page, errors, P } = await standalone(file, 800);
      const label = (await frameInfo(page, P, 'write_svg')).label;
      assert.match(label, re);
      assert.ok(label.length >= 6, `as much of the name as fits (${label})`);
      // zoomed into main, write_svg is 10 of 125 (62 px): still cut, on the same side
      await frameLocator(page, P, 'main').click();
      assert.match((await frameInfo(page, P, 'write_svg')).label, re);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('the title is 17 px (the labels 12 px), the subtitle grey', async () => {
    const { page, errors, P } = await standalone(files.subtitle, 1000);
    const style = await page.evaluate((p) => {
      const cs = (id) => getComputedStyle(document.getElementById(`${p}-${id}`));
      return {
        title: cs('title').fontSize,
        subtitle: cs('subtitle').fill,
        details: cs('details').fontSize,
        label: getComputedStyle(document.querySelector(`[id="${p}-frames"] text`)).fontSize,
      };
    }, P);
    assert.deepEqual(style, { title: '17px', subtitle: 'rgb(160, 160, 160)', details: '12px', label: '12px' });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the root frame reads "all", after a zoom and a reset too', async () => {
    const { page, errors, P } = await standalone(files.small, 1000);
    assert.equal((await frameInfo(page, P, 'all')).label, 'all');
    await frameLocator(page, P, 'parse').click();
    assert.equal((await frameInfo(page, P, 'all')).label, 'all');
    await page.keyboard.press('Escape');
    assert.equal((await frameInfo(page, P, 'all')).label, 'all');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
