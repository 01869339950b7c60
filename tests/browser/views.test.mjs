// Browser tests of the views (callers and callees of a function): in the HTML report (a
// table's function name, the URL #sandwich=NAME, Close and Escape, two reports' sections on
// one page, Shift+click in a diff report's SVG), and their absence from a standalone SVG.
// The frames drawn are checked against counts computed here, independently, from the folded
// stacks foldsvg writes for the same input (-o x.folded): for a function F, each stack
// holding F counts once, from F's outermost occurrence to the leaf (callees) and from there
// back to the root (callers).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { foldsvgBin, launchBrowser, makeTmpDir, openPage, prefixOf, ready, viewsFollow } from './helpers.mjs';

// a recursive (a;b;a) and directly recursive (a;a) function, a name with characters that a
// URL must escape, and a function called from several places
const RECURSIVE = [
  'main;a;b;a;c 10',
  'main;a;d 5',
  'main;x;a;b 7',
  'main;x;y 3',
  'main;b;a;a 4',
  'main;ns::f<T> a+b&c;a 6',
  'other;b 2',
  '',
].join('\n');
const OTHER = ['alpha;beta 5', 'alpha;a;gamma 7', 'delta;a 3', ''].join('\n');
// 4,001 frames below main, all as wide: more than a view draws (2,000)
const MANY = Array.from({ length: 2000 }, (_, t) => `main;t_${String(t).padStart(4, '0')};w_${t} 10`).join('\n') + '\n';

let browser;
let dir;
const files = {};
const url = (f) => pathToFileURL(f).href;

