/*
 * foldsvg flame graph script: hover details, click-to-zoom, regex search, URL state, fluid
 * width, dark mode (settings.theme: the system's, light or dark) and keyboard use, scoped to
 * the one <svg> it sits in.
 *
 * This file is the body of a function. src/render/script.c writes, inside the <script>'s CDATA:
 *     (function () {
 *     "use strict";
 *     var settings = {...};      <- the settings block (kept by --no-javascript)
 *     <this file>                <- omitted by --no-javascript
 *     })();
 * so nothing here is global. It must never contain the CDATA terminator (two closing square
 * brackets followed by a greater-than sign). Keep to ES2017: no modules, no top-level names.
 *
 * All of it is the function graph(settings, root, given), run at once for the SVG the script
 * sits in, and run again for each flame graph the views draw (the callers and callees of a
 * function, "sandwich": see drawView): GIVEN then holds the numbers of the frames drawn, so
 * that nothing is read back from the DOM. Shift+click (Shift+Enter) on a frame calls
 * root.foldsvg.onviews with its name: by default the views below the graph in this SVG; the
 * HTML report puts its own there (report.js) and draws them from its stacks through
 * root.foldsvg.sandwich.
 *
 * Contract with the SVG writer (see script.c and script.h): the <script> is a direct child of
 * the root <svg id="P-root">, P = settings.id; the UI texts P-title, P-details, P-unzoom,
 * P-search, P-matched, the background rect P-bg and the nested <svg id="P-frames"> are direct
 * children of the root; each child of P-frames is one frame (<g>, or <a> for --nameattr
 * links) holding <title>, <rect fg:x fg:w y height ...> and, when the writer labelled it,
 * <text> (the script makes the others' when it labels them: labelEl).
 *
 * Speed (a 50k-frame graph must zoom in well under 100 ms): in a browser, any change inside
 * one SVG makes it repaint every element of that SVG, and showing or hiding tens of thousands
 * of elements restyles each of them. So the script
 *   - moves P-frames, while it is being parsed and before anything is drawn, into a
 *     <foreignObject><div> of its own: an SVG of its own, painted (and cached) apart from
 *     the details line, Search, and so on, in a composited layer (will-change: opacity),
 *     not drawn (display:none) until the start has labelled its frames: the page would
 *     otherwise style, lay out and paint the frames parsed so far after each chunk the
 *     parser reads, and the start's measures would lay them all out;
 *   - adds a second such layer on top, the zoom layer <svg id="P-zoom">, empty at first;
 *   - zooms either in place (rewriting the frames of P-frames, when most of them stay in
 *     view, e.g. the full graph) or, when few stay, by hiding the whole of P-frames with
 *     opacity 0 (no restyle, no repaint, its frames untouched) and filling the zoom layer
 *     with copies of just the frames that stay. The hidden P-frames gets aria-hidden="true"
 *     and hands keyboard focus on to the zoom layer; a focused frame's focus moves to its
 *     copy once the zoom is painted (focusLater);
 *   - draws the hover and focus outlines as one rect of its own over the frames (the
 *     writer's :hover stroke on a frame is neutralised: restyling one frame repaints all the
 *     frames of its layer);
 *   - reads at the start only what a zoom needs (fg:x, fg:w, y), the rest when needed,
 *     writes an attribute only when its value changes (the frames' width written again, even
 *     the same, lays out every frame), and writes the URL state after the repaint.
 *
 * Labels: the writer's follow inferno's rule (0.59 em per character of the whole image
 * width), which spills out of frames in a browser. The script fits every label again at the
 * start, after each zoom, resize or font load, against the frame's own box (frame widths are
 * shares of P-frames: the image width minus both paddings) with the font measured in the
 * page (fontMeter). Long names are cut at the start ("..tail", as inferno's script does) or,
 * with --truncate-text-right, at the end; the root frame reads "all", as inferno's does once
 * its script has run.
 *
 * Keyboard (a "roving tabindex", as in ARIA trees and grids): the frames are one Tab stop.
 * Exactly one frame element has tabindex="0" (at first the root frame, then the frame last
 * focused; the others have none, links -1), so Tab goes from the controls (Reset Zoom, Search,
 * ic) into the graph and with the next Tab out of it, and the start writes one attribute,
 * not one per frame. On a frame, the arrow keys follow what is shown (hidden frames are
 * skipped; while zoomed the focus goes to the element drawn, copy or original): Up to the
 * child under the frame's middle (else the widest; one level towards the leaves, drawn below
 * in an inverted graph), Down to the parent, Left and Right to the neighbours in the same row;
 * Home to the root frame. Enter or Space zooms, Escape resets, Ctrl+F or F3 searches.
 */

