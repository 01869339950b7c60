/* Drawing a view: a flame graph of its own, made as the writer makes one and driven by graph()
 * (graph()'s scope, only with the views; see views/stacks.js). */

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
