/* Our styles, in graph()'s scope (graph.js), in place before any frame is styled: a style
 * sheet added later restyles every frame of the page (a selector such as "#X-root text" makes
 * the browser restyle each text element). So, with the views, they hold from the start the
 * rules of the views this graph may draw (P-callees, P-callers: ours, and the writer's made
 * over for them); the views add none. */
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
        (darkColors ?
        R + " { background-color:light-dark(transparent, #1b1b1f); }\n" +
        R + " > text, " + R + " > .fs-views > text { fill:light-dark(" + uiLight + ", #e8e8e8); }\n" +
        R + " > .fs-outline { stroke:light-dark(black, #ffffff); }\n" : ""));
}

/* the UI texts' color (--uicolor) in the light scheme */
var uiLight = (function () {
    var t = root.querySelector("[id='" + P + "-title']");
    return (t && t.getAttribute("fill")) || "rgb(0,0,0)";
})();

var style = document.createElementNS(SVGNS, "style");
style.setAttribute("id", P + "-jsstyle");
/* each copy of the SVG on a page has its own (the same ids: its rules match every copy) */
if (!given && !(script && script.previousElementSibling &&
                script.previousElementSibling.getAttribute("id") === P + "-jsstyle")) {
    style.textContent = ourStyle(P);
    //#if views
    var writer = writerStyle();
    style.textContent += ["-callees", "-callers"].map(function (v) {
        return ourStyle(P + v) + writer.split("#" + P + "-").join("#" + P + v + "-");
    }).join("");
    //#endif
    root.insertBefore(style, script || root.firstChild);
}