(function graph(settings, root, given) {
var SVGNS = "http://www.w3.org/2000/svg";
var P = String(settings.id || "fg");
if (!root || root.getAttribute("id") !== P + "-root") {
    /* not in the SVG the writer made (or no currentScript): nothing of ours to drive */
    return;
}
var script = document.currentScript && document.currentScript.parentNode === root ? document.currentScript : null;

var fontsize = +settings.fontsize || 12;
var fontwidth = +settings.fontwidth || 0.59;
var xpad = settings.xpad == null ? 10 : +settings.xpad;
var searchcolor = settings.searchcolor || "rgb(230,0,230)";
var nametype = settings.nametype == null ? "Function:" : String(settings.nametype);
var countname = settings.countname == null ? "cycles" : String(settings.countname);
var factor = +settings.factor || 1;
var fluid = !!settings.fluid;
var truncateRight = !!settings.truncate_text_right;
var staticWidth = +root.getAttribute("width") || +settings.width || 1200;
var height = +root.getAttribute("height") || 0;
var standalone = root === document.documentElement;
/* --theme: dark styles when the system asks (auto), always (dark) or never (light) */
var darkMedia = settings.theme === "light" ? "" : settings.theme === "dark" ? "@media all" :
    "@media (prefers-color-scheme: dark)";

var HIDE = 0;
var SHOW = 1;
var PARENT = 2;
var XHTMLNS = "http://www.w3.org/1999/xhtml";

/* Our styles, in place before any frame is styled: a style sheet added later restyles every
 * frame of the page (a selector such as "#X-root text" makes the browser restyle each text
 * element). So they hold, from the start, the rules of the views this graph may draw
 * (P-callees, P-callers: ours, and the writer's made over for them); the views add none. */
function ourStyle(P) {
    var R = "#" + P + "-root";
    var FR = R + " #" + P + "-frames > *";
    var ZM = R + " #" + P + "-zoom > *";
    return (
        /* the layers take pointer events only on their frames, never over the UI texts */
        R + " .fs-layer, " + R + " .fs-layer > div, " + R + " #" + P + "-frames, " + R + " #" + P + "-zoom { pointer-events:none; }\n" +
        FR + ", " + ZM + " { pointer-events:visiblePainted; }\n" +
        /* The hover and focus outlines are one rect of ours over the frames: a style change on a
         * frame would repaint all the frames of its layer. */
        FR + ":hover, " + ZM + ":hover { stroke:inherit; stroke-width:inherit; cursor:pointer; }\n" +
        R + " > .fs-outline { fill:none; stroke:black; stroke-width:0.5; pointer-events:none; }\n" +
        R + " > .fs-outline.focus { stroke-width:1.5; }\n" +
        R + " #" + P + "-ignorecase { text-anchor:end; cursor:pointer; opacity:0.35; }\n" +
        R + " #" + P + "-ignorecase:hover, " + R + " #" + P + "-ignorecase.show { opacity:1; }\n" +
        R + " #" + P + "-search.show { opacity:1; }\n" +
        FR + ", " + ZM + ", " + R + " > text { outline:none; }\n" +
        R + " > text:focus-visible, " + R + " > .fs-views > text:focus-visible { text-decoration:underline; }\n" +
        R + " > .fs-views > .fs-close { text-anchor:end; cursor:pointer; }\n" +
        (darkMedia ? darkMedia + " {\n" +
        "  " + R + " { background-color:#1b1b1f; color-scheme:dark; }\n" +
        "  " + R + " > .fs-bg { fill:#1b1b1f; }\n" +
        "  " + R + " > text, " + R + " > .fs-views > text { fill:#e6e6e6; }\n" +
        "  " + R + " > .fs-outline { stroke:#ffffff; }\n" +
        "}\n" : ""));
}

var style = document.createElementNS(SVGNS, "style");
style.setAttribute("id", P + "-jsstyle");
/* each copy of the SVG on a page has its own (the same ids: its rules match every copy) */
if (!given && !(script && script.previousElementSibling &&
                script.previousElementSibling.getAttribute("id") === P + "-jsstyle")) {
    var writer = writerStyle();
    style.textContent = ourStyle(P) + ["-callees", "-callers"].map(function (v) {
        return ourStyle(P + v) + writer.split("#" + P + "-").join("#" + P + v + "-");
    }).join("");
    root.insertBefore(style, script || root.firstChild);
}

/* ---- layers: P-frames in a <foreignObject><div> of its own, and the zoom layer ------------ */
var layers = null;

function makeLayer(svg, x, y, w, h, composited) {
    var fo = document.createElementNS(SVGNS, "foreignObject");
    fo.setAttribute("class", "fs-layer");
    fo.setAttribute("x", x);
    fo.setAttribute("y", y);
    fo.setAttribute("width", w);
    fo.setAttribute("height", String(h));
    /* inline styles, so that the page's styles for div and svg (resets: svg { height:auto })
     * leave the layers alone; no kerning nor ligatures in labels, inherited (no selector to
     * match against each label): a label is as wide as the sum of its characters (fontMeter) */
    var div = document.createElementNS(XHTMLNS, "div");
    div.setAttribute("style", "display:block;position:static;float:none;margin:0;padding:0;border:0;" +
        "background:none;box-sizing:border-box;width:100%;height:100%;font-kerning:none;" +
        "font-variant-ligatures:none" + (composited ? ";will-change:opacity" : ""));
    svg.setAttribute("height", String(h));
    svg.setAttribute("tabindex", "-1"); /* as an <svg> of its own it would take the focus */
    svg.setAttribute("style", "display:block;margin:0;padding:0;border:0;max-width:none;max-height:none;" +
        "width:" + w + "px;height:" + h + "px");
    fo.appendChild(div);
    return { fo: fo, div: div };
}

/* The font probe: a <text> where a label would be (a layer like the frames' one, holding
 * <svg><g><text>), styled and scaled as the labels are, never seen. */
function makeProbe(x, y, w) {
    var svg = document.createElementNS(SVGNS, "svg");
    var g = document.createElementNS(SVGNS, "g");
    var text = document.createElementNS(SVGNS, "text");
    text.setAttribute("x", "0");
    text.setAttribute("y", String(2 * fontsize));
    g.appendChild(text);
    svg.appendChild(g);
    var layer = makeLayer(svg, x, y, w, 3 * fontsize, false);
    layer.fo.setAttribute("class", "fs-layer fs-probe");
    layer.fo.setAttribute("aria-hidden", "true");
    layer.fo.style.visibility = "hidden";
    layer.div.appendChild(svg);
    return { fo: layer.fo, text: text };
}

function wrapFrames(framesEl) {
    if (layers || framesEl.parentNode !== root) {
        return;
    }
    var x = framesEl.getAttribute("x") || String(xpad);
    var y = framesEl.getAttribute("y") || "0";
    var w = framesEl.getAttribute("width") || String(Math.max(staticWidth - 2 * xpad, 1));
    var base = makeLayer(framesEl, x, y, w, height, true);
    /* Not drawn until the start has labelled the frames (init): while the parser adds frames
     * the page would otherwise style, lay out and paint the frames parsed so far again and
     * again, and the start's measures would lay them all out. */
    base.fo.style.display = "none";
    root.insertBefore(base.fo, framesEl);
    base.div.appendChild(framesEl);
    var zoomEl = document.createElementNS(SVGNS, "svg");
    zoomEl.setAttribute("id", P + "-zoom");
    zoomEl.setAttribute("width", w);
    var top = makeLayer(zoomEl, x, y, w, height, true);
    top.fo.style.display = "none";
    top.div.appendChild(zoomEl);
    root.insertBefore(top.fo, base.fo.nextSibling);
    var probe = makeProbe(x, y, w);
    root.insertBefore(probe.fo, base.fo);
    layers = { frames: framesEl, base: base, top: top, zoom: zoomEl, probe: probe.text };
}

function framesChild() {
    for (var c = root.firstElementChild; c; c = c.nextElementSibling) {
        if (c.getAttribute("id") === P + "-frames") {
            return c;
        }
    }
    return null;
}

function init() {
    try {
        start();
    } finally {
        /* shown even when the start failed: the frames as the writer drew them */
        showFrames();
    }
}

function showFrames() {
    if (layers) {
        layers.base.fo.style.display = "";
    }
}

function start() {
    if (root.foldsvg) {
        return;
    }
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

    /* ---- the frames ----------------------------------------------------------------
     * At the start only what a zoom needs is read (fg:x, fg:w, y); names, tooltips, labels,
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

    /* What P-frames shows now, so that an in-place repaint writes only what changes: the x
     * and width (in %) it was last painted for, the label fit (fitGen) it was last labelled
     * for (0: the writer's labels, fitted to an estimate of the font); the attribute strings
     * and labels as last written (undefined: as the writer wrote them, read when needed). The
     * writer marks no frame hidden or dimmed. */
    var shownFit = new Uint32Array(n);
    var shownState = new Uint8Array(n).fill(SHOW);
    var shownPX = new Float64Array(n);
    var shownPW = new Float64Array(n);
    var shownX = new Array(n);
    var shownW = new Array(n);
    var shownLabel = new Array(n);
    var shownTextX = new Array(n);
    var origFill = new Array(n);
    var highlighted = new Uint8Array(n);

    /* the one frame in the tab order (roving tabindex): the root frame, the widest at depth
     * 0, until another is focused. Links (<a>, focusable by themselves) leave the tab order. */
    var homeIdx = -1;
    for (i = 0; i < n; i++) {
        if (D[i] === 0 && (homeIdx < 0 || Wd[i] > Wd[homeIdx])) {
            homeIdx = i;
        }
        if (els[i].localName === "a") {
            els[i].setAttribute("tabindex", "-1");
        }
    }
    var stop = homeIdx;            /* its frame index */
    var stopEl = null;             /* the element holding tabindex="0" for it */

    /* ---- labels ------------------------------------------------------------------------ */
    /* A label starts LABEL_PAD units into its frame (as inferno's script puts it) and ends at
     * least LABEL_END before the frame's right edge. Units are those of P-frames, whose width
     * framesW the frames' % widths are shares of; a scaled SVG scales labels and frames alike. */
    var LABEL_PAD = 3;
    var LABEL_END = 1;
    /* the views' graphs use the font as their owner measured it (same font, same size) */
    var sharedMeter = !!(given && given.meter);
    var meter = sharedMeter ? given.meter : fontMeter(layers.probe, fontsize * fontwidth);
    var fitGen = 1;                /* bumped whenever the frames' width or the font changes */
    var NW = new Float64Array(n).fill(-1); /* a name's width, -1: not known for this fit */
    var framesW = 0;               /* the frames' width (set by layout()) */
    /* the writer's labels (inferno's rule: a label when 3 characters of the estimated width
     * fit at the static width) */
    var writerChar = (100 * fontsize * fontwidth) / staticWidth;

    function refit() {
        NW.fill(-1);
        fitGen++;
    }

    function labelFor(i, pct) {
        var room = (pct * framesW) / 100 - LABEL_PAD - LABEL_END;
        if (room < meter.dots) {
            return ""; /* as inferno's script: no label in less than two characters */
        }
        var nm = nameOf(i);
        if (NW[i] < 0) {
            NW[i] = meter.width(nm);
        }
        return NW[i] <= room ? nm : meter.cut(nm, room, truncateRight);
    }

    /* whether the writer may have written a label for frame I (conservative: then it is read) */
    function writerLabel(i) {
        return !given && !!texts[i] && (100 * Wd[i]) / total / writerChar >= 3 - 1e-6;
    }

    /* the narrowest frame (in % of the frames' width) that may get a label */
    function labelLeast() {
        return framesW > 0 ? (100 * (LABEL_PAD + LABEL_END + meter.dots)) / framesW : Infinity;
    }

    /* Measures, in one go, the characters not measured yet of the names of the frames LIST
     * (in view, wide enough for a label, width not known), before anything is written:
     * measuring lays the page out. */
    function measureNames(list) {
        var need = null;
        for (var k = 0; list && k < list.length; k++) {
            need = meter.need(nameOf(list[k]), need);
        }
        if (need && meter.add(need)) {
            refit();
        }
    }

    /* what the view should show: filled by target() */
    var tState = new Uint8Array(n);
    var tX = new Float64Array(n);
    var tW = new Float64Array(n);
    var zoomed = -1;               /* frame index zoomed to, -1 for none */
    target();
    shownPX.set(tX);               /* the full graph, as written */
    shownPW.set(tW);

    /* the zoom layer: copies of the frames in view while P-frames is hidden */
    var layered = false;
    var zoomIndex = new Map();     /* copy -> frame index */
    var copyOf = [];               /* frame index -> its copy (while layered) */
    var copied = [];               /* the indices that have a copy */

    /* ---- our own UI bits: ignore-case toggle and styles ------------------------------- */
    if (bg) {
        bg.classList.add("fs-bg");
    }
    var icEl = null;
    if (ui.search) {
        icEl = document.createElementNS(SVGNS, "text");
        icEl.setAttribute("id", P + "-ignorecase");
        icEl.setAttribute("y", ui.search.getAttribute("y") || String(2 * fontsize));
        var fill = ui.search.getAttribute("fill");
        if (fill) {
            icEl.setAttribute("fill", fill);
        }
        icEl.setAttribute("tabindex", "0");
        icEl.textContent = "ic";
        var icTitle = document.createElementNS(SVGNS, "title");
        icTitle.textContent = "Search ignores case (toggle)";
        icEl.appendChild(icTitle);
        root.insertBefore(icEl, ui.search.nextSibling);
        ui.search.setAttribute("tabindex", "0");
    }
    if (ui.unzoom) {
        ui.unzoom.setAttribute("tabindex", "0");
    }

    /* ---- state ------------------------------------------------------------------------ */
    var W = staticWidth;           /* the image width in px */
    var searchTerm = null;
    var ignoreCase = false;

    /* ---- painting ---------------------------------------------------------------------- */

    /* The view to show, into tState/tX/tW (x and width in % of the frames' width); returns
     * how many frames P-frames would have to change to show it in place, how many frames are
     * in view, and those in view that may get a label but whose name's width is not known. */
    function target() {
        var zx = 0;
        var zw = total;
        var zd = 0;
        if (zoomed >= 0) {
            zx = X[zoomed];
            zw = Wd[zoomed];
            zd = D[zoomed];
        }
        var zend = zx + zw;
        var scale = 100 / zw;
        var changes = 0;
        var inView = 0;
        var least = labelLeast();
        var unsized = null;
        for (var i = 0; i < n; i++) {
            var x = X[i];
            var end = x + Wd[i];
            var state = HIDE;
            if (D[i] < zd) {
                if (x <= zx && end >= zend) {
                    state = PARENT;
                    tX[i] = 0;
                    tW[i] = 100;
                }
            } else if (x >= zx && end <= zend) {
                state = SHOW;
                var px = (x - zx) * scale;
                tX[i] = px;
                tW[i] = (end - zx) * scale - px;
            }
            tState[i] = state;
            if (state !== HIDE) {
                inView++;
                if (NW[i] < 0 && tW[i] >= least) {
                    (unsized || (unsized = [])).push(i);
                }
                if (state !== shownState[i] || Math.abs(tX[i] - shownPX[i]) > 5e-5 || Math.abs(tW[i] - shownPW[i]) > 5e-5) {
                    changes++;
                }
            } else if (shownState[i] !== HIDE) {
                changes++;
            }
        }
        return { changes: changes, inView: inView, unsized: unsized };
    }

    function paint() {
        var t = target();
        measureNames(t.unsized);
        /* a copy in the zoom layer costs about what two in-place changes do */
        var hadFocus = focusedFrame();
        if (zoomed >= 0 && 2 * t.inView <= t.changes) {
            paintLayer();
        } else {
            paintInPlace();
        }
        /* the tab stop on the element that shows its frame now, or on the frame zoomed to
         * (the root) when its own is hidden; the focus stays on it */
        var s = stopFor(hadFocus >= 0 ? hadFocus : stop);
        var el = hadFocus >= 0 ? frameEl(s) : null;
        focusWait++;
        if (el && el !== document.activeElement && layered) {
            focusLater(s, document.activeElement, focusWait);
        } else {
            if (el && el !== document.activeElement) {
                offerStop(s);
                el.focus({ preventScroll: true });
            }
            setStop(s);
        }
        if (ui.unzoom) {
            ui.unzoom.classList.toggle("hide", zoomed < 0);
        }
        showOutline();
    }

    /* The focus goes to a copy in the zoom layer once the zoom is painted (unless it moved
     * or another paint came first): focused at once, the copy would make the browser style,
     * lay out and pre-paint the new view inside the click's handler, and the hidden frame
     * losing the focus (and the tab stop) change P-frames before the view is shown. Until
     * then the focus and the tab stop stay on the frame's own element, under the copy. */
    var focusWait = 0;
    function focusLater(i, from, token) {
        requestAnimationFrame(function () {
            setTimeout(function () {
                if (token !== focusWait || document.activeElement !== from) {
                    return;
                }
                var el = offerStop(i);
                if (el && el !== from) {
                    el.focus({ preventScroll: true });
                }
                setStop(i);
            }, 0);
        });
    }

    function paintInPlace() {
        var labelOffset = (100 * LABEL_PAD) / framesW;
        for (var i = 0; i < n; i++) {
            var state = tState[i];
            if (state !== shownState[i]) {
                var el = els[i];
                if (state === HIDE) {
                    el.classList.remove("parent");
                    el.classList.add("hide");
                } else if (state === PARENT) {
                    el.classList.remove("hide");
                    el.classList.add("parent");
                } else {
                    el.classList.remove("hide");
                    el.classList.remove("parent");
                }
                shownState[i] = state;
            }
            if (state === HIDE) {
                continue;
            }
            var px = tX[i];
            var pw = tW[i];
            var oldPW = shownPW[i];
            var moved = px !== shownPX[i] || pw !== oldPW;
            if (!moved && shownFit[i] === fitGen) {
                continue; /* as shown: same place, same label */
            }
            if (moved) {
                shownPX[i] = px;
                shownPW[i] = pw;
                var sx = px.toFixed(4) + "%";
                var sw = pw.toFixed(4) + "%";
                if (shownX[i] === undefined) {
                    shownX[i] = rects[i].getAttribute("x");
                    shownW[i] = rects[i].getAttribute("width");
                }
                if (sx !== shownX[i]) {
                    rects[i].setAttribute("x", sx);
                    shownX[i] = sx;
                }
                if (sw !== shownW[i]) {
                    rects[i].setAttribute("width", sw);
                    shownW[i] = sw;
                }
            }
            /* labels: most frames of a big graph have none; an empty <text> is left alone
             * (its x is brought up to date when it gets a label) */
            var label = labelFor(i, pw);
            shownFit[i] = fitGen;
            if (shownLabel[i] === undefined) {
                /* as the writer wrote it: read it unless it had no room for a label */
                if (label === "" && !writerLabel(i)) {
                    continue;
                }
                shownLabel[i] = texts[i] ? texts[i].textContent : "";
                shownTextX[i] = texts[i] ? texts[i].getAttribute("x") : null;
            }
            if (label !== "") {
                var tx = (px + labelOffset).toFixed(4) + "%";
                if (!texts[i]) {
                    texts[i] = labelEl(rects[i]);
                }
                if (tx !== shownTextX[i]) {
                    texts[i].setAttribute("x", tx);
                    shownTextX[i] = tx;
                }
            }
            if (label !== shownLabel[i]) {
                texts[i].textContent = label;
                shownLabel[i] = label;
            }
        }
        if (layered) {
            /* show P-frames again (first, so that focus never sits in a hidden layer) */
            layered = false;
            layers.base.div.style.opacity = "";
            framesEl.removeAttribute("aria-hidden");
            layers.top.fo.style.display = "none";
            clearCopies();
        }
    }

    /* A frame's <text> is made when it first gets a label (the writer writes one only for
     * the labels it wrote, the views none): most frames never get one, and every element
     * costs. Its y is the writer's: 3 below the middle of RECT, the frame's rect or its copy. */
    function labelEl(rect) {
        var t = document.createElementNS(SVGNS, "text");
        t.setAttribute("y", (3 + +rect.getAttribute("y") + +rect.getAttribute("height") / 2).toFixed(2));
        rect.parentNode.appendChild(t);
        return t;
    }

    function clearCopies() {
        zoomEl.textContent = "";
        for (var k = 0; k < copied.length; k++) {
            copyOf[copied[k]] = undefined;
        }
        copied = [];
        zoomIndex = new Map();
    }

    /* the zoom layer, filled with copies of the frames in view; P-frames is left as it is */
    function paintLayer() {
        var labelOffset = (100 * LABEL_PAD) / framesW;
        clearCopies();
        var frag = document.createDocumentFragment();
        for (var i = 0; i < n; i++) {
            var state = tState[i];
            if (state === HIDE) {
                continue;
            }
            var c = els[i].cloneNode(true);
            var parts = framePartsOf(c);
            if (els[i] === stopEl) {
                untab(c); /* setStop() puts the tab stop on the copy it wants */
            }
            var cls = (c.getAttribute("class") || "").replace(/(^|\s)(hide|parent)(?=\s|$)/g, " ").trim();
            if (state === PARENT) {
                cls = cls ? cls + " parent" : "parent";
            }
            if (cls) {
                c.setAttribute("class", cls);
            } else {
                c.removeAttribute("class");
            }
            var px = tX[i];
            var pw = tW[i];
            parts.rect.setAttribute("x", px.toFixed(4) + "%");
            parts.rect.setAttribute("width", pw.toFixed(4) + "%");
            if (!parts.text && labelFor(i, pw) !== "") {
                parts.text = labelEl(parts.rect);
            }
            if (parts.text) {
                var label = labelFor(i, pw);
                if (label !== "") {
                    parts.text.setAttribute("x", (px + labelOffset).toFixed(4) + "%");
                }
                parts.text.textContent = label;
            }
            frag.appendChild(c);
            zoomIndex.set(c, i);
            copyOf[i] = parts.rect;
            copied.push(i);
        }
        zoomEl.appendChild(frag);
        if (!layered) {
            layered = true;
            layers.top.fo.style.display = "";
            layers.base.div.style.opacity = "0";
            framesEl.setAttribute("aria-hidden", "true");
        }
    }

    /* the element that shows frame I now (P-frames' own, or its copy), or null */
    function frameEl(i) {
        if (!layered) {
            return shownState[i] === HIDE ? null : els[i];
        }
        var r = copyOf[i];
        return r ? copyElOf(r) : null;
    }

    function copyElOf(rect) {
        for (var t = rect; t; t = t.parentNode) {
            if (t.parentNode === zoomEl) {
                return t;
            }
        }
        return null;
    }

    function focusedFrame() {
        var a = document.activeElement;
        return a ? frameOf(a) : -1;
    }

    /* ---- keyboard: the roving tab stop and the arrow keys -------------------------------- */
    /* The frame that takes the tab stop for frame I: I when it is shown (by its own element,
     * or its copy while the zoom layer is up), else the frame zoomed to, or the root. */
    function stopFor(i) {
        return i >= 0 && frameEl(i) ? i : zoomed >= 0 ? zoomed : homeIdx;
    }

    /* Makes frame I the one frame in the tab order. The old tab stop leaves it here, when it
     * no longer has the focus: taking the tabindex from the focused element costs a style
     * update of the whole document (ms with a big graph), so a frame about to be focused is
     * first put in the tab order beside it (offerStop). */
    var offered = null;            /* an element offerStop() put in the tab order */
    function setStop(i) {
        i = stopFor(i);
        var el = i >= 0 ? frameEl(i) : null;
        stop = i;
        if (offered && offered !== el) {
            untab(offered);
        }
        var had = offered === el;
        offered = null;
        if (el === stopEl) {
            return;
        }
        if (stopEl) {
            untab(stopEl);
        }
        if (el && !had) {
            el.setAttribute("tabindex", "0");
        }
        stopEl = el;
    }

    /* puts the element of frame I in the tab order too, before it takes the focus */
    function offerStop(i) {
        var el = i >= 0 ? frameEl(i) : null;
        if (el && el !== stopEl && el !== offered) {
            if (offered) {
                untab(offered);
            }
            el.setAttribute("tabindex", "0");
            offered = el;
        }
        return el;
    }

    function untab(el) {
        if (el.localName === "a") {
            el.setAttribute("tabindex", "-1");
        } else {
            el.removeAttribute("tabindex");
        }
    }

    function focusFrame(i) {
        var el = offerStop(i);
        if (el && el !== document.activeElement) {
            el.focus();
        }
        setStop(i);
    }

    /* The frames of each row (depth) in x order, made on the first arrow key. The frames in
     * view in a row are consecutive in it: those inside the frame zoomed to, or the one
     * ancestor of it. */
    var rowFrames = null;
    var rowPos = null;             /* frame index -> its place in its row */
    function byRow() {
        if (rowFrames) {
            return;
        }
        rowFrames = rows.map(function () {
            return [];
        });
        for (var i = 0; i < n; i++) {
            rowFrames[D[i]].push(i);
        }
        rowPos = new Int32Array(n);
        rowFrames.forEach(function (row) {
            row.sort(function (a, b) {
                return X[a] - X[b] || a - b;
            });
            for (var k = 0; k < row.length; k++) {
                rowPos[row[k]] = k;
            }
        });
    }

    /* the first place in ROW whose frame starts at or after x (AFTER: after x) */
    function placeIn(row, x, after) {
        var lo = 0;
        var hi = row.length;
        while (lo < hi) {
            var mid = (lo + hi) >> 1;
            var xm = X[row[mid]];
            if (xm < x || (after && xm === x)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /* the frame in view one level towards the leaves under frame I's middle, else the widest */
    function childOf(i) {
        var r = D[i] + 1;
        if (r >= rowFrames.length) {
            return -1;
        }
        var row = rowFrames[r];
        var end = X[i] + Wd[i];
        var mid = X[i] + Wd[i] / 2;
        var best = -1;
        for (var k = placeIn(row, X[i], false); k < row.length && X[row[k]] < end; k++) {
            var j = row[k];
            if (!frameEl(j)) {
                continue;
            }
            if (X[j] <= mid && mid < X[j] + Wd[j]) {
                return j;
            }
            if (best < 0 || Wd[j] > Wd[best]) {
                best = j;
            }
        }
        return best;
    }

    /* the frame one level towards the root that holds frame I: the last in its row that
     * starts at or before frame I */
    function parentOf(i) {
        var r = D[i] - 1;
        if (r < 0) {
            return -1;
        }
        var row = rowFrames[r];
        var k = placeIn(row, X[i], true) - 1;
        var j = k >= 0 ? row[k] : -1;
        return j >= 0 && X[j] + Wd[j] > X[i] && frameEl(j) ? j : -1;
    }

    /* the frame in view next to frame I in its row, DIR -1 to the left, 1 to the right */
    function besideOf(i, dir) {
        var row = rowFrames[D[i]];
        var k = rowPos[i] + dir;
        return k >= 0 && k < row.length && frameEl(row[k]) ? row[k] : -1;
    }

    /* the frame key KEY moves the focus to from frame I: -1 for none, undefined for a key
     * that is not ours */
    function frameForKey(key, i) {
        if (key === "Home") {
            return homeIdx;
        }
        var dir = { ArrowUp: 0, Up: 0, ArrowDown: 1, Down: 1, ArrowLeft: 2, Left: 2, ArrowRight: 3, Right: 3 }[key];
        if (dir === undefined) {
            return undefined;
        }
        byRow();
        return dir === 0 ? childOf(i) : dir === 1 ? parentOf(i) : besideOf(i, dir === 2 ? -1 : 1);
    }

    /* ---- width ------------------------------------------------------------------------- */
    var knownWidth = given && given.width > 0 ? given.width : 0;
    function measureWidth() {
        if (!fluid) {
            return staticWidth;
        }
        if (knownWidth) {
            /* the views' graphs: their host was measured once for both */
            var kw = knownWidth;
            knownWidth = 0;
            setAttr(root, "width", "100%");
            return kw;
        }
        setAttr(root, "width", "100%");
        var w = root.getBoundingClientRect().width;
        var parent = root.parentElement;
        if (!standalone && parent) {
            /* A container that sizes itself to its content (inline-block, float, flex item,
             * table cell) would give a percentage width nothing to hold on to, leaving the
             * 300 px default of a sizeless inline SVG: keep the static width there. */
            var p1 = parent.getBoundingClientRect().width;
            setAttr(root, "width", String(staticWidth));
            var p2 = parent.getBoundingClientRect().width;
            if (Math.abs(p1 - p2) > 0.5) {
                return staticWidth;
            }
            setAttr(root, "width", "100%");
        }
        if (!(w >= 1)) {
            /* not laid out (display:none, detached): keep what the file says */
            setAttr(root, "width", String(staticWidth));
            return staticWidth;
        }
        return w;
    }

    var staticFramesWidth = +framesEl.getAttribute("width") || Math.max(staticWidth - 2 * xpad, 1);
    function framesWidth() {
        return fluid ? Math.max(W - 2 * xpad, 1) : staticFramesWidth;
    }

    function layout() {
        var w = measureWidth();
        var changed = Math.abs(w - W) > 0.01;
        W = w;
        if (fluid) {
            /* only what changes: the same width written again lays out every frame again */
            setAttr(root, "viewBox", "0 0 " + fmt(W) + " " + height);
            var fw = fmt(Math.max(W - 2 * xpad, 1));
            [framesEl, zoomEl].forEach(function (el) {
                setAttr(el, "width", fw);
                if (el.style.width !== fw + "px") {
                    el.style.width = fw + "px";
                }
            });
            setAttr(layers.base.fo, "width", fw);
            setAttr(layers.top.fo, "width", fw);
            if (ui.search) {
                setAttr(ui.search, "x", fmt(W - xpad));
            }
            if (ui.matched) {
                setAttr(ui.matched, "x", fmt(W - xpad));
            }
        }
        var f = framesWidth();
        if (Math.abs(f - framesW) > 0.001) {
            framesW = f;
            refit();
            changed = true;
        }
        placeIgnoreCase();
        return changed;
    }

    function placeIgnoreCase() {
        if (icEl) {
            var searchWidth = ui.search ? meter.width(ui.search.textContent) : 40;
            setAttr(icEl, "x", fmt(W - xpad - searchWidth - fontsize));
        }
    }

    /* the font measured again (the page's scale or fonts may have changed): true when the
     * labels must be fitted again */
    function remeasure() {
        if (sharedMeter || !meter.measure()) {
            return false;
        }
        refit();
        placeIgnoreCase();
        return true;
    }

    var layoutPending = false;
    function onResize() {
        if (layoutPending) {
            return;
        }
        layoutPending = true;
        requestAnimationFrame(function () {
            layoutPending = false;
            if (root.checkVisibility && !root.checkVisibility()) {
                /* hidden (the report's views in its place): measuring would lay out every
                 * frame for nothing; it is measured again when it shows */
                return;
            }
            var changed = layout();
            if (remeasure() || changed) {
                paint();
            }
        });
    }

    /* ---- details line -------------------------------------------------------------------- */
    function showDetails(i) {
        if (ui.details) {
            ui.details.textContent = i < 0 ? " " : nametype + " " + tipOf(i);
        }
    }

    /* the outline of the frame under the pointer (or focused from the keyboard) */
    var outline = document.createElementNS(SVGNS, "rect");
    outline.setAttribute("class", "fs-outline");
    outline.setAttribute("display", "none");
    root.insertBefore(outline, layers.top.fo.nextSibling);
    var outlined = -1;
    var hoverIdx = -1;
    var focusIdx = -1;

    function showOutline() {
        var i = focusIdx >= 0 ? focusIdx : hoverIdx;
        if (i >= 0 && !frameEl(i)) {
            i = -1;
        }
        if (i < 0) {
            if (outlined >= 0) {
                outline.setAttribute("display", "none");
                outlined = -1;
            }
            return;
        }
        var fw = framesWidth();
        var x0 = +layers.base.fo.getAttribute("x") || 0;
        outline.setAttribute("x", fmt(x0 + (tX[i] * fw) / 100));
        outline.setAttribute("y", String(ys[i]));
        outline.setAttribute("width", fmt((tW[i] * fw) / 100));
        outline.setAttribute("height", rects[i].getAttribute("height") || "15");
        outline.classList.toggle("focus", i === focusIdx);
        if (outlined < 0) {
            outline.removeAttribute("display");
        }
        outlined = i;
    }

    /* ---- zoom ---------------------------------------------------------------------------- */
    function zoom(i) {
        zoomed = i === rootIndex ? -1 : i;
        paint();
        saveState();
    }

    /* ---- search -------------------------------------------------------------------------- */
    function clearHighlights() {
        for (var i = 0; i < n; i++) {
            if (highlighted[i]) {
                setFill(i, origFill[i]);
                highlighted[i] = 0;
            }
        }
    }

    function setFill(i, f) {
        setRectFill(rects[i], f);
        if (copyOf[i]) {
            setRectFill(copyOf[i], f);
        }
    }

    function setRectFill(r, f) {
        if (f == null) {
            r.removeAttribute("fill");
        } else {
            r.setAttribute("fill", f);
        }
    }

    function search(term) {
        if (term == null || term === "") {
            resetSearch();
            return;
        }
        var re;
        try {
            re = new RegExp(term, ignoreCase ? "i" : "");
        } catch (e) {
            clearHighlights();
            searchTerm = null;
            if (ui.search) {
                ui.search.classList.remove("show");
            }
            if (ui.matched) {
                ui.matched.textContent = "Invalid regular expression";
            }
            saveState();
            return;
        }
        searchTerm = term;
        var hits = [];
        for (var i = 0; i < n; i++) {
            var hit = i !== rootIndex && re.test(nameOf(i));
            if (hit) {
                hits.push(i);
                if (!highlighted[i]) {
                    if (origFill[i] === undefined) {
                        origFill[i] = rects[i].getAttribute("fill");
                    }
                    setFill(i, searchcolor);
                    highlighted[i] = 1;
                }
            } else if (highlighted[i]) {
                setFill(i, origFill[i]);
                highlighted[i] = 0;
            }
        }
        /* the share of the total covered by matches, nested matches counted once */
        hits.sort(function (a, b) {
            return X[a] - X[b];
        });
        var covered = 0;
        var reach = -1;
        for (var k = 0; k < hits.length; k++) {
            var s = X[hits[k]];
            var e = s + Wd[hits[k]];
            if (e <= reach) {
                continue;
            }
            covered += e - Math.max(s, reach);
            reach = e;
        }
        var pct = (100 * covered) / total;
        if (ui.search) {
            ui.search.classList.add("show");
        }
        if (ui.matched) {
            ui.matched.textContent = "Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) + "%";
        }
        saveState();
    }

    function resetSearch() {
        clearHighlights();
        searchTerm = null;
        if (ui.search) {
            ui.search.classList.remove("show");
        }
        if (ui.matched) {
            ui.matched.textContent = " ";
        }
        saveState();
    }

    function askSearch() {
        var term = window.prompt(
            "Search for a regular expression" + (ignoreCase ? " (ignoring case)" : "") +
                " (press Escape to cancel)",
            searchTerm || ""
        );
        if (term != null) {
            search(term);
        }
    }

    function toggleIgnoreCase() {
        ignoreCase = !ignoreCase;
        if (icEl) {
            icEl.classList.toggle("show", ignoreCase);
        }
        if (searchTerm != null) {
            search(searchTerm);
        } else {
            saveState();
        }
    }

    /* ---- URL state (standalone files only) ---------------------------------------------- */
    var restoring = false;
    /* The URL is written after the next frame: replaceState takes a while (tens of ms with a
     * big file) and a repaint should not wait for it. */
    var savePending = false;
    function saveState() {
        if (!standalone || restoring || !window.history || !window.history.replaceState || savePending) {
            return;
        }
        savePending = true;
        requestAnimationFrame(function () {
            setTimeout(function () {
                savePending = false;
                writeState();
            }, 0);
        });
    }

    function writeState() {
        try {
            var params = new URLSearchParams(window.location.search);
            ["x", "y", "s", "i", "sandwich"].forEach(function (k) {
                params.delete(k);
            });
            if (zoomed >= 0) {
                params.set("x", String(X[zoomed]));
                params.set("y", String(ys[zoomed]));
            }
            if (searchTerm != null) {
                params.set("s", searchTerm);
            }
            if (ignoreCase) {
                params.set("i", "1");
            }
            if (viewsName != null) {
                params.set("sandwich", viewsName);
            }
            var q = params.toString();
            var url = window.location.pathname + (q ? "?" + q : "") + window.location.hash;
            if (url !== window.location.pathname + window.location.search + window.location.hash) {
                window.history.replaceState(window.history.state, "", url);
            }
        } catch (e) {
            /* a sandboxed or opaque location: keep working without the URL */
        }
    }

    function restoreState() {
        if (!standalone || !window.location.search) {
            return;
        }
        var params;
        try {
            params = new URLSearchParams(window.location.search);
        } catch (e) {
            return;
        }
        restoring = true;
        if (params.get("i") === "1") {
            toggleIgnoreCase();
        }
        if (params.has("x") && params.has("y")) {
            var x = +params.get("x");
            var y = +params.get("y");
            for (var i = 0; i < n; i++) {
                if (X[i] === x && ys[i] === y) {
                    zoom(i);
                    break;
                }
            }
        }
        if (params.has("s")) {
            search(params.get("s"));
        }
        if (params.has("sandwich")) {
            showViews(params.get("sandwich"));
        }
        restoring = false;
    }

    /* ---- views: callers and callees (see drawView) --------------------------------------- */
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

    /* ---- events (all on our own elements) ------------------------------------------------ */
    function frameOf(target) {
        for (var t = target; t && t !== root; t = t.parentNode) {
            var p = t.parentNode;
            if (p === framesEl) {
                var i = index.get(t);
                return i == null ? -1 : i;
            }
            if (p === zoomEl) {
                var k = zoomIndex.get(t);
                return k == null ? -1 : k;
            }
        }
        return -1;
    }

    /* the frame under the pointer: while the zoom layer is up, P-frames lies under it unseen
     * (opacity 0, which still takes pointer events) and must not answer where no copy covers
     * it */
    function pointedFrame(target) {
        return layered && framesEl.contains(target) ? -1 : frameOf(target);
    }

    function matchesFocusVisible(el) {
        try {
            return el.matches(":focus-visible");
        } catch (e) {
            return true;
        }
    }

    /* the last element before the frames that takes the focus (for Shift+Tab out of the
     * zoom layer past the hidden P-frames) */
    function focusableBefore() {
        var cands = [icEl, ui.search, ui.unzoom];
        for (var k = 0; k < cands.length; k++) {
            if (cands[k] && !cands[k].classList.contains("hide")) {
                return cands[k];
            }
        }
        return null;
    }

    function listen(layer) {
        layer.addEventListener("mouseover", function (e) {
            var i = pointedFrame(e.target);
            if (i >= 0) {
                showDetails(i);
                hoverIdx = i;
                showOutline();
            }
        });
        layer.addEventListener("mouseout", function (e) {
            if (pointedFrame(e.relatedTarget) < 0) {
                showDetails(-1);
                hoverIdx = -1;
                showOutline();
            }
        });
        layer.addEventListener("focusin", function (e) {
            if (layer === framesEl && layered) {
                /* P-frames is hidden under the zoom layer: pass the focus on */
                var from = e.relatedTarget;
                var to = from && zoomEl.contains(from) ? focusableBefore() : stopEl;
                if (to) {
                    to.focus({ preventScroll: true });
                } else if (e.target.blur) {
                    e.target.blur();
                }
                return;
            }
            var i = frameOf(e.target);
            if (i >= 0) {
                setStop(i);
                showDetails(i);
                focusIdx = matchesFocusVisible(e.target) ? i : -1;
                showOutline();
            }
        });
        layer.addEventListener("focusout", function () {
            showDetails(-1);
            focusIdx = -1;
            showOutline();
        });
        layer.addEventListener("mousedown", function (e) {
            /* a frame clicked takes the focus, as the tab stop (the browser focuses it after
             * this event) */
            var i = pointedFrame(e.target);
            var el = i >= 0 ? frameEl(i) : null;
            if (el && el.contains(e.target)) {
                offerStop(i); /* focusin makes it the tab stop */
            }
        });
        layer.addEventListener("click", function (e) {
            var i = pointedFrame(e.target);
            if (i < 0) {
                return;
            }
            if (e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && root.foldsvg.onviews) {
                /* Shift+click: the function's callers and callees (views) */
                e.preventDefault();
                root.foldsvg.onviews(nameOf(i));
                return;
            }
            if (els[i].localName === "a" && (e.ctrlKey || e.metaKey || e.shiftKey)) {
                return; /* let a link open elsewhere */
            }
            zoom(i);
        });
    }
    listen(framesEl);
    listen(zoomEl);

    function button(el, action) {
        if (!el) {
            return;
        }
        el.addEventListener("click", function (e) {
            e.stopPropagation();
            action();
        });
        el.addEventListener("keydown", function (e) {
            if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                e.stopPropagation();
                action();
            }
        });
    }
    button(ui.unzoom, function () {
        zoom(-1);
    });
    button(ui.search, function () {
        if (searchTerm != null) {
            resetSearch();
        } else {
            askSearch();
        }
    });
    button(icEl, toggleIgnoreCase);

    root.addEventListener("keydown", function (e) {
        var key = e.key;
        if (e.defaultPrevented) {
            return; /* done by a graph inside this one (the views) */
        }
        if (key === "F3" || ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "f" || key === "F"))) {
            e.preventDefault();
            askSearch();
        } else if (key === "Escape" || key === "Esc") {
            if (viewsEl && (viewsEl.contains(e.target) || (zoomed < 0 && searchTerm == null))) {
                e.preventDefault();
                hideViews(false);
                return;
            }
            if (zoomed >= 0 || searchTerm != null) {
                e.preventDefault();
            }
            if (zoomed >= 0) {
                zoom(-1);
            }
            if (searchTerm != null) {
                resetSearch();
            }
        } else if (key === "Enter" || key === " ") {
            var i = frameOf(e.target);
            if (i >= 0 && key === "Enter" && e.shiftKey && root.foldsvg.onviews) {
                e.preventDefault();
                root.foldsvg.onviews(nameOf(i));
            } else if (i >= 0 && !(key === "Enter" && els[i].localName === "a")) {
                e.preventDefault();
                zoom(i);
            }
        } else if (!e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
            /* arrows and Home on a frame: move the focus (never scroll the page) */
            var from = frameOf(e.target);
            var to = from >= 0 ? frameForKey(key, from) : undefined;
            if (to !== undefined) {
                e.preventDefault();
                if (to >= 0 && to !== from) {
                    focusFrame(to);
                }
            }
        }
    });

    /* A fluid SVG follows its container's width; any SVG may be scaled by the page, which
     * can round glyph advances differently, or shown after being laid out hidden: the font
     * is measured again on each resize. Fonts that load later (a page's web font) too. */
    if (typeof ResizeObserver === "function") {
        var ro = new ResizeObserver(onResize);
        ro.observe(root);
        if (fluid && !standalone && root.parentElement) {
            ro.observe(root.parentElement);
        }
    }
    if (document.fonts && document.fonts.addEventListener) {
        document.fonts.addEventListener("loadingdone", function () {
            if (remeasure()) {
                paint();
            }
        });
    }

    root.foldsvg = {
        frames: n,
        /* what Shift+click (Shift+Enter) on a frame does with the frame's name: by default
         * the views below the graph; a page (the HTML report) may put its own here */
        onviews: given ? null : showViews,
        countname: countname,
        facts: function (v) {
            return viewFacts(v, 1, countname);
        },
        sandwich: sandwichViews,
        /* reads the report's stacks ahead of the first view (when the page is idle) */
        prepare: function (data) {
            if (dataFor !== data) {
                dataFor = data;
                dataStacks = stacksOfData(data);
                if (dataStacks && dataStacks.n > 1) {
                    functionIndex(dataStacks, "");
                    /* the views' arithmetic run once (and so compiled) before the first view
                     * is asked for: that first opening took twice the script time of later ones */
                    var s0 = sandwich(dataStacks, dataStacks.name[1]);
                    layoutFrames(s0.callees, dataStacks.rank, 0.1);
                    layoutFrames(s0.callers, dataStacks.rank, 0.1);
                }
            }
        },
        views: function (name) {
            return name == null ? hideViews(false) : showViews(name);
        },
        zoom: function (el) {
            var i = el == null ? -1 : typeof el === "number" ? el : frameOf(el);
            zoom(i == null ? -1 : i);
        },
        reset: function () {
            zoom(-1);
            resetSearch();
        },
        search: search,
        clearSearch: resetSearch,
        setIgnoreCase: function (on) {
            if (!!on !== ignoreCase) {
                toggleIgnoreCase();
            }
        },
        state: function () {
            return {
                zoomed: zoomed >= 0 ? nameOf(zoomed) : null,
                search: searchTerm,
                ignoreCase: ignoreCase,
                width: W
            };
        }
    };

    layout();
    remeasure();
    paint();
    restoreState();
    showFrames();
    if (typeof CustomEvent === "function") {
        root.dispatchEvent(new CustomEvent("foldsvgready"));
    }
}

/* ---- views: the callers and callees of one function ("sandwich") --------------------------
 * For a function F, the callees graph merges every stack that holds F from F's outermost
 * occurrence on (so each stack counts once: its root is F, its width F's inclusive time),
 * and the callers graph merges the same stacks from that occurrence back to the root, drawn
 * inverted with F at the top. Each is a flame graph of its own, driven by this same script
 * (graph(), run again on an <svg> that drawView() fills from the numbers, with no second
 * renderer and nothing read back from the DOM).
 *
 * The stacks are a tree T in pre-order: node 0 is the root (no function), T.parent[i] < i,
 * T.name[i] an index into T.names, T.self[i] the count of the stacks that end at node i;
 * T.rank orders the names (null: the names are sorted already). They come from the report's
 * data (stacksOfData: the profile's prefix tree, embedded once in the page) or, in an SVG on
 * its own, from its frames (stacksOfFrames in init(): what the writer pruned is missing). */

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

/* A merged tree rooted at function F, of at most CAP nodes: parent, name and value per node
 * (typed arrays, N of them used); child() finds or adds a child by name through an open
 * hash of (parent, name). Nothing per node is left for the collector: a page holding 50k
 * frames makes every collection slow. */
function mergedTree(f, cap) {
    var size = 1;
    while (size < 2 * cap) {
        size *= 2;
    }
    var mask = size - 1;
    var slots = new Int32Array(size); /* node + 1; 0: free */
    var m = { n: 1, parent: new Int32Array(cap), name: new Int32Array(cap), value: new Float64Array(cap) };
    m.parent[0] = -1;
    m.name[0] = f;
    m.child = function (p, nm) {
        var h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(nm + 1, 0x85ebca77)) & mask;
        for (;;) {
            var c = slots[h] - 1;
            if (c < 0) {
                c = m.n++;
                m.parent[c] = p;
                m.name[c] = nm;
                slots[h] = c + 1;
                return c;
            }
            if (m.parent[c] === p && m.name[c] === nm) {
                return c;
            }
            h = (h + 1) & mask;
        }
    };
    return m;
}

/* F's callees and callers trees (values: counts), its inclusive and self time. */
function sandwich(t, f) {
    var n = t.n;
    var parent = t.parent;
    var name = t.name;
    var self = t.self;
    var sub = new Float64Array(n);
    var i;
    for (i = n - 1; i > 0; i--) {
        sub[i] += self[i];
        sub[parent[i]] += sub[i];
    }
    /* a merged node stands for at least one node of T: N bounds both */
    var callees = mergedTree(f, n);
    var callers = mergedTree(f, n);
    var into = new Int32Array(n);  /* node -> its callees node; -1 outside F's subtrees */
    var selfTime = 0;
    into[0] = -1;
    for (i = 1; i < n; i++) {
        var up = into[parent[i]];
        if (name[i] === f) {
            selfTime += self[i];
        }
        if (up >= 0) {
            into[i] = callees.child(up, name[i]);
            callees.value[into[i]] += self[i];
        } else if (name[i] === f) {
            /* F's outermost occurrence on this path: the stacks below it count once */
            into[i] = 0;
            callees.value[0] += self[i];
            callers.value[0] += sub[i];
            for (var q = parent[i], c = 0; q > 0; q = parent[q]) {
                c = callers.child(c, name[q]);
                callers.value[c] += sub[i];
            }
        } else {
            into[i] = -1;
        }
    }
    /* a merged node comes after its parent: one backward pass sums the subtrees */
    for (i = callees.n - 1; i > 0; i--) {
        callees.value[callees.parent[i]] += callees.value[i];
    }
    return { callees: callees, callers: callers, total: callers.value[0], self: selfTime, of: sub[0] };
}

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

/* "inclusive N UNIT (P%), self M (Q%)", and the frames left out, of the views V */
function viewFacts(v, scale, unit) {
    var pct = function (x) {
        return ((100 * x) / v.of).toFixed(2) + "%";
    };
    return "inclusive " + thousands(v.total * scale) + " " + unit + " (" + pct(v.total) + "), self " +
        thousands(v.self * scale) + " (" + pct(v.self) + ")" +
        (v.dropped ? "; " + thousands(v.dropped) + " narrow frames not drawn" : "");
}

function thousands(v) {
    return String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function escapeText(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/* The writer's style of this graph (not ours), the one the views copy. */
function writerStyle() {
    for (var c = root.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === "style" && c.getAttribute("id") !== P + "-jsstyle") {
            return c.textContent;
        }
    }
    return "";
}

function svgEl(name, attrs, text) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) {
        if (Object.prototype.hasOwnProperty.call(attrs, k) && attrs[k] != null) {
            e.setAttribute(k, String(attrs[k]));
        }
    }
    if (text != null) {
        e.textContent = text;
    }
    return e;
}

