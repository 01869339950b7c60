// Zoom timing of the SVG script on a ~50k-frame flame graph, in headless Chromium.
//
//   node bench/zoom_bench.mjs [--frames 50000] [--runs 5] [--keep DIR]
//
// Renders a generated folded profile with foldsvg (FOLDSVG_BIN, default build/foldsvg),
// opens the SVG in the system Chromium and clicks
// frames with real (trusted) mouse events. For each click it reports
//   script: the click handler's own time (zoom logic and DOM writes),
//   frame:  click to the end of the next rendered frame (style, layout, paint), measured as
//           a requestAnimationFrame followed by a task,
//   event:  the Event Timing API's duration of the click (input to next presentation),
// as the median and maximum over the runs, and where the page load goes. The goal: zoom
// repaints in under 100 ms. Frames are picked among those shown: the script may show a zoom
// as copies in its zoom layer (<svg id="P-zoom">) over the hidden P-frames.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser, makeTmpDir, renderSvg } from '../tests/browser/helpers.mjs';
import { generate } from './graph50k.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const targetFrames = +opt('frames', 50000);
const runs = +opt('runs', 5);
const keep = opt('keep', null);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = keep || makeTmpDir('foldsvg-bench-');
fs.mkdirSync(dir, { recursive: true });
const { text, frames } = generate(targetFrames);
const t0 = Date.now();
const svg = await renderSvg(dir, 'zoom50k', text);
const renderMs = Date.now() - t0;
const size = fs.statSync(svg).size;

const browser = await launchBrowser();
const page = await browser.context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.setViewportSize({ width: 1200, height: 800 });
const tl = Date.now();
await page.goto(pathToFileURL(svg).href);
await page.waitForFunction(() => document.documentElement.foldsvg);
const loadMs = Date.now() - tl;
// where the load time goes: the file read and parsed (DOMContentLoaded), the load event
// (parsed, styled and laid out), the script ready (root.foldsvg set)
const nav = await page.evaluate(() => {
  const e = performance.getEntriesByType('navigation')[0];
  return { parsed: e.domContentLoadedEventStart, load: e.loadEventStart, ready: performance.now() };
});
const count = await page.evaluate(() => document.documentElement.foldsvg.frames);

// Install the in-page instruments: event timing of clicks, and a click-to-frame timer.
await page.evaluate(() => {
  window.__bench = { events: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'click') window.__bench.events.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: false });
  document.documentElement.addEventListener('click', () => {
    const start = performance.now();
    window.__bench.clickStart = start;
    window.__bench.done = new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
    });
  }, { capture: true });
  document.documentElement.addEventListener('click', () => {
    window.__bench.script = performance.now() - window.__bench.clickStart;
  });
});

// Picks a visible frame by a rule and returns the centre of its rect on screen.
async function target(rule) {
  return page.evaluate((r) => {
    // the frames shown: those of P-frames, or the copies in the zoom layer (P-zoom) while
    // the script hides P-frames under it
    const frames = document.querySelector('svg[id$="-frames"]');
    const total = +frames.getAttribute('total_samples');
    const cands = [];
    for (const g of document.querySelectorAll('svg[id$="-frames"] > *, svg[id$="-zoom"] > *')) {
      if (g.classList.contains('parent') || !g.checkVisibility({ opacityProperty: true })) continue;
      const rect = g.querySelector('rect');
      const b = rect.getBoundingClientRect();
      if (b.width < 4 || b.top < 0 || b.bottom > innerHeight) continue;
      cands.push({ w: +rect.getAttribute('fg:w'), y: +rect.getAttribute('y'), x: b.left + b.width / 2, cy: b.top + b.height / 2, total });
    }
    let pick;
    const rowsTop = [...new Set(cands.map((c) => c.y))].sort((a, b) => b - a);
    if (r === 'big') {
      // the widest frame two rows above the root (a "thread": hundreds of frames stay)
      pick = cands.filter((c) => c.y === rowsTop[2]).sort((a, b) => b.w - a.w)[0];
    } else if (r === 'main') {
      // the only child of the root: every frame stays visible and is rescaled
      pick = cands.filter((c) => c.y === rowsTop[1]).sort((a, b) => b.w - a.w)[0];
    } else if (r === 'deep') {
      // a frame at mid depth: most of the graph is hidden
      const ys = [...new Set(cands.map((c) => c.y))].sort((a, b) => b - a);
      const row = ys[Math.floor(ys.length / 2)];
      pick = cands.filter((c) => c.y === row).sort((a, b) => b.w - a.w)[0];
    }
    return pick ? { x: pick.x, y: pick.cy } : null;
  }, rule);
}

async function clickAndTime(point) {
  await page.evaluate(() => { window.__bench.events = []; });
  await page.mouse.click(point.x, point.y);
  const frame = await page.evaluate(() => window.__bench.done);
  await page.waitForTimeout(50);
  return page.evaluate((f) => ({ frame: f, script: window.__bench.script, event: window.__bench.events[0] ?? null }), frame);
}

async function reset() {
  await page.evaluate(() => window.__bench.resetStart = performance.now());
  const t = await page.evaluate(async () => {
    const start = performance.now();
    document.documentElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    const script = performance.now() - start;
    const frame = await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0)));
    return { script, frame, event: null };
  });
  await page.waitForTimeout(50);
  return t;
}

const results = {
  'zoom to a thread (depth 2)': [],
  'zoom to a mid-depth frame': [],
  'reset (Esc) to the full graph': [],
  'zoom to main (all stay visible)': [],
};
for (let r = 0; r < runs; r++) {
  const big = await target('big');
  results['zoom to a thread (depth 2)'].push(await clickAndTime(big));
  const deep = await target('deep');
  if (deep) results['zoom to a mid-depth frame'].push(await clickAndTime(deep));
  results['reset (Esc) to the full graph'].push(await reset());
  results['zoom to main (all stay visible)'].push(await clickAndTime(await target('main')));
  await reset();
}
await browser.close();
if (!keep) fs.rmSync(dir, { recursive: true, force: true });

const f = (v) => (v == null ? '   n/a' : v.toFixed(1).padStart(6));
console.log(`frames: ${count} in the SVG (${frames} generated), SVG ${(size / 1e6).toFixed(1)} MB, rendered in ${renderMs} ms, page load + script init ${loadMs} ms`);
console.log(`load: parsed at ${nav.parsed.toFixed(0)} ms, load event at ${nav.load.toFixed(0)} ms, script ready by ${nav.ready.toFixed(0)} ms (polled)`);
console.log(`runs: ${runs}; times in ms, median / max`);
console.log('case                              script            frame             event');
let worst = 0;
for (const [name, rs] of Object.entries(results)) {
  const col = (k) => {
    const xs = rs.map((x) => x[k]).filter((x) => x != null);
    return xs.length ? `${f(median(xs))} / ${f(Math.max(...xs))}` : '   n/a /    n/a';
  };
  if (name.startsWith('zoom to a')) worst = Math.max(worst, median(rs.map((x) => x.frame)));
  console.log(`${name.padEnd(32)}  ${col('script')}   ${col('frame')}   ${col('event')}`);
}
console.log(`zoom repaint (median click-to-frame, worse of the thread and mid-depth cases): ${worst.toFixed(1)} ms ${worst < 100 ? '< 100 ms: OK' : '>= 100 ms: TOO SLOW'}`);
if (errors.length) {
  console.log(`script errors: ${errors.join('; ')}`);
  process.exitCode = 1;
}
