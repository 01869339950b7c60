// Load and zoom timing of the SVG script on a ~50k-frame flame graph, in headless Chromium.
//
//   node bench/zoom_bench.mjs [--frames 50000] [--loads 5] [--runs 2] [--keep DIR]
//                             [--baseline FILE.svg|BINARY] [--trace]
//
// Renders a generated folded profile (bench/graph50k.mjs) with foldsvg (FOLDSVG_BIN, default
// build/foldsvg) and opens the SVG in the system Chromium LOADS times, each time in a new
// page. Each load is timed, then RUNS rounds of clicks on frames with real (trusted) mouse
// events. For each click it records
//   script: the click handler's own time (zoom logic and DOM writes),
//   frame:  click to the end of the next rendered frame (style, layout, paint), measured as
//           a requestAnimationFrame followed by a task,
//   event:  the Event Timing API's duration of the click (input to next presentation),
// and prints the median and maximum of each. A load is timed from the navigation's start to
// the end of the first frame painted once the script is ready (root.foldsvg set: labels
// fitted, layers in place), with where it went: the document parsed (DOMContentLoaded), the
// load event, the script ready. Frames are picked among those shown: the script may show a
// zoom as copies in its zoom layer (<svg id="P-zoom">) over the hidden P-frames.
//
// --baseline: the same measures of a second SVG of the same input, alternating with the
// first load by load (a drifting machine moves both), then the ratios of the medians
// (foldsvg / baseline). The baseline is an SVG file, or a foldsvg binary that renders the
// same folded file (e.g. a build of main). --trace: one more load of each SVG under Chromium's
// tracing, and the main thread's time in parsing, style, layout, paint and script.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { launchBrowser, makeTmpDir, renderSvg } from '../tests/browser/helpers.mjs';
import { generate } from './graph50k.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const targetFrames = +opt('frames', 50000);
const loads = +opt('loads', 5);
const runs = +opt('runs', 2);
const keep = opt('keep', null);
const baseline = opt('baseline', null);
const trace = args.includes('--trace');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = keep || makeTmpDir('foldsvg-bench-');
fs.mkdirSync(dir, { recursive: true });
const { text, frames } = generate(targetFrames);
const t0 = Date.now();
const svgs = [{ name: 'foldsvg', file: await renderSvg(dir, 'zoom50k', text) }];
const renderMs = Date.now() - t0;
if (baseline) {
  let file = baseline;
  if (!baseline.endsWith('.svg')) {
    file = path.join(dir, 'zoom50k-baseline.svg');
    execFileSync(path.resolve(baseline), [path.join(dir, 'zoom50k.folded'), '-o', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  svgs.push({ name: 'baseline', file });
}
for (const s of svgs) {
  const body = fs.readFileSync(s.file, 'utf8');
  s.size = body.length;
  const at = body.indexOf('-frames"');
  s.frameBytes = at < 0 ? 0 : body.length - at;
}

const CASES = {
  big: 'zoom to a thread (depth 2)',
  deep: 'zoom to a mid-depth frame',
  reset: 'reset (Esc) to the full graph',
  main: 'zoom to main (all stay visible)',
};

// Until the script is ready (root.foldsvg set), then a task after the next frame: the time
// the first frame of the graph as the script draws it is done, from the navigation's start.
const readyProbe = () => {
  const poll = () => {
    const r = document.documentElement;
    if (r && r.foldsvg) {
      window.__fsReady = performance.now();
      setTimeout(() => { window.__fsPainted = performance.now(); }, 0);
    } else {
      requestAnimationFrame(poll);
    }
  };
  requestAnimationFrame(poll);
};

// One load of FILE in a new page, then RUNS rounds of clicks: { load, clicks, count, errors }.
async function measure(browser, file, rounds) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.addInitScript(readyProbe);
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => window.__fsPainted, null, { timeout: 120000 });
  const load = await page.evaluate(() => {
    const e = performance.getEntriesByType('navigation')[0];
    return { parsed: e.domContentLoadedEventStart, load: e.loadEventStart, ready: window.__fsReady, painted: window.__fsPainted };
  });
  const count = await page.evaluate(() => document.documentElement.foldsvg.frames);

  // the in-page instruments: event timing of clicks, and a click-to-frame timer
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

  // a visible frame picked by a rule: the centre of its rect on screen
  const target = (rule) => page.evaluate((r) => {
    const cands = [];
    for (const g of document.querySelectorAll('svg[id$="-frames"] > *, svg[id$="-zoom"] > *')) {
      if (g.classList.contains('parent') || !g.checkVisibility({ opacityProperty: true })) continue;
      const rect = g.querySelector('rect');
      const b = rect.getBoundingClientRect();
      if (b.width < 4 || b.top < 0 || b.bottom > innerHeight) continue;
      cands.push({ w: +rect.getAttribute('fg:w'), y: +rect.getAttribute('y'), x: b.left + b.width / 2, cy: b.top + b.height / 2 });
    }
    const rows = [...new Set(cands.map((c) => c.y))].sort((a, b) => b - a);
    // big: the widest frame two rows above the root (a "thread": hundreds of frames stay);
    // main: the only child of the root (every frame stays visible and is rescaled);
    // deep: a frame at mid depth (most of the graph is hidden)
    const row = { big: rows[2], main: rows[1], deep: rows[Math.floor(rows.length / 2)] }[r];
    const pick = cands.filter((c) => c.y === row).sort((a, b) => b.w - a.w)[0];
    return pick ? { x: pick.x, y: pick.cy } : null;
  }, rule);

  const click = async (point) => {
    await page.evaluate(() => { window.__bench.events = []; });
    await page.mouse.click(point.x, point.y);
    const frame = await page.evaluate(() => window.__bench.done);
    await page.waitForTimeout(50);
    return page.evaluate((f) => ({ frame: f, script: window.__bench.script, event: window.__bench.events[0] ?? null }), frame);
  };
  const reset = async () => {
    const t = await page.evaluate(async () => {
      const start = performance.now();
      document.documentElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      const script = performance.now() - start;
      const frame = await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0)));
      return { script, frame, event: null };
    });
    await page.waitForTimeout(50);
    return t;
  };

  const clicks = { big: [], deep: [], reset: [], main: [] };
  for (let r = 0; r < rounds; r++) {
    clicks.big.push(await click(await target('big')));
    const deep = await target('deep');
    if (deep) clicks.deep.push(await click(deep));
    clicks.reset.push(await reset());
    clicks.main.push(await click(await target('main')));
    await reset();
  }
  await page.close();
  return { load, clicks, count, errors };
}