/* A flame graph of its own in HOST, drawn as the writer draws one (svg.c: the same elements,
 * ids SPEC.id-*, geometry and style) from the frames SPEC.frames (layoutFrames) of the names
 * of tree SPEC.t, tooltips in percent of SPEC.of; then driven by graph(). Returns its root. */
function drawView(host, spec) {
    var fr = spec.frames;
    var Q = spec.id;
    var n = fr.x.length;
    var total = fr.w[0] || 1;
    var W = +spec.width || staticWidth;
    var first = layers && layers.frames.querySelector("rect");
    var fh = first ? +first.getAttribute("height") + 1 : 16;
    var inv = !!spec.inverted;
    var ypad1 = inv ? 4 * fontsize + 4 : 3 * fontsize;
    var ypad2 = inv ? fontsize + 10 : 2 * fontsize + 10;
    var H = (fr.depth + 1) * fh + ypad1 + ypad2;
    var detailY = inv ? ypad1 - fontsize : H - ypad2 / 2;
    var svg = svgEl("svg", { version: "1.1", width: W, height: H, viewBox: "0 0 " + W + " " + H, id: Q + "-root",
        role: "img", "aria-label": spec.title + ": " + thousands(total * factor) + " " + countname });
    svg.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:fg", "http://github.com/jonhoo/inferno");
    svg.appendChild(svgEl("title", {}, spec.title));
    var grad = root.querySelector("linearGradient");
    if (grad) {
        var defs = svgEl("defs", {});
        var g2 = grad.cloneNode(true);
        g2.setAttribute("id", Q + "-background");
        defs.appendChild(g2);
        svg.appendChild(defs);
    }
    /* no style of its own: the owner's holds its rules (see ourStyle) */
    svg.appendChild(svgEl("rect", { id: Q + "-bg", x: 0, y: 0, width: "100%", height: "100%",
        fill: grad ? "url(#" + Q + "-background)" : "none" }));
    var titleEl = root.querySelector("#" + P + "-title");
    var ui = titleEl && titleEl.getAttribute("fill");
    svg.appendChild(svgEl("text", { id: Q + "-title", fill: ui, x: "50.0000%", y: 2 * fontsize }, spec.title));
    svg.appendChild(svgEl("text", { id: Q + "-details", fill: ui, x: xpad, y: detailY }, " "));
    svg.appendChild(svgEl("text", { id: Q + "-unzoom", class: "hide", fill: ui, x: xpad, y: 2 * fontsize }, "Reset Zoom"));
    svg.appendChild(svgEl("text", { id: Q + "-search", fill: ui, x: W - xpad, y: 2 * fontsize }, "Search"));
    svg.appendChild(svgEl("text", { id: Q + "-matched", fill: ui, x: W - xpad, y: detailY }, " "));
    var frames = svgEl("svg", { id: Q + "-frames", x: xpad, width: W - 2 * xpad, total_samples: total });
    svg.appendChild(frames);
    if (spec.y != null) {
        svg.setAttribute("y", String(spec.y));
    }
    var ys = new Float64Array(n);
    var tips = new Array(n);
    var names = new Array(n);
    var html = new Array(n);
    var k = 100 / total;
    var colors = new Map();
    for (var i = 0; i < n; i++) {
        var f = fr.name[i];
        var name = spec.t.names[f];
        var color = colors.get(f);
        if (color === undefined) {
            color = spec.t.color(f);
            colors.set(f, color);
        }
        var y1 = inv ? ypad1 + fr.d[i] * fh : H - ypad2 - (fr.d[i] + 1) * fh + 1;
        var px = fr.x[i] * k;
        ys[i] = y1;
        names[i] = name;
        tips[i] = name + " (" + thousands(fr.w[i] * factor) + " " + countname + ", " +
            ((100 * fr.w[i]) / spec.of).toFixed(2) + "%)";
        html[i] = "<g><title>" + escapeText(tips[i]) + '</title><rect x="' + px.toFixed(4) + '%" y="' + y1 +
            '" width="' + (fr.w[i] * k).toFixed(4) + '%" height="' + (fh - 1) + '" fill="' + color +
            '" fg:x="' + fr.x[i] + '" fg:w="' + fr.w[i] + '"/></g>';
    }
    /* parsed while out of the page (a page of 50k frames makes each insertion into it cost);
     * in an XML document the fg: prefix resolves through the root's declaration */
    frames.innerHTML = html.join("");
    host.appendChild(svg);
    var sub = {};
    for (var key in settings) {
        if (Object.prototype.hasOwnProperty.call(settings, key)) {
            sub[key] = settings[key];
        }
    }
    sub.id = Q;
    sub.inverted = inv;
    sub.total = total;
    sub.width = W;
    sub.fluid = !!spec.fluid;
    graph(sub, svg, { x: fr.x, w: fr.w, y: ys, tips: tips, names: names, meter: spec.meter, width: spec.hostWidth });
    return svg;
}