function run(args) {
  return execFileSync(foldsvgBin, ['-q', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

before(async () => {
  if (!fs.existsSync(foldsvgBin)) {
    throw new Error(`foldsvg binary not found at ${foldsvgBin} (build it, or set FOLDSVG_BIN)`);
  }
  dir = makeTmpDir();
  for (const [name, text] of [['rec', RECURSIVE], ['other', OTHER], ['many', MANY]]) {
    files[name] = path.join(dir, `${name}.folded`);
    fs.writeFileSync(files[name], text);
    run([files[name], '-o', path.join(dir, `${name}.html`)]);
    run([files[name], '-o', path.join(dir, `${name}.svg`)]);
    run([files[name], '-o', path.join(dir, `${name}.out.folded`)]);
  }
  run([files.rec, files.other, '--sections', '-o', path.join(dir, 'both.html')]);
  run(['--diff', files.other, files.rec, '-o', path.join(dir, 'diff.html')]);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// The expected views of F from folded text: {callees, callers}, each a map from a path of
// names (F first) to its count.
function expectedViews(folded, f) {
  const callees = new Map();
  const callers = new Map();
  const add = (m, frames, n) => {
    for (let i = 1; i <= frames.length; i++) {
      const key = frames.slice(0, i).join(';');
      m.set(key, (m.get(key) || 0) + n);
    }
  };
  for (const line of folded.split('\n')) {
    const m = /^(.*) (\d+)$/.exec(line);
    if (!m) continue;
    const frames = m[1].split(';');
    const at = frames.indexOf(f);
    if (at < 0) continue;
    add(callees, frames.slice(at), +m[2]);
    add(callers, frames.slice(0, at + 1).reverse(), +m[2]);
  }
  return { callees, callers };
}

// The frames of the view V (callers or callees) on the page, as a map from path to count,
// and what each title says: paths from nesting (depth by row, x intervals).
async function shownView(page, v, scope = 'document') {
  return page.evaluate(([view, sc]) => {
    const base = sc === 'document' ? document : document.querySelector(sc);
    const host = base.querySelector(`[data-view="${view}"]`);
    const svg = host.querySelector('svg[id$="-root"]');
    const frames = [...svg.querySelectorAll('svg[id$="-frames"] > g')].map((g) => {
      const r = g.querySelector('rect');
      return { title: g.querySelector('title').textContent, x: +r.getAttribute('fg:x'), w: +r.getAttribute('fg:w'), y: +r.getAttribute('y') };
    });
    const ys = [...new Set(frames.map((f) => f.y))].sort((a, b) => (view === 'callers' ? a - b : b - a));
    for (const f of frames) {
      f.d = ys.indexOf(f.y);
      f.name = f.title.replace(/ \([0-9,]+ [^,]*, [0-9.]+%\)$/, '');
    }
    frames.sort((a, b) => a.d - b.d);
    const out = {};
    const paths = [];
    for (const f of frames) {
      const parent = paths.find((p) => p.d === f.d - 1 && p.x <= f.x && f.x + f.w <= p.x + p.w);
      f.path = parent ? `${parent.path};${f.name}` : f.name;
      paths.push(f);
      out[f.path] = { w: f.w, title: f.title };
    }
    return { frames: out, id: svg.id, inverted: view === 'callers' };
  }, [v, scope]);
}

function checkView(shown, expected, total, unit = 'cycles') {
  const got = Object.fromEntries(Object.entries(shown.frames).map(([k, v]) => [k, v.w]));
  assert.deepEqual(got, Object.fromEntries(expected));
  for (const [p, { w, title }] of Object.entries(shown.frames)) {
    const name = p.split(';').pop();
    assert.equal(title, `${name} (${w.toLocaleString('en-US')} ${unit}, ${((100 * w) / total).toFixed(2)}%)`);
  }
}

// the URL is written after the next frame
const waitHash = (page, h) => page.waitForFunction((x) => window.location.hash === x, h);

async function openReport(file, hash = '') {
  const { page, errors } = await openPage(browser, url(file) + hash);
  const P = await prefixOf(page, 0);
  await ready(page, `${P}-root`);
  return { page, errors, P };
}

const tableButton = (page, kind, name, section = 1) =>
  page.locator(`#fs-section-${section} table[data-kind="${kind}"] button.fs-fn`).filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

describe('views in the HTML report', () => {
  test('a table name opens the callees and callers of it, counted as the folded stacks say', async () => {
    const folded = fs.readFileSync(path.join(dir, 'rec.out.folded'), 'utf8');
    const { page, errors, P } = await openReport(path.join(dir, 'rec.html'));
    for (const f of ['a', 'b', 'main', 'c']) {
      await tableButton(page, 'inclusive', f).click();
      await page.locator('.fs-views [data-view="callers"] svg[id$="-root"]').waitFor();
      const want = expectedViews(folded, f);
      checkView(await shownView(page, 'callees'), want.callees, 37);
      checkView(await shownView(page, 'callers'), want.callers, 37);
      assert.equal(await viewsFollow(page, P), true, 'the views come after the flamegraph');
      assert.match(await page.locator('.fs-views-title').textContent(), new RegExp(`Callers and callees of ${f}$`));
    }
    // a recursive function counts each stack once: a's inclusive time is the table's
    const incl = await page.evaluate(() =>
      document.querySelector('table[data-kind="inclusive"] button.fs-fn[data-fn="a"]').closest('tr').cells[0].textContent);
    await tableButton(page, 'inclusive', 'a').click();
    const callees = await shownView(page, 'callees');
    assert.equal(String(callees.frames.a.w), incl);
    assert.equal(callees.frames['a;b;a'].w, 10, 'a;b;a;c keeps its inner a');
    assert.equal(callees.frames['a;a'].w, 4);
    assert.equal(await page.locator('tr.fs-active').count(), 2, 'its rows are marked');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a function named in "What stands out" opens its views as a table name does', async () => {
    const folded = fs.readFileSync(path.join(dir, 'rec.out.folded'), 'utf8');
    const { page, errors } = await openReport(path.join(dir, 'rec.html'));
    const named = page.locator('.fs-findings li[data-rule="callees"] button.fs-fn[data-fn="x"]').first();
    assert.equal(await named.count(), 1, 'x has a callees finding with its name as a button');
    await named.click();
    await page.locator('.fs-views [data-view="callers"] svg[id$="-root"]').waitFor();
    const want = expectedViews(folded, 'x');
    checkView(await shownView(page, 'callees'), want.callees, 37);
    checkView(await shownView(page, 'callers'), want.callers, 37);
    assert.match(await page.locator('.fs-views-title').textContent(), /Callers and callees of x$/);
    assert.equal(await page.locator('tr.fs-active').count(), 1, "x's table row is marked");
    await named.click();
    assert.equal(await page.locator('.fs-views').count(), 0, 'a second click closes them');
    // the names keep the line's flow: inline, not the tables' full-width blocks
    assert.equal(await named.evaluate((b) => getComputedStyle(b).display), 'inline');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the views zoom, search and show tooltips like the flamegraph; Escape resets, then closes', async () => {
    const { page, errors } = await openReport(path.join(dir, 'rec.html'));
    await tableButton(page, 'inclusive', 'a').click();
    const Q = await page.evaluate(() => document.querySelector('[data-view="callees"] svg[id$="-root"]').id.replace(/-root$/, ''));
    const frame = (name) => page.locator(`:is([id="${Q}-frames"], [id="${Q}-zoom"]):not([aria-hidden="true"]) > g`).filter({
      has: page.locator('title', { hasText: new RegExp(`^${name} \\(`) }), visible: true,
    }).first();
    await frame('b').hover();
    assert.equal(await page.locator(`[id="${Q}-details"]`).textContent(), 'Function: b (17 cycles, 45.95%)');
    await frame('b').click();
    assert.equal(await page.evaluate((q) => document.getElementById(`${q}-root`).foldsvg.state().zoomed, Q), 'b');
    await page.evaluate((q) => document.getElementById(`${q}-root`).foldsvg.search('^c$'), Q);
    assert.equal(await page.locator(`[id="${Q}-matched"]`).textContent(), 'Matched: 31.3%');
    await frame('b').focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(await page.evaluate((q) => document.getElementById(`${q}-root`).foldsvg.state(), Q),
      { zoomed: null, search: null, searching: false, ignoreCase: false, width: await page.evaluate((q) => document.getElementById(`${q}-root`).foldsvg.state().width, Q) });
    assert.equal(await page.locator('.fs-views').count(), 1, 'the first Escape only reset the view');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.fs-views').count(), 0);
    await waitHash(page, '');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Close, a second click on the name and Shift+click on a frame', async () => {
    const { page, errors, P } = await openReport(path.join(dir, 'rec.html'));
    await tableButton(page, 'self', 'c').click();
    assert.equal(await page.locator('.fs-views').count(), 1);
    await page.locator('.fs-views-close').click();
    assert.equal(await page.locator('.fs-views').count(), 0);
    await tableButton(page, 'self', 'c').click();
    await tableButton(page, 'inclusive', 'c').click();
    assert.equal(await page.locator('.fs-views').count(), 0, 'a second click closes');
    // Shift+click on a frame of the flamegraph, then on one of the views
    const y = page.locator(`[id="${P}-frames"] > g`).filter({ has: page.locator('title', { hasText: /^y \(/ }) });
    await y.click({ modifiers: ['Shift'] });
    assert.match(await page.locator('.fs-views-title').textContent(), /of y$/);
    await waitHash(page, '#sandwich=y');
    const x = page.locator('[data-view="callers"] svg[id$="-frames"] > g').filter({ has: page.locator('title', { hasText: /^x \(/ }) });
    await x.click({ modifiers: ['Shift'] });
    assert.match(await page.locator('.fs-views-title').textContent(), /of x$/);
    assert.equal(await page.locator('.fs-views').count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('URL state: #sandwich=NAME opens the view, follows it, and a reload comes back to it', async () => {
    const name = 'ns::f<T> a+b&c';
    const { page, errors } = await openReport(path.join(dir, 'rec.html'), `#sandwich=${encodeURIComponent(name)}`);
    await page.locator('.fs-views [data-view="callees"] svg[id$="-root"]').waitFor();
    assert.equal(await page.locator('.fs-views-title code').textContent(), name);
    const folded = fs.readFileSync(path.join(dir, 'rec.out.folded'), 'utf8');
    checkView(await shownView(page, 'callers'), expectedViews(folded, name).callers, 37);
    await tableButton(page, 'self', 'd').click();
    await waitHash(page, '#sandwich=d');
    await page.reload();
    await page.locator('.fs-views [data-view="callees"] svg[id$="-root"]').waitFor();
    assert.match(await page.locator('.fs-views-title').textContent(), /of d$/);
    // editing the hash by hand
    await page.evaluate(() => { window.location.hash = '#sandwich=x'; });
    await page.waitForFunction(() => /of x$/.test(document.querySelector('.fs-views-title').textContent));
    await page.evaluate(() => { window.location.hash = ''; });
    await page.waitForFunction(() => !document.querySelector('.fs-views'));
    // a name no stack holds: nothing opens, no error (the report's hashchange listener, added
    // before this one, has run when this one runs)
    await page.evaluate(() => new Promise((r) => {
      window.addEventListener('hashchange', () => setTimeout(r, 0), { once: true });
      window.location.hash = '#sandwich=nowhere';
    }));
    assert.equal(await page.locator('.fs-views').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('sections: the view of the second section is its own, and in the URL', async () => {
    const { page, errors } = await openReport(path.join(dir, 'both.html'));
    await ready(page, `${await prefixOf(page, 1)}-root`);
    await tableButton(page, 'inclusive', 'a', 2).click();
    assert.equal(await page.locator('#fs-section-2 .fs-views').count(), 1);
    assert.equal(await page.locator('#fs-section-1 .fs-views').count(), 0);
    await waitHash(page, '#sandwich=a&section=fs-section-2');
    const folded = fs.readFileSync(path.join(dir, 'other.out.folded'), 'utf8');
    checkView(await shownView(page, 'callers', '#fs-section-2'), expectedViews(folded, 'a').callers, 15);
    await page.reload();
    await page.locator('#fs-section-2 .fs-views [data-view="callers"] svg[id$="-root"]').waitFor();
    assert.equal(await page.locator('#fs-section-1 .fs-views').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('two reports on one page: each view stays in its report, ids stay unique', async () => {
    const body = (f) => {
      const html = fs.readFileSync(path.join(dir, f), 'utf8');
      return html.slice(html.indexOf('<main>'), html.indexOf('</body>'));
    };
    const head = fs.readFileSync(path.join(dir, 'rec.html'), 'utf8');
    const style = head.slice(head.indexOf('<style>'), head.indexOf('</style>') + 8);
    const page2 = path.join(dir, 'embedded.html');
    fs.writeFileSync(page2, `<!doctype html><html><head><meta charset="utf-8">${style}</head><body>
<div id="one">${body('rec.html')}</div><div id="two">${body('other.html')}</div></body></html>`);
    const { page, errors } = await openPage(browser, url(page2));
    const A = await prefixOf(page, 0);
    const B = await prefixOf(page, 1);
    await ready(page, `${A}-root`);
    await ready(page, `${B}-root`);
    await page.locator('#two table[data-kind="inclusive"] button.fs-fn[data-fn="a"]').click();
    assert.equal(await page.locator('#two .fs-views').count(), 1);
    assert.equal(await page.locator('#one .fs-views').count(), 0);
    await page.locator('#one table[data-kind="inclusive"] button.fs-fn[data-fn="a"]').click();
    assert.equal(await page.locator('.fs-views').count(), 2);
    const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id).filter((id) => !id.startsWith('fs-section')));
    assert.equal(new Set(ids).size, ids.length, 'ids are unique in the page');
    const folded = fs.readFileSync(path.join(dir, 'other.out.folded'), 'utf8');
    checkView(await shownView(page, 'callees', '#two'), expectedViews(folded, 'a').callees, 15);
    checkView(await shownView(page, 'callees', '#one'), expectedViews(fs.readFileSync(path.join(dir, 'rec.out.folded'), 'utf8'), 'a').callees, 37);
    await page.locator('#two .fs-views-close').click();
    assert.equal(await page.locator('#one .fs-views').count(), 1, 'closing one left the other open');
    assert.equal(await page.locator('#two .fs-views').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

test("the diff report has no views of its own: a name finds the function, Shift+click draws the SVG's", async () => {
  const html = fs.readFileSync(path.join(dir, 'diff.html'), 'utf8');
  assert.ok(!html.includes('<script type="application/json" class="fs-stacks">'), 'no stacks embedded');
  const { page, errors, P } = await openReport(path.join(dir, 'diff.html'));
  await page.locator('table[data-kind="inclusive"] button.fs-fn[data-fn="a"]').click();
  assert.equal(await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().search, P), '^a$');
  assert.equal(await page.locator('.fs-views').count(), 0);
  assert.equal(await page.evaluate(() => window.location.hash), '');
  // the graph's own views, in the SVG, of its frames (AFTER's counts)
  await page.locator(`[id="${P}-frames"] > g`).filter({ has: page.locator('title', { hasText: /^b \(/ }) }).first()
    .click({ modifiers: ['Shift'] });
  await page.locator(`[id="${P}-root"] [data-view="callers"] svg[id$="-root"]`).waitFor();
  const want = expectedViews(fs.readFileSync(path.join(dir, 'rec.out.folded'), 'utf8'), 'b');
  checkView(await shownView(page, 'callees'), want.callees, 37);
  assert.equal(await page.locator('.fs-views-bar').count(), 0, "not the report's panel");
  assert.deepEqual(errors, []);
  await page.close();
});

test('a view draws at most 2,000 frames, the widest first in drawing order, and says so', async () => {
  const { page, errors } = await openReport(path.join(dir, 'many.html'));
  await tableButton(page, 'inclusive', 'main').click();
  const callees = await shownView(page, 'callees');
  const paths = Object.keys(callees.frames);
  assert.equal(paths.length, 2000);
  assert.equal(callees.frames.main.w, 20000);
  // every frame drawn is in the folded stacks, with its count; a w_ only below its t_
  const want = expectedViews(fs.readFileSync(path.join(dir, 'many.out.folded'), 'utf8'), 'main').callees;
  for (const p of paths) assert.equal(callees.frames[p].w, want.get(p), p);
  assert.ok(paths.includes('main;t_0000;w_0') && !paths.includes('main;t_1999'), 'the first in drawing order');
  assert.match(await page.locator('.fs-views-facts').textContent(), /; 2,001 narrow frames not drawn$/);
  assert.deepEqual(errors, []);
  await page.close();
});

describe('views in a standalone SVG', () => {
  // The views are the HTML report's: a standalone SVG's script leaves them out (it stays
  // small), and a Shift+click there zooms as a click does.
  test('a standalone SVG has none: Shift+click zooms, ?sandwich= opens nothing', async () => {
    const { page, errors } = await openPage(browser, url(path.join(dir, 'rec.svg')) + '?sandwich=a');
    const P = await prefixOf(page, 0);
    await ready(page, `${P}-root`);
    assert.equal(await page.evaluate(() => typeof document.documentElement.foldsvg.sandwich), 'undefined');
    assert.equal(await page.evaluate(() => typeof document.documentElement.foldsvg.views), 'undefined');
    assert.equal(await page.locator('.fs-views').count(), 0);
    const h0 = await page.evaluate(() => document.documentElement.getAttribute('height'));
    const a = page.locator(`[id="${P}-frames"] > g`).filter({ has: page.locator('title', { hasText: /^a \(/ }) }).first();
    await a.click({ modifiers: ['Shift'] });
    await page.waitForFunction(() => document.documentElement.foldsvg.state().zoomed === 'a');
    assert.equal(await page.locator('.fs-views').count(), 0);
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('height')), h0, 'the SVG did not grow');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
