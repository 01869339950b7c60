// Takes the PNG screenshots in docs/ from real renders (FOLDSVG_BIN, default build/foldsvg):
//   node tests/browser/screenshots.mjs
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser, makeTmpDir, openPage, prefixOf, ready, renderSvg, repoRoot, searchBox } from './helpers.mjs';

const FOLDED = [
  'main;parse_args;getopt_long 40',
  'main;read_input;read_line;memchr 180',
  'main;read_input;read_line 60',
  'main;read_input;gunzip;inflate 220',
  'main;merge;hash_lookup 260',
  'main;merge;hash_lookup;memcmp 90',
  'main;merge;arena_alloc 70',
  'main;render;write_frame;format_percent 150',
  'main;render;write_frame;xml_escape 120',
  'main;render;write_frame;color_for;fnv1a 60',
  'main;render;write_frame 80',
  'main;render;xmlTextWriterWriteAttribute 110',
  'main;flush;write 50',
  '[unknown];page_fault 30',
  '',
].join('\n');

const dir = makeTmpDir('foldsvg-shots-');
const svg = await renderSvg(dir, 'example', FOLDED, ['--title', 'foldsvg rendering itself']);
const docs = path.join(repoRoot, 'docs');
const browser = await launchBrowser();
const shot = async (name, { colorScheme = 'light', act } = {}) => {
  const { page, errors } = await openPage(browser, pathToFileURL(svg).href, { viewport: { width: 1000, height: 260 }, colorScheme });
  const P = await prefixOf(page);
  await ready(page, `${P}-root`);
  if (act) await act(page, P);
  await page.screenshot({ path: path.join(docs, name) });
  if (errors.length) throw new Error(errors.join('; '));
  await page.close();
};
await shot('screenshot.png', {
  act: async (page, P) => {
    const g = page.locator(`[id="${P}-frames"] > *`).filter({ has: page.locator('title', { hasText: /^hash_lookup \(/ }) });
    await g.hover();
  },
});
await shot('screenshot-zoom-search.png', {
  act: async (page, P) => {
    await page.locator(`[id="${P}-frames"] > *`).filter({ has: page.locator('title', { hasText: /^render \(/ }) }).click();
    await searchBox(page, P, 'write|xml', { regex: true });
    await page.mouse.move(5, 5);
  },
});
await shot('screenshot-dark.png', { colorScheme: 'dark' });
await browser.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log('wrote docs/screenshot.png, docs/screenshot-zoom-search.png, docs/screenshot-dark.png');
