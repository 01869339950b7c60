// Browser tests of the HTML report's self and inclusive tables: one long name (a Rust
// generic, as SP1 profiles are full of) stretches no row of either table, at page widths
// 1200, 800 and 435 px; it is elided in its cell and shown whole on hover and on keyboard
// focus, over the rows below, without moving them; the tables never make the page scroll
// sideways, and their numbers fit their cells.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { foldsvgBin, launchBrowser, makeTmpDir, openPage, prefixOf, ready } from './helpers.mjs';

// LONG only in the inclusive table (never a leaf): the case of the issue, where it made every
// row of the self table 65 px high. MEDIUM fits a cell of a 1200 px page, not of a 435 px one.
// The last line's count (15 characters with separators) overflowed a column of fixed width.
const LONG =
  '<alloc::vec::Vec<T,A> as core::iter::traits::collect::Extend<&T>>::extend::<core::iter::adapters::' +
  'cloned::Cloned<core::slice::iter::Iter<sp1_core_machine::riscv::RiscvAir<p3_baby_bear::BabyBear>>>>' +
  '::h0123456789abcdef';
const MEDIUM = 'revm_interpreter::instructions::push_h7';
const FOLDED = [
  `main;${LONG};memcpy 50`,
  `main;${LONG};memset 30`,
  `main;${MEDIUM} 12`,
  'main;short_leaf 20',
  'main;other;memcpy 5',
  'main;big 123456789012',
  '',
].join('\n');
const WIDTHS = [1200, 800, 435];

let browser;
let dir;
let report;