// One traced load of FILE: the renderer main thread's time by kind of work, in ms.
async function traced(browser, file) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.addInitScript(readyProbe);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.on('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,loading', transferMode: 'ReportEvents' });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => window.__fsPainted, null, { timeout: 120000 });
  await cdp.send('Tracing.end');
  await done;
  await page.close();
  const main = new Set();
  for (const e of events) if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  // the outermost events of each kind (nested ones of the same kind are not counted twice)
  // (an SVG document is parsed by the XML parser: its chunks are AppendBytes, not ParseHTML;
  // a kind's time includes what runs inside it, e.g. the script's part of the parse)
  const kinds = { ParseHTML: 'parse', 'DecodedDataDocumentParser::AppendBytes': 'parse', UpdateLayoutTree: 'style', Layout: 'layout', Paint: 'paint', PrePaint: 'paint', FunctionCall: 'script', EvaluateScript: 'script', EventDispatch: 'script' };
  const sums = { parse: 0, style: 0, layout: 0, paint: 0, script: 0 };
  const open = [];
  const xs = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur && kinds[e.name]).sort((a, b) => a.ts - b.ts);
  for (const e of xs) {
    while (open.length && open[open.length - 1].end <= e.ts) open.pop();
    if (!open.some((o) => kinds[o.name] === kinds[e.name])) sums[kinds[e.name]] += e.dur / 1000;
    open.push({ name: e.name, end: e.ts + e.dur });
  }
  return sums;
}

const browser = await launchBrowser();
const results = svgs.map(() => []);
for (let l = 0; l < loads; l++) {
  // alternating, the first of each pair switching: ABBA...
  const order = svgs.map((_, i) => i);
  if (l % 2) order.reverse();
  for (const i of order) results[i].push(await measure(browser, svgs[i].file, runs));
}
const traces = trace ? [] : null;
for (const s of trace ? svgs : []) traces.push(await traced(browser, s.file));
await browser.close();
if (!keep) fs.rmSync(dir, { recursive: true, force: true });

