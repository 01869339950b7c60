// The search box of the standalone SVG (issue 45: a box in the graph, not a prompt; issue 47:
// a link cannot freeze the page). A term from the URL is text; a regular expression typed
// with the ".*" toggle runs in a worker that is stopped when it takes too long.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { frameInfo, launchBrowser, makeTmpDir, openGraph, renderSvg, searchBox, SMALL, text } from './helpers.mjs';

// a long name of word characters: ^(\w+)*$! backtracks 2^40 ways on it
const LONG = 'a'.repeat(40);
const HOSTILE = '^(\\w+)*$!';
const FOLDED = [...SMALL.trim().split('\n'), `other;${LONG} 10`, ''].join('\n');

let browser;
let dir;
let file;

before(async () => {
  dir = makeTmpDir();
  file = await renderSvg(dir, 'long', FOLDED);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const answers = (page) => page.evaluate(() => 1 + 1);

describe('search box', () => {
  test('a link with a backtracking expression is searched as text: the page answers at once', async () => {
    const url = `${pathToFileURL(file).href}?s=${encodeURIComponent(HOSTILE)}`;
    const { page, errors, P } = await openGraph(browser, url);
    // a page stuck in the expression would never answer this
    assert.equal(await answers(page), 2);
    const state = await page.evaluate((p) => document.getElementById(`${p}-root`).foldsvg.state(), P);
    assert.equal(state.search, HOSTILE);
    assert.equal(await text(page, `${P}-matched`), 'Matched: 0.0%');
    // text search: the regular expression's characters are plain characters
    await searchBox(page, P, 'draw_f');
    assert.equal(await text(page, `${P}-matched`), 'Matched: 34.4%');
    await searchBox(page, P, 'draw|parse');
    assert.equal(await text(page, `${P}-matched`), 'Matched: 0.0%');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the box: opened by Search, typed into, the matches share shown; Escape closes it', async () => {
    const { page, errors, P } = await openGraph(browser, pathToFileURL(file).href);
    assert.equal(await page.locator(`[id="${P}-searchbox"]`).count(), 0, 'no box until asked for');
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      d.dismiss();
    });
    await page.locator(`[id="${P}-search"]`).click();
    const input = page.locator(`[id="${P}-searchbox"] input`);
    assert.equal(await input.isVisible(), true);
    assert.equal(await page.evaluate(() => document.activeElement.localName), 'input');
    await page.keyboard.type('parse');
    // parse 50 of 160
    assert.equal(await text(page, `${P}-matched`), 'Matched: 31.3%');
    assert.equal((await frameInfo(page, P, 'parse')).fill, 'rgb(230,0,230)');
    // the box sits in the graph's top line, left of "ic" and Search
    const box = await page.locator(`[id="${P}-searchbox"]`).boundingBox();
    const ic = await page.locator(`[id="${P}-ignorecase"]`).boundingBox();
    assert.ok(box.x + box.width <= ic.x && box.y < ic.y + ic.height, `box ${JSON.stringify(box)}, ic ${JSON.stringify(ic)}`);
    await page.keyboard.press('Escape');
    assert.equal(await input.isVisible(), false);
    assert.equal((await text(page, `${P}-matched`)).trim(), '');
    assert.equal(dialogs, 0, 'no prompt() dialog');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('with ".*": a regular expression, and one that backtracks forever is stopped', async () => {
    const { page, errors, P } = await openGraph(browser, pathToFileURL(file).href);
    await searchBox(page, P, 'draw|parse', { regex: true });
    // parse 50 + draw_frames 55 of 160
    assert.equal(await text(page, `${P}-matched`), 'Matched: 65.6%');
    assert.equal((await frameInfo(page, P, 'draw_frames')).fill, 'rgb(230,0,230)');
    await searchBox(page, P, HOSTILE, { regex: true });
    assert.equal(await answers(page), 2);
    assert.match(await text(page, `${P}-matched`), /too slow/);
    assert.notEqual((await frameInfo(page, P, 'draw_frames')).fill, 'rgb(230,0,230)');
    // and the next expression works again
    await searchBox(page, P, `^a{40}$`, { regex: true });
    assert.equal(await text(page, `${P}-matched`), 'Matched: 6.3%');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
