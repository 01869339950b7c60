/* The views of this graph, in start()'s scope (graph.js; only with the views): the callers and
 * callees of one function drawn below the graph (showViews), or into a page's hosts
 * (sandwichViews: the report's, from its stacks). How they are computed: views/stacks.js. */
/* The stacks of this graph's own frames (the view of an SVG on its own), made once:
 * frames in order of x, then depth, are a pre-order of the call tree; a frame's self
 * count is its width minus its children's. */
var frameStacks = null;
function stacksOfFrames() {
    if (frameStacks) {
        return frameStacks;
    }
    var order = new Array(n);
    for (var i = 0; i < n; i++) {
        order[i] = i;
    }
    order.sort(function (a, b) {
        return X[a] - X[b] || D[a] - D[b];
    });
    var parent = new Int32Array(n);
    var name = new Int32Array(n);
    var self = new Float64Array(n);
    var fnames = [];
    var fills = [];
    var seen = new Map();
    var open = [];             /* the node of each depth on the current path */
    for (var k = 0; k < n; k++) {
        i = order[k];
        var d = D[i];
        open[d] = k;
        parent[k] = d > 0 ? open[d - 1] : -1;
        self[k] += Wd[i];
        if (d > 0) {
            self[parent[k]] -= Wd[i];
        }
        if (k === 0) {
            name[k] = -1;
            continue;
        }
        var nm = nameOf(i);
        var f = seen.get(nm);
        if (f === undefined) {
            f = fnames.length;
            seen.set(nm, f);
            fnames.push(nm);
            fills.push(origFill[i] !== undefined ? origFill[i] : rects[i].getAttribute("fill"));
        }
        name[k] = f;
    }
    var byName = fnames.map(function (s, j) {
        return j;
    }).sort(function (a, b) {
        return fnames[a] < fnames[b] ? -1 : fnames[a] > fnames[b] ? 1 : 0;
    });
    var rank = new Int32Array(fnames.length);
    byName.forEach(function (f2, r) {
        rank[f2] = r;
    });
    frameStacks = {
        n: n, parent: parent, name: name, self: self, names: fnames, rank: rank, index: seen,
        color: function (f3) {
            return fills[f3] || "rgb(200,200,200)";
        }
    };
    return frameStacks;
}

var dataFor = null;
var dataStacks = null;

/* Draws the callees and callers graphs of the function NAME into OPT.callees and
 * OPT.callers (emptied first) from OPT.data (the report's stacks; else this graph's
 * frames): {name, callees, callers (their roots), total, self, of, dropped: the narrow
 * frames left out (VIEW_FRAMES)}, or null when no stack holds NAME. OPT.width,
 * OPT.fluid: as drawView's; OPT.hostWidth: the hosts' width when the caller knows it
 * (else it is measured, which lays the page out). */
function sandwichViews(name, opt) {
    var t;
    if (opt.data) {
        if (dataFor !== opt.data) {
            dataFor = opt.data;
            dataStacks = stacksOfData(opt.data);
        }
        t = dataStacks;
    } else {
        t = stacksOfFrames();
    }
    var f = t ? functionIndex(t, String(name)) : -1;
    if (f < 0) {
        return null;
    }
    var s = sandwich(t, f);
    if (!(s.total > 0)) {
        return null;
    }
    var mw = settings.minwidth == null ? 0.01 : +settings.minwidth;
    var shown = name.length > 80 ? name.slice(0, 78) + ".." : name;
    var out = { name: name, total: s.total, self: s.self, of: s.of, dropped: 0 };
    /* one layout for both graphs: the width of their hosts */
    var hostWidth = !opt.fluid ? 0 : opt.hostWidth > 0 ? opt.hostWidth : opt.callees.getBoundingClientRect().width;
    [["callees", s.callees, false, "Callees of "], ["callers", s.callers, true, "Callers of "]].forEach(function (v) {
        var host = opt[v[0]];
        host.textContent = "";
        var frames = layoutFrames(v[1], t.rank, mw);
        out.dropped += frames.dropped;
        out[v[0]] = drawView(host, {
            id: P + "-" + v[0], title: v[3] + shown, inverted: v[2], frames: frames,
            t: t, of: s.of, width: opt.width, fluid: opt.fluid, meter: meter, hostWidth: hostWidth
        });
    });
    return out;
}

/* The views of an SVG on its own (or inline in a page of the user's): drawn below the
 * graph in the same SVG, which grows to hold them; Close or Escape takes them away. */
var baseHeight = height;
var viewsEl = null;
var viewsName = null;
function showViews(name) {
    if (!stacksOfFrames() || functionIndex(frameStacks, String(name)) < 0) {
        return null;
    }
    hideViews(true);
    var head = 3 * fontsize;
    var g = svgEl("g", { class: "fs-views", "data-fn": name });
    var ui = uiFill();
    var label = svgEl("text", { id: P + "-views-title", fill: ui, x: xpad, y: baseHeight + 2 * fontsize });
    var shut = svgEl("text", { id: P + "-views-close", class: "fs-close", fill: ui, x: W - xpad,
        y: baseHeight + 2 * fontsize, tabindex: "0", role: "button" }, "Close");
    var a = svgEl("g", { "data-view": "callees" });
    var b = svgEl("g", { "data-view": "callers" });
    g.appendChild(label);
    g.appendChild(shut);
    g.appendChild(a);
    g.appendChild(b);
    root.appendChild(g);
    viewsEl = g;
    viewsName = String(name);
    var v = sandwichViews(viewsName, { callees: a, callers: b, width: W, fluid: false });
    if (!v) {
        root.removeChild(g);
        viewsEl = viewsName = null;
        setHeight(baseHeight);
        return null;
    }
    var y = baseHeight + head;
    v.callees.setAttribute("y", String(y));
    y += +v.callees.getAttribute("height");
    v.callers.setAttribute("y", String(y));
    y += +v.callers.getAttribute("height");
    label.textContent = "Callers and callees of " + (name.length > 60 ? name.slice(0, 58) + ".." : name) + ": " +
        viewFacts(v, factor, countname);
    [v.callees, v.callers].forEach(function (sub) {
        if (sub.foldsvg) {
            sub.foldsvg.onviews = showViews;
        }
    });
    button(shut, function () {
        hideViews(false);
    });
    setHeight(y);
    shut.focus();
    saveState();
    return v;
}

function hideViews(replacing) {
    if (!viewsEl) {
        return;
    }
    var had = viewsEl.contains(document.activeElement);
    root.removeChild(viewsEl);
    viewsEl = null;
    viewsName = null;
    if (!replacing) {
        setHeight(baseHeight);
        if (had && stopEl) {
            stopEl.focus({ preventScroll: true });
        }
        saveState();
    }
}

function uiFill() {
    return ui.title ? ui.title.getAttribute("fill") : null;
}

function setHeight(h) {
    height = h;
    root.setAttribute("height", String(h));
    var vb = (root.getAttribute("viewBox") || "").split(/[\s,]+/);
    root.setAttribute("viewBox", "0 0 " + (fluid ? fmt(W) : vb[2] || String(staticWidth)) + " " + h);
}
