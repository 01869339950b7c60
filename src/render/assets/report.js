/*
 * The HTML report's script (src/render/report.c inlines it at the end of the body): a click
 * on a function name in a table highlights that function in the flamegraph of the same
 * section, through the object the SVG's own script leaves on its root element
 * (root.foldsvg.search / clearSearch, see flamegraph.js). A second click clears it. Names
 * too long for their cell are marked (.fs-elided: report.css shows them whole on hover and
 * focus), again whenever a table changes width.
 * ES2017, no globals, no network.
 */
(function () {
    "use strict";

    function escapeRegExp(s) {
        return s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
    }

    function graphOf(section) {
        var root = section && section.querySelector(".fs-graph svg[id$='-root']");
        return root && root.foldsvg ? root : null;
    }

    function clearActive(section) {
        var rows = section.querySelectorAll("tr.fs-active");
        for (var i = 0; i < rows.length; i++) {
            rows[i].classList.remove("fs-active");
        }
    }

    function shownWhole(b) {
        if (!b.classList.contains("fs-elided")) {
            return false;
        }
        if (b.matches(":hover")) {
            return true;
        }
        try {
            return b.matches(":focus-visible");
        } catch (e) {
            return false; /* a browser without :focus-visible */
        }
    }

    /* all read first, then all written: one layout */
    function markElided() {
        var names = document.querySelectorAll("button.fs-fn");
        var elided = [];
        for (var i = 0; i < names.length; i++) {
            /* one shown whole now cannot be measured: it stays marked */
            elided.push(shownWhole(names[i]) || names[i].scrollWidth > names[i].clientWidth);
        }
        for (i = 0; i < names.length; i++) {
            names[i].classList.toggle("fs-elided", elided[i]);
        }
    }

    if (typeof ResizeObserver === "function") {
        var ro = new ResizeObserver(markElided);
        var tables = document.querySelectorAll("table.fs-top");
        for (var t = 0; t < tables.length; t++) {
            ro.observe(tables[t]);
        }
    } else {
        markElided();
        window.addEventListener("resize", markElided);
    }
    if (document.fonts && document.fonts.addEventListener) {
        document.fonts.addEventListener("loadingdone", markElided);
    }

    document.addEventListener("click", function (e) {
        var button = e.target && e.target.closest ? e.target.closest("button.fs-fn") : null;
        if (!button) {
            return;
        }
        var section = button.closest(".fs-section");
        var root = graphOf(section);
        if (!root) {
            return;
        }
        var row = button.closest("tr");
        var name = button.getAttribute("data-fn");
        var wasActive = row.classList.contains("fs-active");
        var activeName = section.getAttribute("data-fs-search");
        clearActive(section);
        if (wasActive || activeName === name) {
            section.removeAttribute("data-fs-search");
            root.foldsvg.clearSearch();
            return;
        }
        /* the whole name, literally: the flamegraph's search takes a regular expression */
        root.foldsvg.search("^" + escapeRegExp(name) + "$");
        section.setAttribute("data-fs-search", name);
        var same = section.querySelectorAll("button.fs-fn");
        for (var i = 0; i < same.length; i++) {
            if (same[i].getAttribute("data-fn") === name) {
                same[i].closest("tr").classList.add("fs-active");
            }
        }
        var graph = section.querySelector(".fs-graph");
        var box = graph.getBoundingClientRect();
        if (box.bottom < 0 || box.top > window.innerHeight) {
            graph.scrollIntoView({ block: "nearest", behavior: "smooth" });
        }
    });
})();
