/* The frames, in start()'s scope (graph.js): the UI texts by id, P-frames put in its layer,
 * and what each frame is: its element, rect, label and title, x, width and depth (the row,
 * counted from the root's), its name and tooltip (read when first needed). */
var ui = {};
var bg = null;
for (var c = root.firstElementChild; c; c = c.nextElementSibling) {
    var id = c.getAttribute("id");
    if (id && id.lastIndexOf(P + "-", 0) === 0) {
        ui[id.slice(P.length + 1)] = c;
    }
    if (!bg && c.localName === "rect") {
        bg = c;
    }
}
if (!layers && ui.frames) {
    wrapFrames(ui.frames);
}
if (!layers) {
    return;
}
var framesEl = layers.frames;
var zoomEl = layers.zoom;
if (ui.bg) {
    bg = ui.bg;
}

/* At the start only what a zoom needs is read (fg:x, fg:w, y); names, tooltips, labels,
 * fills are read from the DOM when first needed: with tens of thousands of frames every
 * attribute read at the start costs. */
var els = [];
var rects = [];
var texts = [];
var titles = [];
var xs = [];
var ws = [];
var ys = [];
for (var g = framesEl.firstElementChild; g; g = g.nextElementSibling) {
    var parts = framePartsOf(g);
    if (!parts.rect) {
        continue;
    }
    els.push(g);
    rects.push(parts.rect);
    texts.push(parts.text);
    titles.push(parts.title);
    if (given) {
        /* frames drawn by the views (drawView): their numbers are known */
        var k = els.length - 1;
        xs.push(given.x[k]);
        ws.push(given.w[k]);
        ys.push(given.y[k]);
    } else {
        xs.push(+parts.rect.getAttribute("fg:x") || 0);
        ws.push(+parts.rect.getAttribute("fg:w") || 0);
        ys.push(+parts.rect.getAttribute("y") || 0);
    }
}
var n = els.length;
var X = new Float64Array(xs);
var Wd = new Float64Array(ws);
var D = new Int32Array(n);
var total = 0;
var rootIndex = -1;
for (var i = 0; i < n; i++) {
    if (Wd[i] > total) {
        total = Wd[i];
    }
}
if (!(total > 0)) {
    total = +settings.total || +framesEl.getAttribute("total_samples") || 1;
}
/* depth = rank of the row: rows count from the bottom, or from the top when inverted */
var rows = Array.from(new Set(ys)).sort(function (a, b) {
    return settings.inverted ? a - b : b - a;
});
var rowOf = new Map();
rows.forEach(function (y, k) {
    rowOf.set(y, k);
});
var index = new Map();
for (i = 0; i < n; i++) {
    D[i] = rowOf.get(ys[i]);
    index.set(els[i], i);
    if (D[i] === 0 && rootIndex < 0) {
        rootIndex = i;
    }
}

var tips = given ? given.tips : new Array(n);
var names = given ? given.names : new Array(n);
var titleRe = /^([\s\S]*) \([0-9][0-9,]* [^,()]*, [0-9.]+%(?:; [^)]*)?\)$/;
function tipOf(i) {
    if (tips[i] === undefined) {
        tips[i] = titles[i] ? titles[i].textContent : "";
    }
    return tips[i];
}
function nameOf(i) {
    if (names[i] === undefined) {
        var tip = tipOf(i);
        var m = titleRe.exec(tip);
        names[i] = m ? m[1] : tip;
    }
    return names[i];
}
