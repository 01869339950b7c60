/* Small DOM helpers, in graph()'s scope (graph.js). */

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

function setAttr(el, name, value) {
    if (el.getAttribute(name) !== value) {
        el.setAttribute(name, value);
    }
}

function fmt(v) {
    return String(Math.round(v * 100) / 100);
}