before(async () => {
  if (!fs.existsSync(foldsvgBin)) {
    throw new Error(`foldsvg binary not found at ${foldsvgBin} (build it, or set FOLDSVG_BIN)`);
  }
  dir = makeTmpDir();
  const input = path.join(dir, 'long.folded');
  fs.writeFileSync(input, FOLDED);
  report = path.join(dir, 'long.html');
  execFileSync(foldsvgBin, [input, '-o', report], { stdio: ['ignore', 'pipe', 'pipe'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(width) {
  const { page, errors } = await openPage(browser, pathToFileURL(report).href, { viewport: { width, height: 900 } });
  await ready(page, `${await prefixOf(page)}-root`);
  return { page, errors };
}

// Row heights of both tables, the page's sideways overflow, and what each name cell shows.
const layout = (page) => page.evaluate(() => {
  const rows = (kind) => [...document.querySelectorAll(`table[data-kind="${kind}"] tbody tr`)]
    .map((r) => r.getBoundingClientRect().height);
  const names = {};
  for (const b of document.querySelectorAll('table[data-kind="inclusive"] button.fs-fn')) {
    const r = b.getBoundingClientRect();
    names[b.textContent] = { elided: b.scrollWidth > b.clientWidth, marked: b.classList.contains('fs-elided'), width: r.width, right: r.right };
  }
  const tables = [...document.querySelectorAll('table.fs-top')].map((t) => t.getBoundingClientRect().right);
  const spilled = [...document.querySelectorAll('table.fs-top td.num')]
    .filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent);
  return {
    self: rows('self'),
    incl: rows('inclusive'),
    names,
    spilled,
    overflow: document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth,
    tablesRight: Math.max(...tables),
    viewport: document.documentElement.clientWidth,
  };
});

// The name button BUTTON as shown now: its box, whether its text fits, what lies on top at a
// point of the box below its own row, and its row's height.
const shown = (button) => button.evaluate((b) => {
  const r = b.getBoundingClientRect();
  const row = b.closest('tr').getBoundingClientRect();
  const y = Math.min(r.bottom - 2, row.bottom + 6);
  const top = document.elementFromPoint(r.left + r.width / 2, y);
  return {
    height: r.height,
    fits: b.scrollWidth <= b.clientWidth + 1,
    onTop: top === b || b.contains(top),
    below: y > row.bottom,
    rowHeight: row.height,
    text: b.textContent,
    visible: b.checkVisibility(),
  };
});

describe('report tables', () => {
  for (const width of WIDTHS) {
    test(`a long name stretches no row of either table, page ${width} px wide`, async () => {
      const { page, errors } = await open(width);
      const l = await layout(page);
      const all = [...l.self, ...l.incl];
      assert.ok(l.self.length >= 4 && l.incl.length >= 6, `rows: ${l.self.length} self, ${l.incl.length} inclusive`);
      assert.ok(Math.max(...all) - Math.min(...all) < 0.5, `row heights differ: self ${l.self}, inclusive ${l.incl}`);
      assert.ok(Math.max(...all) < 30, `rows are one line high (${Math.max(...all)} px)`);
      assert.ok(l.overflow <= 0, `the page scrolls sideways by ${l.overflow} px`);
      assert.deepEqual(l.spilled, [], 'every count and percentage fits its cell (100.00% too)');
      assert.ok(l.tablesRight <= l.viewport, `a table ends at ${l.tablesRight}, past the page (${l.viewport})`);
      const long = l.names[LONG];
      assert.ok(long.elided && long.marked, `the long name is elided and marked: ${JSON.stringify(long)}`);
      assert.ok(long.width >= 150, `a readable name column (${long.width} px)`);
      assert.equal(l.names.short_leaf.marked, false, 'a short name is not marked');
      assert.equal(l.names[MEDIUM].marked, l.names[MEDIUM].elided, 'marked exactly when elided');
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  test('the elided name shows whole on hover, over the rows below, which do not move', async () => {
    for (const width of [1200, 435]) {
      const { page, errors } = await open(width);
      const before_ = await layout(page);
      const button = page.locator('table[data-kind="inclusive"] button.fs-fn', { hasText: LONG });
      const rest = await shown(button);
      assert.equal(rest.fits, false);
      await button.hover();
      const s = await shown(button);
      assert.equal(s.text, LONG);
      assert.ok(s.fits, `the whole name fits its box at ${width} px`);
      assert.ok(s.height > 2 * s.rowHeight, `the box runs over the rows below (${s.height} px, rows ${s.rowHeight} px)`);
      assert.ok(s.below && s.onTop, 'the box lies on top of the row below');
      const during = await layout(page);
      assert.deepEqual(during.incl, before_.incl, 'no row moved or grew');
      assert.deepEqual(during.self, before_.self);
      await page.mouse.move(1, 1);
      assert.equal((await shown(button)).fits, false, 'elided again when the pointer leaves');
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('the elided name shows whole on keyboard focus, and the click still highlights it', async () => {
    const { page, errors } = await open(800);
    const names = page.locator('table[data-kind="inclusive"] button.fs-fn');
    const texts = await names.allTextContents();
    const at = texts.indexOf(LONG);
    assert.ok(at > 0, `the long name has a row above it (${at})`);
    await names.nth(at - 1).focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({ text: document.activeElement.textContent, visible: document.activeElement.matches(':focus-visible') }));
    assert.deepEqual(focused, { text: LONG, visible: true });
    const s = await shown(names.nth(at));
    assert.ok(s.fits && s.height > 2 * s.rowHeight, `shown whole on focus: ${JSON.stringify(s)}`);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('tr.fs-active').count(), 1, 'Enter on it highlights its row');
    await page.keyboard.press('Tab');
    assert.equal((await shown(names.nth(at))).fits, false, 'elided again when the focus leaves');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('names are marked again when the page narrows', async () => {
    const { page, errors } = await open(1200);
    assert.equal((await layout(page)).names[MEDIUM].marked, false, 'MEDIUM fits at 1200 px');
    await page.setViewportSize({ width: 435, height: 900 });
    await page.waitForFunction((m) => [...document.querySelectorAll('button.fs-fn')]
      .some((b) => b.textContent === m && b.classList.contains('fs-elided')), MEDIUM);
    const l = await layout(page);
    assert.ok(l.names[MEDIUM].elided && l.names[MEDIUM].marked);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
