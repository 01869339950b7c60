/*
 * foldsvg flame graph script: hover details, click-to-zoom, search (a box: text or a time-boxed regular expression), URL state, fluid
 * width, dark mode (settings.theme: the page's or system's scheme, light or dark) and keyboard use, scoped to
 * the one <svg> it sits in; in an HTML report's SVGs, the callers and callees views too.
 *
 * This file and the ones it includes are joined and stripped of comments and white space at
 * build time (cmake/jsbundle.c): each line  //#include "FILE"  is replaced by FILE, whole
 * statements in the scope of the line; the lines between  //#if views  and  //#endif  are
 * kept only in the script of an HTML report's SVGs (the build's flamegraph_views.js; a
 * standalone SVG's is flamegraph.js). The result is the body of a function: src/render/script.c
 * writes, inside the <script>'s CDATA:
 *     (function () {
 *     "use strict";
 *     var settings = {...};      <- the settings block (kept by --no-javascript)
 *     <the joined script>        <- omitted by --no-javascript
 *     })();
 * so nothing here is global. Keep to ES2017: no modules, no top-level names. jsbundle fails
 * the build on what it cannot strip safely (see its comment) and on text that would end the
 * CDATA section early.
 *
 * All of it is the function graph(settings, root, given), run at once for the SVG the script
 * sits in, and, in a report, run again for each flame graph the views draw (the callers and
 * callees of a function, "sandwich": see views/draw.js): GIVEN then holds the numbers of the
 * frames drawn, so that nothing is read back from the DOM. Shift+click (Shift+Enter) on a
 * frame calls root.foldsvg.onviews with its name: by default the views below the graph in
 * this SVG; the HTML report puts its own there (report.js) and draws them from its stacks
 * through root.foldsvg.sandwich. Without the views (a standalone SVG) it zooms.
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
 * of elements restyles each of them. Hence the layers (layers.js, zoomlayer.js), the outline
 * drawn over the frames (details.js), and a start that reads only what a zoom needs
 * (frames.js) and a repaint that writes only what changed (paint.js).
 */
(function graph(settings, root, given) {
//#include "settings.js"
//#include "style.js"
//#include "layers.js"

function start() {
    if (root.foldsvg) {
        return;
    }
    //#include "frames.js"
    //#include "labels.js"
    //#include "controls.js"
    //#include "paint.js"
    //#include "zoomlayer.js"
    //#include "tabstop.js"
    //#include "arrows.js"
    //#include "width.js"
    //#include "details.js"
    //#include "search.js"
    //#include "urlstate.js"
    //#if views
    //#include "views/panel.js"
    //#endif
    //#include "events.js"
    //#include "keys.js"
    //#include "api.js"

    layout();
    remeasure();
    paint();
    restoreState();
    showFrames();
    if (typeof CustomEvent === "function") {
        root.dispatchEvent(new CustomEvent("foldsvgready"));
    }
}

//#if views
//#include "views/stacks.js"
//#include "views/sandwich.js"
//#include "views/layout.js"
//#include "views/draw.js"
//#endif
//#include "dom.js"
//#include "meter.js"

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
