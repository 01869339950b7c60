// Browser tests of the HTML report (foldsvg -o report.html): it opens without script errors,
// its inline flamegraph zooms, a click on a function name in a table opens its views (views.test.mjs) in
// the same section, sections stay independent, and dark mode applies.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { foldsvgBin, frameInfo, frameLocator, launchBrowser, makeTmpDir, openPage, prefixOf, ready, SMALL, viewsFollow } from './helpers.mjs';

const OTHER = ['alpha;beta 5', 'alpha;draw_frames 7', 'delta 3', ''].join('\n');

let browser;
let dir;
const files = {};
const url = (f) => pathToFileURL(f).href;

function report(name, inputs, flags = []) {
  const out = path.join(dir, `${name}.html`);
  execFileSync(foldsvgBin, [...inputs, '-o', out, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  return out;
}

before(async () => {
  if (!fs.existsSync(foldsvgBin)) {
    throw new Error(`foldsvg binary not found at ${foldsvgBin} (build it, or set FOLDSVG_BIN)`);
  }
  dir = makeTmpDir();
  files.small = path.join(dir, 'small.folded');
  files.other = path.join(dir, 'other.folded');
  fs.writeFileSync(files.small, SMALL);
  fs.writeFileSync(files.other, OTHER);
  files.one = report('one', [files.small]);
  files.two = report('two', [files.small, files.other], ['--sections']);
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

const searchState = (page, P) => page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state().search, P);
const button = (page, section, kind, name) =>
  page.locator(`#fs-section-${section} table[data-kind="${kind}"] button.fs-fn[data-fn="${name}"]`);

describe('HTML report', () => {
  test('an SP1-shaped report leads with facts and graph; at most 8 findings, ranked, the rest behind "more"; precompiles as a table', async () => {
    const H = 'sp1_zkvm::syscalls::halt;main;guest::main;';
    const lines = [
      'revm::evm::transact;revm::interpreter::run;revm::opcode::keccak256;sp1_lib::keccak;syscall_keccak_permute 120000',
      'revm::evm::transact;revm::interpreter::run;revm::opcode::keccak256;sp1_lib::keccak 30000',
      'revm::evm::transact;revm::precompile::ecrecover;k256::ecdsa::recover;k256::arithmetic::field::FieldElement::mul;syscall_secp256k1_double 90000',
      'revm::evm::transact;revm::precompile::ecrecover;k256::ecdsa::recover;k256::arithmetic::field::FieldElement::mul;syscall_secp256k1_add 60000',
      'revm::evm::transact;revm::precompile::ecrecover;k256::ecdsa::recover;k256::arithmetic::field::FieldElement::mul 80000',
      'revm::evm::transact;revm::precompile::sha256;sha2::compress256;syscall_sha256_compress 40000',
      'revm::evm::transact;revm::precompile::sha256;sha2::compress256;syscall_sha256_extend 20000',
      'revm::db::storage 50000',
      'alloc::raw_vec::RawVec<T,A>::grow_one;alloc::raw_vec::finish_grow;memcpy 15000',
      'bn::fields::fq::mul;syscall_bn254_fp_mulmod 10000',
      ...[1, 2, 3, 4, 5].map((i) => `guest::step${i};guest::State${i}::new;guest::fill${i} 20000`),
    ];
    const input = path.join(dir, 'sp1-shaped.folded');
    fs.writeFileSync(input, lines.map((l) => H + l).join('\n') + '\n');
    const file = report('sp1-shaped', [input], ['--summary-threshold', 'setup=2']);
    const { page, errors, P } = await open(file, { viewport: { width: 1400, height: 900 } });
    const box = async (sel) => page.locator(sel).first().boundingBox();
    const facts = await box('.fs-facts');
    const graph = await box(`svg[id="${P}-root"]`);
    assert.ok(facts.y + facts.height <= 900, 'the facts on the first screen');
    assert.ok(graph.y + graph.height <= 900, `the graph on the first screen (ends at ${graph.y + graph.height})`);
    assert.ok((await box('.fs-findings')).y >= graph.y + graph.height, 'the findings after the graph');
    // sentences: at most 8 shown, heaviest first; the rest behind "more"
    const shown = await page.$$eval('.fs-findings > ul > li', (ls) => ls.map((l) => l.dataset.rule));
    assert.equal(shown.length, 8);
    assert.ok(!shown.includes('precompile'));
    assert.equal(await page.locator('.fs-findings details.fs-more > ul > li').count(), 3);
    assert.equal(await page.locator('.fs-findings details.fs-more summary').textContent(), '3 more');
    assert.equal(await page.locator('.fs-findings details.fs-more > ul').isVisible(), false);
    assert.equal(shown[0], 'callees', 'revm::evm::transact, the heaviest, first');
    // the precompiles: one row each, the heaviest caller named
    const pre = await page.$$eval('table.fs-precompiles tbody tr', (rs) => rs.map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent)));
    assert.equal(pre.length, 6);
    assert.deepEqual(pre[0], ['syscall_keccak_permute', '120,000', '19.5%', 'sp1_lib::keccak']);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('opens without script errors; facts, tables and one inline flamegraph', async () => {
    const { page, errors } = await open(files.one);
    assert.equal(await page.locator('svg[id$="-root"]').count(), 1);
    const facts = await page.$$eval('.fs-facts > div', (ds) =>
      Object.fromEntries(ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
    assert.equal(facts['Total cycles'], '150');
    assert.equal(facts['Unique stacks'], '7');
    assert.match(facts.File, /small\.folded$/);
    const self = await page.$$eval('table[data-kind="self"] tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.deepEqual(self[0], ['40', '26.67%', 'draw_frames']);
    const incl = await page.$$eval('table[data-kind="inclusive"] tbody tr', (rs) => rs.map((r) => r.cells[2].textContent));
    assert.deepEqual(incl.slice(0, 3), ['main', 'render', 'draw_frames']);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('its flamegraph zooms on click and resets', async () => {
    const { page, errors, P } = await open(files.one);
    await frameLocator(page, P, 'render').click();
    assert.equal((await frameInfo(page, P, 'render')).width, '100.0000%');
    assert.equal((await frameInfo(page, P, 'parse')).visible, false);
    await page.locator(`[id="${P}-unzoom"]`).click();
    assert.equal((await frameInfo(page, P, 'parse')).visible, true);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('clicking a function name opens its callers and callees below the flamegraph; a second click closes', async () => {
    const { page, errors, P } = await open(files.one);
    await button(page, 1, 'self', 'draw_frames').click();
    assert.equal(await page.locator('#fs-section-1 .fs-views [data-view="callees"] svg[id$="-root"]').count(), 1);
    assert.equal(await page.locator('#fs-section-1 .fs-views [data-view="callers"] svg[id$="-root"]').count(), 1);
    assert.equal(await viewsFollow(page, P), true);
    assert.match(await page.locator('.fs-views-facts').textContent(), /inclusive 55 cycles \(36\.67%\), self 40 \(26\.67%\)/);
    assert.equal(await page.locator('tr.fs-active').count(), 2, 'the row is marked in both tables');
    await button(page, 1, 'inclusive', 'draw_frames').click();
    assert.equal(await page.locator('.fs-views').count(), 0);
    assert.equal(await page.locator('tr.fs-active').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('sections: one flamegraph each, with its own ids, searched independently', async () => {
    const { page, errors } = await open(files.two);
    assert.equal(await page.locator('section.fs-section').count(), 2);
    const A = await prefixOf(page, 0);
    const B = await prefixOf(page, 1);
    assert.notEqual(A, B);
    await ready(page, `${B}-root`);
    assert.match(await page.locator('#fs-section-2 h2').textContent(), /other\.folded$/);
    await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.search('draw'), B);
    assert.equal(await searchState(page, B), 'draw');
    assert.equal(await searchState(page, A), null);
    await frameLocator(page, B, 'alpha').click();
    assert.equal((await frameInfo(page, B, 'alpha')).width, '100.0000%');
    assert.equal((await frameInfo(page, A, 'main')).width, `${((125 / 150) * 100).toFixed(4)}%`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('dark mode: dark page behind the flamegraph', async () => {
    const { page, errors } = await open(files.one, { colorScheme: 'dark' });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(13, 17, 23)');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