function framePartsOf(g) {
    var parts = childParts(g);
    if (!parts.rect && g.firstElementChild && !g.firstElementChild.nextElementSibling) {
        /* an <a> wrapping the frame's <g> (or the other way round) */
        parts = childParts(g.firstElementChild);
    }
    return parts;
}

function childParts(el) {
    var parts = { rect: null, text: null, title: null };
    for (var c = el.firstElementChild; c; c = c.nextElementSibling) {
        var ln = c.localName;
        if (ln === "rect" && !parts.rect) {
            parts.rect = c;
        } else if (ln === "text" && !parts.text) {
            parts.text = c;
        } else if (ln === "title" && !parts.title) {
            parts.title = c;
        }
    }
    return parts;
}

/* ---- label widths: the font as the page draws it -----------------------------------------
 * Labels are fitted against widths measured in the page, never against an estimate in ems:
 * the font is whatever the browser found for the family (Chromium's monospace is 0.602 em
 * wide, not 0.59), characters missing from it come from other fonts, and a page that scales
 * the SVG may round glyph advances at the scale it draws them. PROBE is a hidden <text>
 * styled and scaled as the labels are; one layout of it gives the advance of every printable
 * ASCII character (getSubStringLength, as inferno's script measures), and the characters
 * beyond ASCII are measured when a label first needs them, all of them in one layout.
 * Kerning and ligatures are off in labels (the layers' style), so that a label is as wide as
 * the sum of its characters. Until the probe has been laid out, ESTIMATE (the writer's
 * font size times font width) stands in for every character. */
