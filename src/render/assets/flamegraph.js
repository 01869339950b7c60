/*
 * foldsvg flame graph script: hover details, click-to-zoom, regex search, URL state, fluid
 * width, dark mode and keyboard use, scoped to the one <svg> it sits in.
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
 * Contract with the SVG writer (see script.c and script.h): the <script> is a direct child of
 * the root <svg id="P-root">, P = settings.id; the UI texts P-title, P-details, P-unzoom,
 * P-search, P-matched, the background rect P-bg and the nested <svg id="P-frames"> are direct
 * children of the root; each child of P-frames is one frame (<g>, or <a> for --nameattr
 * links) holding <title>, <rect fg:x fg:w y ...> and <text>.
 */

var SVGNS = "http://www.w3.org/2000/svg";
var P = String(settings.id || "fg");
var script = document.currentScript;
var root = script && script.parentNode;
if (!root || root.getAttribute("id") !== P + "-root") {
    /* not in the SVG the writer made (or no currentScript): nothing of ours to drive */
    return;
}

var fontsize = +settings.fontsize || 12;
var fontwidth = +settings.fontwidth || 0.59;
var xpad = settings.xpad == null ? 10 : +settings.xpad;
var searchcolor = settings.searchcolor || "rgb(230,0,230)";
var nametype = settings.nametype == null ? "Function:" : String(settings.nametype);
var fluid = !!settings.fluid;
var truncateRight = !!settings.truncate_text_right;
var staticWidth = +root.getAttribute("width") || +settings.width || 1200;
var height = +root.getAttribute("height") || 0;
var standalone = root === document.documentElement;

var HIDE = 0;
var SHOW = 1;
var PARENT = 2;

