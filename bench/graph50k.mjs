// The flame graph of the browser benchmarks (zoom_bench.mjs, views_bench.mjs).
//
// A deterministic random profile of about N frames that all survive the default pruning
// (--minwidth 0.01%): 100 "threads" below main of varied weight, each a call tree about 40
// deep and up to 30 frames wide per row, so that every row holds frames of a usable width
// and zooming into a wide subtree keeps thousands of frames on screen.
export function generate(n) {
  let seed = 0x2545f491;
  const rnd = () => {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed / 4294967296;
  };
  const modules = ['parse', 'render', 'io', 'alloc', 'hash', 'sort', 'xml', 'net', 'gc', 'json'];
  const lines = [];
  let made = 2; // "all" and "main"
  const threads = 100;
  const perThread = Math.floor((n - 2) / threads) - 1;
  const avg = 100000;
  const floor = Math.ceil((threads * avg) / 9000); // above 0.01% of the total
  for (let t = 0; t < threads; t++) {
    const root = { path: `main;thread_${t}`, w: Math.floor(avg * (0.5 + rnd())), kids: [] };
    made++;
    let row = [root];
    let budget = perThread;
    while (row.length && budget > 0) {
      const next = [];
      for (const node of row) {
        const want = next.length < 30 && node.w > 3 * floor && rnd() < 0.35 ? 2 : 1;
        const inner = Math.floor(node.w * (0.99 + 0.01 * rnd()));
        const parts = want === 2 ? [Math.floor(inner * (0.35 + 0.3 * rnd()))] : [];
        parts.push(inner - (parts[0] || 0));
        for (const w of parts) {
          if (w < floor || budget <= 0) continue;
          const m = modules[Math.floor(rnd() * modules.length)];
          const kid = { path: `${node.path};${m}::${m}_worker_${made.toString(36)}`, w, kids: [] };
          node.kids.push(kid);
          next.push(kid);
          made++;
          budget--;
        }
      }
      row = next;
    }
    // write the tree: each node's self weight is its weight minus its children's
    const stack = [root];
    while (stack.length) {
      const node = stack.pop();
      const self = node.w - node.kids.reduce((s, c) => s + c.w, 0);
      if (self > 0) lines.push(`${node.path} ${self}`);
      for (const c of node.kids) stack.push(c);
    }
  }
  return { text: lines.join('\n') + '\n', frames: made };
}
