/* The frames a view draws (graph()'s scope, only with the views; see views/stacks.js). */

/* The most frames a view draws. A page lays out and paints every element it is given, some
 * 30 us a frame, and a view must open in well under 200 ms even when it holds most of a
 * graph of 50k frames; the narrowest go first, as --minwidth would prune them (a frame is
 * never wider than its parent, so what stays is a tree). */
var VIEW_FRAMES = 2000;

/* The frames of merged tree M: children in name order (RANK), frames narrower than MINWIDTH
 * percent of the root left out with what they hold (the writer's --minwidth rule), and the
 * narrowest beyond VIEW_FRAMES; OUT.dropped says how many of the latter. */
function layoutFrames(m, rank, minwidth) {
    var n = m.n;
    /* the children of node i: kids[first[i] .. first[i + 1]) */
    var first = new Int32Array(n + 1);
    var c;
    for (c = 1; c < n; c++) {
        first[m.parent[c] + 1]++;
    }
    for (c = 0; c < n; c++) {
        first[c + 1] += first[c];
    }
    var kids = new Int32Array(Math.max(n - 1, 1));
    var fill = first.slice(0, n);
    for (c = 1; c < n; c++) {
        kids[fill[m.parent[c]]++] = c;
    }
    var limit = (minwidth / 100) * m.value[0];
    var wide = 0;
    for (c = 0; c < n; c++) {
        wide += m.value[c] >= limit;
    }
    /* When VIEW_FRAMES cuts: the frames wider than OVER are drawn, and TIES of those as wide
     * as it, the first in the order drawn (a frame comes before what it holds). */
    var over = -1;
    var ties = 0;
    if (wide > VIEW_FRAMES) {
        var sorted = m.value.slice(0, n).sort();
        over = sorted[n - 1 - VIEW_FRAMES];
        ties = VIEW_FRAMES;
        for (c = n - 1; c >= 0 && sorted[c] > over; c--) {
            ties--;
        }
    }
    var at = new Float64Array(n);
    var depth = new Int32Array(n);
    var out = { x: [], w: [], d: [], name: [], depth: 0, dropped: 0 };
    var key = function (a) {
        return rank ? rank[m.name[a]] : m.name[a];
    };
    var todo = [0];
    while (todo.length) {
        var i = todo.pop();
        if (i && (m.value[i] < limit || m.value[i] < over || (m.value[i] === over && ties-- <= 0))) {
            continue;
        }
        out.x.push(at[i]);
        out.w.push(m.value[i]);
        out.d.push(depth[i]);
        out.name.push(m.name[i]);
        if (depth[i] > out.depth) {
            out.depth = depth[i];
        }
        if (first[i + 1] === first[i]) {
            continue;
        }
        /* the children in name order: an insertion sort in place (a node has few) */
        var lo = first[i];
        var hi = first[i + 1];
        var k;
        for (k = lo + 1; k < hi; k++) {
            var kid = kids[k];
            var kk = key(kid);
            var j = k - 1;
            while (j >= lo && key(kids[j]) > kk) {
                kids[j + 1] = kids[j];
                j--;
            }
            kids[j + 1] = kid;
        }
        var x = at[i];
        for (k = lo; k < hi; k++) {
            at[kids[k]] = x;
            depth[kids[k]] = depth[i] + 1;
            x += m.value[kids[k]];
        }
        for (k = hi - 1; k >= lo; k--) {
            todo.push(kids[k]);
        }
    }
    out.dropped = wide - out.x.length;
    return out;
}