function init() {
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
    var framesEl = ui.frames;
    if (!framesEl) {
        return;
    }
    if (ui.bg) {
        bg = ui.bg;
    }

    /* ---- the frames ---------------------------------------------------------------- */
    var els = [];
    var rects = [];
    var texts = [];
    var tips = [];
    var names = [];
    var ys = [];
    var xs = [];
    var ws = [];
    var titleRe = /^([\s\S]*) \([0-9][0-9,]* [^,()]*, [0-9.]+%(?:; [^)]*)?\)$/;
    for (var g = framesEl.firstElementChild; g; g = g.nextElementSibling) {
        var holder = g;
        var parts = childParts(holder);
        if (!parts.rect && holder.firstElementChild && !holder.firstElementChild.nextElementSibling) {
            /* an <a> wrapping the frame's <g> (or the other way round) */
            holder = holder.firstElementChild;
            parts = childParts(holder);
        }
        if (!parts.rect) {
            continue;
        }
        var tip = parts.title ? parts.title.textContent : "";
        var m = titleRe.exec(tip);
        els.push(g);
        rects.push(parts.rect);
        texts.push(parts.text);
        tips.push(tip);
        names.push(m ? m[1] : tip);
        xs.push(+parts.rect.getAttribute("fg:x") || 0);
        ws.push(+parts.rect.getAttribute("fg:w") || 0);
        ys.push(+parts.rect.getAttribute("y") || 0);
    }
    var n = els.length;
    var X = new Float64Array(xs);
    var Wd = new Float64Array(ws);
    var D = new Int32Array(n);
    var ASCII = new Uint8Array(n);
    var BYTES = new Float64Array(n);
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
        var nm = names[i];
        var bytes = utf8Length(nm);
        BYTES[i] = bytes;
        ASCII[i] = bytes === nm.length ? 1 : 0;
        if (D[i] === 0 && rootIndex < 0) {
            rootIndex = i;
        }
    }

    /* what the DOM shows now, so that a repaint writes only what changes */
    var shownState = new Uint8Array(n);
    var shownX = new Array(n);
    var shownW = new Array(n);
    var shownLabel = new Array(n);
    var shownTextX = new Array(n);
    var origFill = new Array(n);
    var highlighted = new Uint8Array(n);
    for (i = 0; i < n; i++) {
        var cls = els[i].getAttribute("class") || "";
        shownState[i] = /(^|\s)hide(\s|$)/.test(cls) ? HIDE : /(^|\s)parent(\s|$)/.test(cls) ? PARENT : SHOW;
        shownX[i] = rects[i].getAttribute("x");
        shownW[i] = rects[i].getAttribute("width");
        shownLabel[i] = texts[i] ? texts[i].textContent : "";
        shownTextX[i] = texts[i] ? texts[i].getAttribute("x") : null;
        origFill[i] = rects[i].getAttribute("fill");
        els[i].setAttribute("tabindex", "0");
    }

    /* ---- our own UI bits: ignore-case toggle and styles ------------------------------- */
    var style = document.createElementNS(SVGNS, "style");
    style.setAttribute("id", P + "-jsstyle");
    var R = "#" + P + "-root";
    style.textContent =
        R + " #" + P + "-ignorecase { text-anchor:end; cursor:pointer; opacity:0.35; }\n" +
        R + " #" + P + "-ignorecase:hover, " + R + " #" + P + "-ignorecase.show { opacity:1; }\n" +
        R + " #" + P + "-search.show { opacity:1; }\n" +
        R + " #" + P + "-frames > *, " + R + " > text { outline:none; }\n" +
        R + " > text:focus-visible { text-decoration:underline; }\n" +
        R + " #" + P + "-frames > *:focus-visible > rect, " + R + " #" + P + "-frames > *:focus-visible > g > rect { stroke:black; stroke-width:1.5; }\n" +
        "@media (prefers-color-scheme: dark) {\n" +
        "  " + R + " { background-color:#1b1b1f; color-scheme:dark; }\n" +
        "  " + R + " > .fs-bg { fill:#1b1b1f; }\n" +
        "  " + R + " > text { fill:#e6e6e6; }\n" +
        "  " + R + " #" + P + "-frames > *:hover > rect, " + R + " #" + P + "-frames > *:focus-visible > rect { stroke:#ffffff; }\n" +
        "}\n";
    root.insertBefore(style, script && script.parentNode === root ? script : root.firstChild);
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
    var zoomed = -1;               /* frame index zoomed to, -1 for none */
    var searchTerm = null;
    var ignoreCase = false;

    /* ---- painting ---------------------------------------------------------------------- */
    function labelFor(i, pct) {
        if (i === rootIndex || !texts[i]) {
            return "";
        }
        var fit = Math.floor(pct / ((100 * fontsize * fontwidth) / W));
        if (fit < 3) {
            return "";
        }
        var nm = names[i];
        if (BYTES[i] < fit) {
            return nm;
        }
        var keep = fit - 2;
        if (ASCII[i]) {
            return truncateRight ? ".." + nm.slice(nm.length - keep) : nm.slice(0, keep) + "..";
        }
        var cps = Array.from(nm);
        if (keep >= cps.length) {
            return nm;
        }
        return truncateRight ? ".." + cps.slice(cps.length - keep).join("") : cps.slice(0, keep).join("") + "..";
    }

    function paint() {
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
        var labelOffset = 300 / W;
        for (var i = 0; i < n; i++) {
            var x = X[i];
            var end = x + Wd[i];
            var state;
            var px;
            var pw;
            if (D[i] < zd) {
                if (x <= zx && end >= zend) {
                    state = PARENT;
                    px = 0;
                    pw = 100;
                } else {
                    state = HIDE;
                }
            } else if (x >= zx && end <= zend) {
                state = SHOW;
                px = (x - zx) * scale;
                pw = (end - zx) * scale - px;
            } else {
                state = HIDE;
            }
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
            var sx = px.toFixed(4) + "%";
            var sw = pw.toFixed(4) + "%";
            if (sx !== shownX[i]) {
                rects[i].setAttribute("x", sx);
                shownX[i] = sx;
            }
            if (sw !== shownW[i]) {
                rects[i].setAttribute("width", sw);
                shownW[i] = sw;
            }
            /* labels: most frames of a big graph have none; an empty <text> is left alone
             * (its x is brought up to date when it gets a label) */
            var label = labelFor(i, pw);
            if (label !== "") {
                var tx = (px + labelOffset).toFixed(4) + "%";
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
        if (ui.unzoom) {
            ui.unzoom.classList.toggle("hide", zoomed < 0);
        }
    }

    /* ---- width ------------------------------------------------------------------------- */
    function measureWidth() {
        if (!fluid) {
            return staticWidth;
        }
        root.setAttribute("width", "100%");
        var w = root.getBoundingClientRect().width;
        var parent = root.parentElement;
        if (!standalone && parent) {
            /* A container that sizes itself to its content (inline-block, float, flex item,
             * table cell) would give a percentage width nothing to hold on to, leaving the
             * 300 px default of a sizeless inline SVG: keep the static width there. */
            var p1 = parent.getBoundingClientRect().width;
            root.setAttribute("width", String(staticWidth));
            var p2 = parent.getBoundingClientRect().width;
            if (Math.abs(p1 - p2) > 0.5) {
                return staticWidth;
            }
            root.setAttribute("width", "100%");
        }
        if (!(w >= 1)) {
            /* not laid out (display:none, detached): keep what the file says */
            root.setAttribute("width", String(staticWidth));
            return staticWidth;
        }
        return w;
    }

    function layout() {
        var w = measureWidth();
        var changed = Math.abs(w - W) > 0.01;
        W = w;
        if (fluid) {
            root.setAttribute("viewBox", "0 0 " + fmt(W) + " " + height);
            framesEl.setAttribute("width", fmt(Math.max(W - 2 * xpad, 1)));
            if (ui.search) {
                ui.search.setAttribute("x", fmt(W - xpad));
            }
            if (ui.matched) {
                ui.matched.setAttribute("x", fmt(W - xpad));
            }
        }
        if (icEl) {
            var searchWidth = ui.search ? ui.search.textContent.length * fontsize * fontwidth : 40;
            icEl.setAttribute("x", fmt(W - xpad - searchWidth - fontsize));
        }
        return changed;
    }

    var layoutPending = false;
    function onResize() {
        if (layoutPending) {
            return;
        }
        layoutPending = true;
        requestAnimationFrame(function () {
            layoutPending = false;
            if (layout()) {
                paint();
            }
        });
    }

    /* ---- details line -------------------------------------------------------------------- */
    function showDetails(i) {
        if (ui.details) {
            ui.details.textContent = i < 0 ? " " : nametype + " " + tips[i];
        }
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
        if (f == null) {
            rects[i].removeAttribute("fill");
        } else {
            rects[i].setAttribute("fill", f);
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
            var hit = i !== rootIndex && re.test(names[i]);
            if (hit) {
                hits.push(i);
                if (!highlighted[i]) {
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
    function saveState() {
        if (!standalone || restoring || !window.history || !window.history.replaceState) {
            return;
        }
        try {
            var params = new URLSearchParams(window.location.search);
            ["x", "y", "s", "i"].forEach(function (k) {
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
        restoring = false;
    }

    /* ---- events (all on our own elements) ------------------------------------------------ */
    function frameOf(target) {
        for (var t = target; t && t !== framesEl; t = t.parentNode) {
            if (t.parentNode === framesEl) {
                var i = index.get(t);
                return i == null ? -1 : i;
            }
        }
        return -1;
    }

    framesEl.addEventListener("mouseover", function (e) {
        var i = frameOf(e.target);
        if (i >= 0) {
            showDetails(i);
        }
    });
    framesEl.addEventListener("mouseout", function (e) {
        if (frameOf(e.relatedTarget) < 0) {
            showDetails(-1);
        }
    });
    framesEl.addEventListener("focusin", function (e) {
        var i = frameOf(e.target);
        if (i >= 0) {
            showDetails(i);
        }
    });
    framesEl.addEventListener("focusout", function () {
        showDetails(-1);
    });
    framesEl.addEventListener("click", function (e) {
        var i = frameOf(e.target);
        if (i < 0) {
            return;
        }
        if (els[i].localName === "a" && (e.ctrlKey || e.metaKey || e.shiftKey)) {
            return; /* let a link open elsewhere */
        }
        zoom(i);
    });

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
        if (key === "F3" || ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "f" || key === "F"))) {
            e.preventDefault();
            askSearch();
        } else if (key === "Escape" || key === "Esc") {
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
            if (i >= 0 && !(key === "Enter" && els[i].localName === "a")) {
                e.preventDefault();
                zoom(i);
            }
        }
    });

    if (fluid) {
        if (typeof ResizeObserver === "function") {
            var ro = new ResizeObserver(onResize);
            ro.observe(root);
            if (!standalone && root.parentElement) {
                ro.observe(root.parentElement);
            }
        }
    }

    root.foldsvg = {
        frames: n,
        zoom: function (el) {
            var i = el == null ? -1 : typeof el === "number" ? el : index.get(el);
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
                zoomed: zoomed >= 0 ? names[zoomed] : null,
                search: searchTerm,
                ignoreCase: ignoreCase,
                width: W
            };
        }
    };

    layout();
    paint();
    restoreState();
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

function utf8Length(s) {
    var bytes = 0;
    for (var i = 0; i < s.length; i++) {
        var c = s.charCodeAt(i);
        if (c < 0x80) {
            bytes += 1;
        } else if (c < 0x800) {
            bytes += 2;
        } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
            bytes += 4;
            i++;
        } else {
            bytes += 3;
        }
    }
    return bytes;
}

function fmt(v) {
    return String(Math.round(v * 100) / 100);
}

/* The root's later children are parsed after this script runs: start once the root has
 * loaded (the SVG load event, fired for standalone files and inline SVGs alike), or at once
 * when the frames are already there (a script run again after the SVG was inserted). */
var haveFrames = false;
for (var child = script.nextElementSibling; child; child = child.nextElementSibling) {
    if (child.getAttribute("id") === P + "-frames") {
        haveFrames = true;
    }
}
if (haveFrames) {
    init();
} else {
    root.addEventListener("load", init, { once: true });
}