const f = (v) => (v == null ? '   n/a' : v.toFixed(1).padStart(6));
const summary = svgs.map((s, i) => {
  const rs = results[i];
  const load = {};
  for (const k of ['parsed', 'load', 'ready', 'painted']) load[k] = median(rs.map((r) => r.load[k]));
  const clicks = {};
  for (const c of Object.keys(CASES)) {
    clicks[c] = {};
    for (const k of ['script', 'frame', 'event']) {
      const xs = rs.flatMap((r) => r.clicks[c].map((x) => x[k])).filter((x) => x != null);
      clicks[c][k] = { median: median(xs), max: xs.length ? Math.max(...xs) : null };
    }
  }
  // the zoom's script time: the three zoom cases' medians, summed
  const zoom = ['big', 'deep', 'main'].reduce((sum, c) => sum + clicks[c].script.median, 0);
  return { load, clicks, zoom, count: rs[0].count, errors: rs.flatMap((r) => r.errors) };
});

console.log(`frames: ${summary[0].count} in the SVG (${frames} generated), rendered in ${renderMs} ms; ${loads} loads of each SVG, ${runs} rounds of clicks a load`);
let failed = false;
svgs.forEach((s, i) => {
  const m = summary[i];
  console.log(`\n${s.name}: ${path.basename(s.file)}, ${(s.size / 1e6).toFixed(2)} MB, ${(s.frameBytes / m.count).toFixed(1)} bytes a frame`);
  console.log(`load (medians, ms from the navigation's start): parsed ${m.load.parsed.toFixed(0)}, load event ${m.load.load.toFixed(0)}, script ready ${m.load.ready.toFixed(0)}, first frame painted ${m.load.painted.toFixed(0)}`);
  if (traces) {
    const t = traces[i];
    console.log(`load traced (main thread, ms): ${Object.entries(t).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  }
  console.log('case                              script            frame             event    (ms, median / max)');
  let worst = 0;
  for (const [c, label] of Object.entries(CASES)) {
    const col = (k) => `${f(m.clicks[c][k].median)} / ${f(m.clicks[c][k].max)}`;
    if (c === 'big' || c === 'deep') worst = Math.max(worst, m.clicks[c].frame.median);
    console.log(`${label.padEnd(32)}  ${col('script')}   ${col('frame')}   ${col('event')}`);
  }
  console.log(`zoom repaint (median click-to-frame, worse of the thread and mid-depth cases): ${worst.toFixed(1)} ms ${worst < 100 ? '< 100 ms: OK' : '>= 100 ms: TOO SLOW'}`);
  if (m.errors.length) {
    console.log(`script errors: ${m.errors.join('; ')}`);
    failed = true;
  }
});
if (svgs.length === 2) {
  const [a, b] = summary;
  const r = (x, y) => (x != null && y ? (x / y).toFixed(2) + 'x' : 'n/a');
  console.log('\nratios foldsvg / baseline (medians):');
  console.log(`  bytes ${r(svgs[0].size, svgs[1].size)}, bytes a frame ${r(svgs[0].frameBytes / a.count, svgs[1].frameBytes / b.count)}`);
  console.log(`  load + first paint ${r(a.load.painted, b.load.painted)} (${a.load.painted.toFixed(0)} / ${b.load.painted.toFixed(0)} ms); parsed ${r(a.load.parsed, b.load.parsed)}, script ready ${r(a.load.ready, b.load.ready)}`);
  console.log(`  zoom, script time a click ${r(a.zoom, b.zoom)} (${a.zoom.toFixed(1)} / ${b.zoom.toFixed(1)} ms: the three zoom cases' medians summed)`);
  for (const [c, label] of Object.entries(CASES)) {
    console.log(`  ${label.padEnd(32)} script ${r(a.clicks[c].script.median, b.clicks[c].script.median)}, frame ${r(a.clicks[c].frame.median, b.clicks[c].frame.median)}`);
  }
  if (a.count !== b.count) {
    console.log(`frame counts differ: ${a.count} and ${b.count} (not the same input?)`);
    failed = true;
  }
}
if (failed) process.exitCode = 1;
