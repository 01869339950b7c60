/* The layers, in graph()'s scope (graph.js): P-frames in a <foreignObject><div> of its own,
 * and the zoom layer; how the script starts (init, start in graph.js).
 *
 * In a browser, any change inside one SVG makes it repaint every element of that SVG, and
 * showing or hiding tens of thousands of elements restyles each of them. So the script
 *   - moves P-frames, while it is being parsed and before anything is drawn, into a
 *     <foreignObject><div> of its own: an SVG of its own, painted (and cached) apart from
 *     the details line, Search, and so on, in a composited layer (will-change: opacity),
 *     not drawn (display:none) until the start has labelled its frames: the page would
 *     otherwise style, lay out and paint the frames parsed so far after each chunk the
 *     parser reads, and the start's measures would lay them all out;
 *   - adds a second such layer on top, the zoom layer <svg id="P-zoom">, empty at first
 *     (zoomlayer.js);
 *   - adds a third, never seen: the font probe (meter.js). */
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
