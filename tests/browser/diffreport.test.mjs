// Browser tests of the diff report (foldsvg --diff BEFORE AFTER -o diff.html): it opens
// without script errors, shows both inputs' facts and the delta tables with the graph's
// colors, a click on a function in any of its tables finds it in the differential flamegraph
// (functions AFTER lacks are not clickable: they have no frame), the graph zooms, a diff
// graph inline beside another flamegraph stays independent, and dark mode applies.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { foldsvgBin, frameInfo, frameLocator, launchBrowser, makeTmpDir, openPage, prefixOf, ready, SMALL, svgMarkup } from './helpers.mjs';

// BEFORE: 100; AFTER: 150. hash 40 -> 10, io 20 -> gone, keccak new (90), parse 40 -> 50.
const BEFORE = ['main;hash 40', 'main;io 20', 'main;parse 40', ''].join('\n');
const AFTER = ['main;hash 10', 'main;keccak 90', 'main;parse 50', ''].join('\n');

let browser;
let dir;
const files = {};
const url = (f) => pathToFileURL(f).href;

function foldsvg(...args) {
  execFileSync(foldsvgBin, ['-q', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

before(async () => {
  if (!fs.existsSync(foldsvgBin)) {
    throw new Error(`foldsvg binary not found at ${foldsvgBin} (build it, or set FOLDSVG_BIN)`);
  }
  dir = makeTmpDir();
  for (const [name, text] of [['before', BEFORE], ['after', AFTER], ['small', SMALL]]) {
    files[name] = path.join(dir, `${name}.folded`);
    fs.writeFileSync(files[name], text);
  }
  files.report = path.join(dir, 'diff.html');
  foldsvg('--diff', files.before, files.after, '-o', files.report);
  files.svg = path.join(dir, 'diff.svg');
  foldsvg('--diff', files.before, files.after, '-o', files.svg);
  files.smallSvg = path.join(dir, 'small.svg');
  foldsvg(files.small, '-o', files.smallSvg);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(file, opts) {
  const { page, errors } = await openPage(browser, url(file), opts);
  const P = await prefixOf(page, 0);
  await ready(page, `${P}-root`);
  return { page, errors, P };
}

const rows = (page, kind) =>
  page.$$eval(`table[data-kind="${kind}"] tbody tr`, (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
const searchState = (page, P) => page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().search, P);

describe('diff report', () => {
  test('opens without script errors: both inputs side by side, one differential flamegraph', async () => {
    const { page, errors, P } = await open(files.report);
    assert.equal(await page.locator('svg[id$="-root"]').count(), 1);
    const facts = await page.$$eval('.fs-difffacts tbody tr', (rs) =>
      Object.fromEntries(rs.map((r) => [r.cells[0].textContent, [...r.cells].slice(1).map((c) => c.textContent)])));
    assert.deepEqual(facts.File, ['before.folded', 'after.folded', ''].map((f, i) => (i < 2 ? path.join(dir, f) : f)));
    assert.deepEqual(facts['Total cycles'], ['100', '150', '+50 (+50.00%)']);
    assert.deepEqual(facts['Unique stacks'], ['3', '3', '1 only before, 1 only after']);
    assert.match(await page.locator('h2').textContent(), /before\.folded → .*after\.folded$/);
    // the graph: red where a stack grew, blue where it shrank
    const keccak = await frameInfo(page, P, 'keccak');
    const hash = await frameInfo(page, P, 'hash');
    assert.match(keccak.fill, /^rgb\(255,\d+,\d+\)$/);
    assert.match(hash.fill, /^rgb\(\d+,\d+,255\)$/);
    assert.equal(await frameInfo(page, P, 'io'), null, 'a stack AFTER lacks has no width');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('delta tables: ranked by the size of the change, colored as the graph', async () => {
    const { page, errors } = await open(files.report);
    const self = await rows(page, 'self');
    assert.deepEqual(self.slice(0, 3), [
      ['0', '90', '+90', 'new', 'keccak'],
      ['40', '10', '-30', '-75.00%', 'hash'],
      ['20', '0', '-20', '-100.00%', 'io'],
    ]);
    assert.deepEqual((await rows(page, 'inclusive'))[1], ['100', '150', '+50', '+50.00%', 'main']);
    assert.deepEqual(await rows(page, 'only-after'), [['90', 'keccak']]);
    assert.deepEqual(await rows(page, 'only-before'), [['20', 'io']]);
    const color = (sel) => page.locator(sel).first().evaluate((e) => getComputedStyle(e).color);
    assert.equal(await color('table[data-kind="self"] tbody tr:nth-child(1) td:nth-child(3)'), 'rgb(198, 40, 40)');
    assert.equal(await color('table[data-kind="self"] tbody tr:nth-child(2) td:nth-child(3)'), 'rgb(30, 91, 198)');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a click on a function finds it in the graph, marking it in every table; again clears', async () => {
    const { page, errors, P } = await open(files.report);
    const before_ = await frameInfo(page, P, 'keccak');
    await page.locator('table[data-kind="only-after"] button.fs-fn[data-fn="keccak"]').click();
    assert.equal(await searchState(page, P), '^keccak$');
    assert.equal((await frameInfo(page, P, 'keccak')).fill, 'rgb(230,0,230)');
    assert.equal(await page.locator('tr.fs-active').count(), 3, 'self, inclusive and only-after');
    await page.locator('table[data-kind="self"] button.fs-fn[data-fn="keccak"]').click();
    assert.equal(await searchState(page, P), null);
    assert.equal((await frameInfo(page, P, 'keccak')).fill, before_.fill);
    // io has no frame: plain text, and a click does nothing
    assert.equal(await page.locator('button.fs-fn[data-fn="io"]').count(), 0);
    await page.locator('table[data-kind="only-before"] .fs-gone').click();
    assert.equal(await searchState(page, P), null);
    assert.equal(await page.locator('tr.fs-active').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('its flamegraph zooms on click and resets', async () => {
    const { page, errors, P } = await open(files.report);
    await frameLocator(page, P, 'parse').click();
    assert.equal((await frameInfo(page, P, 'parse')).width, '100.0000%');
    // a graph this small zooms in place, hiding frames by class (display: none, which
    // Chromium's checkVisibility does not see on an SVG <g>)
    const hidden = (f) => !f.visible || /\bhide\b/.test(f.cls);
    assert.ok(hidden(await frameInfo(page, P, 'keccak')));
    await page.locator(`[id="${P}-unzoom"]`).click();
    assert.ok(!hidden(await frameInfo(page, P, 'keccak')));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('long names: the function column holds at least 30 characters at 1400 and 1920 px, the whole name on hover', async () => {
    const long = [
      'sp1_zkvm::syscalls::halt;main;fibonacci_program::main;k256::ecdsa::recoverable::Signature::recover_verifying_key;k256::arithmetic::field::field_impl::FieldElementImpl::mul',
      'sp1_zkvm::syscalls::halt;main;fibonacci_program::main;revm_interpreter::interpreter::Interpreter::run;revm_interpreter::instructions::arithmetic::mulmod',
    ];
    const b = path.join(dir, 'long-before.folded');
    const a = path.join(dir, 'long-after.folded');
    fs.writeFileSync(b, `${long[0]} 900\n${long[1]} 400\n`);
    fs.writeFileSync(a, `${long[0]} 300\n${long[1]} 400\n`);
    const html = path.join(dir, 'long.html');
    foldsvg('--diff', b, a, '-o', html);
    for (const width of [1400, 1920]) {
      const { page, errors } = await openPage(browser, url(html), { viewport: { width, height: 900 } });
      await page.waitForSelector('table.fs-delta');
      const chars = await page.$$eval('table.fs-delta td.fn', (cells) =>
        cells.map((td) => {
          const name = td.querySelector('.fs-fn');
          const probe = document.createElement('span');
          probe.style.font = getComputedStyle(name).font;
          probe.style.whiteSpace = 'pre';
          probe.textContent = 'x'.repeat(100);
          document.body.append(probe);
          const w = probe.getBoundingClientRect().width / 100;
          probe.remove();
          return td.clientWidth / w;
        }),
      );
      assert.ok(chars.length >= 4, `${chars.length} name cells`);
      for (const c of chars) assert.ok(c >= 30, `at ${width} px a name cell holds ${c.toFixed(1)} characters`);
      // an elided name is whole on hover
      const cell = page.locator('table[data-kind="self"] .fs-fn', { hasText: 'FieldElementImpl' }).first();
      await cell.hover();
      const shown = await cell.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.textContent);
      assert.equal(shown, 'k256::arithmetic::field::field_impl::FieldElementImpl::mul');
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('the graph says it is differential: its title, and a legend in its top line', async () => {
    const { page, errors, P } = await open(files.report);
    assert.equal(await page.locator(`[id="${P}-title"]`).textContent(), 'Differential Flame Graph');
    assert.match(await page.locator('.fs-note').textContent(), /red grew, blue shrank, by each frame's self time/);
    assert.deepEqual(errors, []);
    await page.close();
    // the standalone SVG keeps inferno's title (frame for frame inferno's); its legend says it
    const svg = fs.readFileSync(files.svg, 'utf8');
    assert.match(svg, /-title" [^>]*>Flame Graph<\/text>/);
  });

  // the legend (the writer's P-legend): between the title and the controls, its swatches the
  // graph's colors; hidden under the search box, and where a narrow page leaves no room
  test('the legend of the standalone SVG sits between the title and the controls, hidden when there is no room', async () => {
    const { page, errors, P } = await open(files.svg, { viewport: { width: 1200, height: 700 } });
    const legend = page.locator(`[id="${P}-legend"]`);
    assert.equal(await legend.textContent(), '\u25A0 grew \u25A0 shrank, by self cycles');
    assert.deepEqual(await legend.locator('tspan').evaluateAll((ts) => ts.map((t) => t.getAttribute('fill'))),
      ['rgb(255,100,100)', 'rgb(100,100,255)']);
    const box = async (id) => page.locator(`[id="${P}-${id}"]`).boundingBox();
    const [l, title, ic] = [await box('legend'), await box('title'), await box('ignorecase')];
    assert.ok(await legend.isVisible());
    assert.ok(l.x > title.x + title.width && l.x + l.width < ic.x, `legend ${JSON.stringify(l)}, title ${JSON.stringify(title)}, ic ${JSON.stringify(ic)}`);
    await page.locator(`[id="${P}-search"]`).click();
    assert.equal(await legend.isVisible(), false, 'under the search box');
    await page.keyboard.press('Escape');
    assert.equal(await legend.isVisible(), true);
    await page.setViewportSize({ width: 640, height: 700 });
    await page.waitForFunction((p) => document.getElementById(`${p}-legend`).classList.contains('hide'), P);
    await page.setViewportSize({ width: 1400, height: 700 });
    await page.waitForFunction((p) => !document.getElementById(`${p}-legend`).classList.contains('hide'), P);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a diff graph inline beside another flamegraph: own ids, independent', async () => {
    const html = path.join(dir, 'two.html');
    fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>.box{width:800px}</style></head><body>
<div class="box">${svgMarkup(files.svg)}</div><div class="box">${svgMarkup(files.smallSvg)}</div></body></html>`);
    const { page, errors } = await openPage(browser, url(html));
    const A = await prefixOf(page, 0);
    const B = await prefixOf(page, 1);
    assert.notEqual(A, B);
    await ready(page, `${A}-root`);
    await ready(page, `${B}-root`);
    const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
    assert.equal(new Set(ids).size, ids.length, 'ids are unique in the page');
    await frameLocator(page, A, 'keccak').click();
    assert.equal((await frameInfo(page, A, 'keccak')).width, '100.0000%');
    assert.equal((await frameInfo(page, B, 'main')).width, `${((125 / 150) * 100).toFixed(4)}%`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('dark mode: dark page, the change colors lightened; --theme light stays light', async () => {
    const { page, errors } = await open(files.report, { colorScheme: 'dark' });
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(13, 17, 23)');
    const more = await page.locator('td.fs-more').first().evaluate((e) => getComputedStyle(e).color);
    assert.equal(more, 'rgb(255, 123, 114)');
    assert.deepEqual(errors, []);
    await page.close();
    // --theme light holds under a dark system: the page and its change colors stay light
    const light = path.join(dir, 'diff-light.html');
    foldsvg('--diff', files.before, files.after, '--theme', 'light', '-o', light);
    const l = await open(light, { colorScheme: 'dark' });
    assert.equal(await l.page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
    assert.equal(await l.page.locator('td.fs-more').first().evaluate((e) => getComputedStyle(e).color), 'rgb(198, 40, 40)');
    assert.deepEqual(l.errors, []);
    await l.page.close();
  });
});
