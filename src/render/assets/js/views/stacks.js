/* The views: the callers and callees of one function ("sandwich"), in graph()'s scope
 * (graph.js; only with the views). For a function F, the callees graph merges every stack that holds F from F's outermost
 * occurrence on (so each stack counts once: its root is F, its width F's inclusive time),
 * and the callers graph merges the same stacks from that occurrence back to the root, drawn
 * inverted with F at the top. Each is a flame graph of its own, driven by this same script
 * (graph(), run again on an <svg> that drawView() in views/draw.js fills from the numbers, with no second
 * renderer and nothing read back from the DOM).
 *
 * The stacks are a tree T in pre-order: node 0 is the root (no function), T.parent[i] < i,
 * T.name[i] an index into T.names, T.self[i] the count of the stacks that end at node i;
 * T.rank orders the names (null: the names are sorted already). They come from the report's
 * data (stacksOfData: the profile's prefix tree, embedded once in the page) or, in an SVG on
 * its own, from its frames (stacksOfFrames in views/panel.js: what the writer pruned is
 * missing). The merging is views/sandwich.js, the frames of a merged tree views/layout.js. */

/* The tree of the report's data: {names, colors ("rrggbb" per name), nodes: [depth, name,
 * count, ...] in pre-order, depth 1 for the root's children}. Null when it is malformed. */
function stacksOfData(data) {
    var nodes = data && data.nodes;
    if (!nodes || !data.names || nodes.length % 3) {
        return null;
    }
    var n = nodes.length / 3 + 1;
    var parent = new Int32Array(n);
    var name = new Int32Array(n);
    var self = new Float64Array(n);
    var last = [0];                /* the latest node at each depth */
    parent[0] = -1;
    name[0] = -1;
    for (var i = 1, k = 0; i < n; i++, k += 3) {
        var d = nodes[k];
        if (!(d >= 1 && d <= last.length)) {
            return null;
        }
        parent[i] = last[d - 1];
        last[d] = i;
        last.length = d + 1;
        name[i] = nodes[k + 1];
        self[i] = nodes[k + 2];
    }
    var hex = String(data.colors || "");
    return {
        n: n, parent: parent, name: name, self: self, names: data.names, rank: null,
        color: function (f) {
            var c = hex.substr(6 * f, 6);
            return c.length === 6 ? "rgb(" + parseInt(c.substr(0, 2), 16) + "," + parseInt(c.substr(2, 2), 16) +
                "," + parseInt(c.substr(4, 2), 16) + ")" : "rgb(200,200,200)";
        }
    };
}

/* The index of the function named NAME in T, or -1. */
function functionIndex(t, name) {
    if (!t.index) {
        t.index = new Map();
        for (var i = 0; i < t.names.length; i++) {
            if (!t.index.has(t.names[i])) {
                t.index.set(t.names[i], i);
            }
        }
    }
    var f = t.index.get(name);
    return f === undefined ? -1 : f;
}
