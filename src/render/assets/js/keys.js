/* The keys, in start()'s scope (graph.js): Ctrl+F or F3 opens the search box, Escape resets (or closes
 * the views), Enter or Space on a frame zooms (Shift+Enter: the views), the arrows and Home
 * move among the frames (arrows.js). */
root.addEventListener("keydown", function (e) {
    var key = e.key;
    if (e.defaultPrevented) {
        return; /* done by a graph inside this one (the views) */
    }
    if (key === "F3" || ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "f" || key === "F"))) {
        e.preventDefault();
        openBox();
    } else if (key === "Escape" || key === "Esc") {
        //#if views
        if (viewsEl && (viewsEl.contains(e.target) || (zoomed < 0 && searchTerm == null))) {
            e.preventDefault();
            hideViews(false);
            return;
        }
        //#endif
        if (zoomed >= 0 || searchTerm != null) {
            e.preventDefault();
        }
        if (zoomed >= 0) {
            zoom(-1);
        }
        if (searchTerm != null) {
            resetSearch();
        }
        closeBox();
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
