/* The width, in start()'s scope (graph.js): a fluid SVG (no --width) follows its container;
 * any SVG is measured again when resized or scaled, and when fonts load. */
var W = staticWidth;           /* the image width in px */
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
    placeBox();
    placeLegend();
}

/* A differential graph's legend (the writer's P-legend) ends left of the controls; it is
 * hidden where it would run into the title, and under the search box. */
function placeLegend() {
    if (!ui.legend) {
        return;
    }
    var right = (icEl ? +icEl.getAttribute("x") - meter.width("ic") : W - xpad - 5 * fontsize) - fontsize;
    setAttr(ui.legend, "x", fmt(right));
    var titleHalf = ui.title ? (meter.width(ui.title.textContent) * (fontsize + 5)) / fontsize / 2 : 0;
    var fits = right - meter.width(ui.legend.textContent) > W / 2 + titleHalf + fontsize;
    ui.legend.classList.toggle("hide", !fits || boxOpen());
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
