/* The URL state of a standalone file, in start()'s scope (graph.js): the zoom (x, y), the
 * search (s) and ignore-case (i), with the views the function they show (sandwich). */
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
        //#if views
        if (viewsName != null) {
            params.set("sandwich", viewsName);
        }
        //#endif
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
        search(params.get("s"), "text"); /* never a regular expression: see search.js */
    }
    //#if views
    if (params.has("sandwich")) {
        showViews(params.get("sandwich"));
    }
    //#endif
    restoring = false;
}