var PRINTABLE = (function () {
    var s = "";
    for (var c = 0x21; c < 0x7f; c++) {
        s += String.fromCharCode(c);
    }
    return s;
})();
var ONLY_ASCII = /^[\x00-\x7f]*$/;
var ONLY_PRINTABLE = /^[\x20-\x7e]*$/;

function fontMeter(probe, estimate) {
    var ascii = new Float64Array(128).fill(estimate);
    var other = new Map();         /* a character beyond ASCII (one code point) -> its width */
    var meter = {
        narrowest: estimate,       /* the narrowest printable ASCII character */
        mono: estimate,            /* the one width of all printable ASCII, 0 when they differ */
        dots: 2 * estimate,        /* ".." */
        measure: measure,
        need: need,
        add: add,
        width: width,
        cut: cut
    };

    /* Measures every character known: true when a width changed. The probe's text is the
     * printable characters, " ..", then each other character after a space (that keeps
     * apart what could combine). */
    function measure() {
        var keys = Array.from(other.keys());
        var s = PRINTABLE + " ..";
        var at = [];
        for (var k = 0; k < keys.length; k++) {
            at.push(s.length + 1);
            s += " " + keys[k];
        }
        if (probe.textContent !== s) {
            probe.textContent = s;
        }
        var next = new Float64Array(128);
        var found = [];
        var run = 0;
        var dots = 0;
        var i;
        try {
            for (i = 0; i < PRINTABLE.length; i++) {
                next[0x21 + i] = probe.getSubStringLength(i, 1);
            }
            next[0x20] = probe.getSubStringLength(PRINTABLE.length, 1);
            dots = probe.getSubStringLength(PRINTABLE.length + 1, 2);
            run = probe.getSubStringLength(0, PRINTABLE.length);
            for (k = 0; k < keys.length; k++) {
                found.push(probe.getSubStringLength(at[k], 1));
            }
        } catch (e) {
            run = 0;
        }
        if (!(run > 0)) {
            return false; /* not laid out (hidden, detached): measured when it is */
        }
        for (i = 0; i < 0x20; i++) {
            next[i] = next[0x20]; /* a control character, if any, is drawn as a space */
        }
        next[0x7f] = next[0x20];
        var changed = Math.abs(dots - meter.dots) > 1e-6;
        var lo = Infinity;
        var hi = 0;
        for (i = 0; i < 128; i++) {
            changed = changed || Math.abs(next[i] - ascii[i]) > 1e-6;
            if (i > 0x20 && i < 0x7f) {
                lo = Math.min(lo, next[i]);
                hi = Math.max(hi, next[i]);
            }
        }
        for (k = 0; k < keys.length; k++) {
            var v = found[k] >= 0 ? found[k] : 2 * estimate;
            changed = changed || Math.abs(v - other.get(keys[k])) > 1e-6;
            other.set(keys[k], v);
        }
        ascii = next;
        meter.dots = dots;
        meter.narrowest = lo;
        /* one character's advance comes rounded (to 1/64 px); the run's average is exact */
        meter.mono = hi - lo < 0.1 ? Math.max(run / PRINTABLE.length, next[0x20]) : 0;
        return changed;
    }

    /* adds to the set NEED (made when null) the characters of S not measured yet */
    function need(s, needs) {
        if (ONLY_ASCII.test(s)) {
            return needs;
        }
        for (var i = 0; i < s.length; i++) {
            if (s.charCodeAt(i) >= 0x80) {
                var ch = charAt(s, i);
                i += ch.length - 1;
                if (!other.has(ch)) {
                    needs = needs || new Set();
                    needs.add(ch);
                }
            }
        }
        return needs;
    }

    /* measures the characters of the set NEEDS too: true when a width changed */
    function add(needs) {
        needs.forEach(function (ch) {
            other.set(ch, 2 * estimate);
        });
        return measure();
    }

    function charAt(s, i) {
        var c = s.charCodeAt(i);
        return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s.charAt(i);
    }

    function charWidth(ch) {
        var c = ch.charCodeAt(0);
        if (c < 0x80) {
            return ascii[c];
        }
        var v = other.get(ch);
        return v === undefined ? 2 * estimate : v;
    }

    function width(s) {
        if (meter.mono && ONLY_PRINTABLE.test(s)) {
            return s.length * meter.mono;
        }
        var w = 0;
        for (var i = 0; i < s.length; i++) {
            var ch = charAt(s, i);
            i += ch.length - 1;
            w += charWidth(ch);
        }
        return w;
    }

    /* S cut to fit ROOM with "..": its end kept (as inferno cuts by default), its start with
     * RIGHT; "" when not one character fits */
    function cut(s, room, right) {
        var left = room - meter.dots;
        if (left < meter.narrowest) {
            return "";
        }
        var k;
        if (meter.mono && ONLY_PRINTABLE.test(s)) {
            k = Math.min(Math.floor(left / meter.mono), s.length);
            if (k < 1) {
                return "";
            }
            return right ? s.slice(0, k) + ".." : ".." + s.slice(s.length - k);
        }
        var cps = Array.from(s);
        var w = 0;
        for (k = 0; k < cps.length; k++) {
            w += charWidth(cps[right ? k : cps.length - 1 - k]);
            if (w > left) {
                break;
            }
        }
        if (k === 0) {
            return "";
        }
        return right ? cps.slice(0, k).join("") + ".." : ".." + cps.slice(cps.length - k).join("");
    }

    return meter;
}

function setAttr(el, name, value) {
    if (el.getAttribute(name) !== value) {
        el.setAttribute(name, value);
    }
}

function fmt(v) {
    return String(Math.round(v * 100) / 100);
}

/* The root's later children are parsed after this script runs: start once the root has
 * loaded (the SVG load event, fired for standalone files and inline SVGs alike), or at once
 * when the frames are already there (a script run again after the SVG was inserted).
 * P-frames goes into its layer as soon as the parser has made it, before anything of it has
 * been styled or drawn (moving it later would lay out its frames a second time). */
var framesNow = framesChild();
if (framesNow) {
    wrapFrames(framesNow);
    init();
} else {
    var watcher = null;
    if (typeof MutationObserver === "function") {
        watcher = new MutationObserver(function () {
            var f = framesChild();
            if (f) {
                watcher.disconnect();
                wrapFrames(f);
            }
        });
        watcher.observe(root, { childList: true });
    }
    root.addEventListener("load", function () {
        if (watcher) {
            watcher.disconnect();
        }
        init();
    }, { once: true });
}
})(settings, document.currentScript && document.currentScript.parentNode, null);
