/* root.foldsvg, in start()'s scope (graph.js): what a page (the HTML report, a test) may ask
 * of the graph. */
root.foldsvg = {
    frames: n,
    countname: countname,
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
            searching: pending != null,
            ignoreCase: ignoreCase,
            width: W
        };
    },
    //#if views
    /* what Shift+click (Shift+Enter) on a frame does with the frame's name: by default
     * the views below the graph; a page (the HTML report) may put its own here */
    onviews: given ? null : showViews,
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
    }
    //#endif
};
