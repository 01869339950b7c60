/*
 * The HTML report's script (src/render/report.c inlines it at the end of the body). A click
 * on a function name in a table, or Shift+click on a frame of the flamegraph, opens the
 * views of that function below the section's flamegraph: its callees and its callers,
 * two flamegraphs that the SVG's own script computes and draws (root.foldsvg.sandwich, see
 * flamegraph.js) from the section's stacks (<script type="application/json"
 * class="fs-stacks">, render/stackdata.h). A second click on the name, Close or Escape
 * closes them and takes the focus back where it was. The view is in the URL: #sandwich=NAME
 * (NAME URL-encoded; for a section other than the page's first, &section=ID), so a link
 * opens it directly. A section without stacks (the diff report's) highlights a clicked name
 * in its flamegraph instead (root.foldsvg.search / clearSearch); a second click clears it.
 * Names too long for their cell are marked (.fs-elided: report.css shows them whole on hover
 * and focus), again whenever a table changes width.
 *
 * Each copy of this script drives the sections it finds that no other copy drives, so a page
 * holding two reports' sections keeps them apart. ES2017, no globals, no network.
 */
(function () {
    "use strict";

    var mine = [];

    function svgOf(section) {
        var root = section && section.querySelector(":scope > .fs-graph > svg[id$='-root']");
        return root && root.foldsvg ? root : null;
    }

    function graphOf(section) {
        var root = svgOf(section);
        return root && root.foldsvg.sandwich ? root : null;
    }

    function hasStacks(section) {
        return !!section.querySelector(":scope > script.fs-stacks");
    }

    function stacksOf(section) {
        if (section.fsStacks === undefined) {
            var el = section.querySelector(":scope > script.fs-stacks");
            try {
                section.fsStacks = el ? JSON.parse(el.textContent) : null;
            } catch (e) {
                section.fsStacks = null;
            }
        }
        return section.fsStacks;
    }

    function make(tag, cls, text) {
        var el = document.createElement(tag);
        if (cls) {
            el.className = cls;
        }
        if (text != null) {
            el.textContent = text;
        }
        return el;
    }

    function markRows(section, name) {
        var buttons = section.querySelectorAll("button.fs-fn");
        for (var i = 0; i < buttons.length; i++) {
            var row = buttons[i].closest("tr"); /* none for the names in "What stands out" */
            if (row) {
                row.classList.toggle("fs-active", name != null && buttons[i].getAttribute("data-fn") === name);
            }
        }
    }

    function escapeRegExp(s) {
        return s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
    }

    /* a section without stacks: the name found in its flamegraph, or (again) no longer */
    function highlight(section, name) {
        var root = svgOf(section);
        if (!root) {
            return;
        }
        if (section.getAttribute("data-fs-search") === name) {
            section.removeAttribute("data-fs-search");
            markRows(section, null);
            root.foldsvg.clearSearch();
            return;
        }
        /* the whole name, literally: the flamegraph's search takes a regular expression */
        root.foldsvg.search("^" + escapeRegExp(name) + "$");
        section.setAttribute("data-fs-search", name);
        markRows(section, name);
        var graph = section.querySelector(":scope > .fs-graph");
        var box = graph.getBoundingClientRect();
        if (box.bottom < 0 || box.top > window.innerHeight) {
            graph.scrollIntoView({ block: "nearest", behavior: "smooth" });
        }
    }

    /* ---- the URL: #sandwich=NAME[&section=ID] ------------------------------------------ */
    function hashParams() {
        var out = {};
        var h = window.location.hash.replace(/^#/, "");
        h.split("&").forEach(function (kv) {
            var eq = kv.indexOf("=");
            if (eq > 0) {
                try {
                    /* '+' is a plus (operator+), not a space: no form decoding */
                    out[kv.slice(0, eq)] = decodeURIComponent(kv.slice(eq + 1));
                } catch (e) {
                    /* a bad escape: the parameter is ignored */
                }
            }
        });
        return out;
    }

    function firstSection() {
        return document.querySelector(".fs-section");
    }

    function writeHash(section, name) {
        var h = "";
        if (name != null) {
            h = "sandwich=" + encodeURIComponent(name);
            if (section !== firstSection() && section.id) {
                h += "&section=" + encodeURIComponent(section.id);
            }
        }
        var url = window.location.pathname + window.location.search + (h ? "#" + h : "");
        /* after the frame: replaceState takes a while with a big page */
        requestAnimationFrame(function () {
            setTimeout(function () {
                try {
                    if (url !== window.location.pathname + window.location.search + window.location.hash) {
                        window.history.replaceState(window.history.state, "", url);
                    }
                } catch (e) {
                    /* an opaque location (sandboxed frame): the view works without the URL */
                }
            }, 0);
        });
    }

    function applyHash() {
        var p = hashParams();
        var target = p.section ? document.getElementById(p.section) : firstSection();
        mine.forEach(function (section) {
            if (p.sandwich != null && section === target) {
                if (section.fsViews !== p.sandwich) {
                    open(section, p.sandwich, { fromUrl: true });
                }
            } else if (section.fsViews != null) {
                close(section, { fromUrl: true });
            }
        });
    }

    /* ---- the views ---------------------------------------------------------------------- */
    function panelOf(section) {
        var panel = section.querySelector(":scope > .fs-views");
        if (panel) {
            return panel;
        }
        panel = make("div", "fs-views");
        panel.setAttribute("role", "region");
        var bar = make("div", "fs-views-bar");
        var title = make("h3", "fs-views-title");
        var facts = make("span", "fs-views-facts");
        var shut = make("button", "fs-views-close", "Close");
        shut.type = "button";
        shut.title = "Back to the flamegraph (Escape)";
        shut.addEventListener("click", function () {
            close(section, {});
        });
        bar.appendChild(title);
        bar.appendChild(facts);
        bar.appendChild(shut);
        panel.appendChild(bar);
        ["callees", "callers"].forEach(function (v) {
            var host = make("div", "fs-graph fs-view");
            host.setAttribute("data-view", v);
            panel.appendChild(host);
        });
        var graph = section.querySelector(":scope > .fs-graph");
        section.insertBefore(panel, graph.nextSibling);
        return panel;
    }

    function open(section, name, opts) {
        var root = graphOf(section);
        var data = root && stacksOf(section);
        if (!data) {
            return false;
        }
        var existed = !!section.querySelector(":scope > .fs-views");
        var graph = section.querySelector(":scope > .fs-graph");
        /* measured while the layout is clean (before anything changes): the views' hosts
         * are as wide as the flamegraph's box inside its border */
        var width = graph.clientWidth;
        if (!existed) {
            section.fsOpener = document.activeElement;
        }
        var panel = panelOf(section);
        var v = root.foldsvg.sandwich(name, {
            data: data,
            callees: panel.querySelector("[data-view='callees']"),
            callers: panel.querySelector("[data-view='callers']"),
            fluid: true,
            hostWidth: width
        });
        if (!v) {
            if (!existed) {
                section.removeChild(panel);
            }
            return false;
        }
        var title = panel.querySelector(".fs-views-title");
        title.textContent = "Callers and callees of ";
        title.appendChild(make("code", null, name));
        panel.querySelector(".fs-views-facts").textContent = root.foldsvg.facts(v);
        panel.setAttribute("aria-label", "Callers and callees of " + name);
        [v.callees, v.callers].forEach(function (sub) {
            if (sub.foldsvg) {
                sub.foldsvg.onviews = function (nm) {
                    open(section, nm, { focus: true });
                };
            }
        });
        section.fsViews = name;
        markRows(section, name);
        if (!opts.fromUrl) {
            writeHash(section, name);
        }
        requestAnimationFrame(function () {
            /* after the frame is laid out: asking now would lay it out before it is done */
            var box = panel.getBoundingClientRect();
            if (box.top < 0 || box.top > window.innerHeight) {
                panel.scrollIntoView({ block: "start" });
            }
        });
        if (opts.focus) {
            panel.querySelector(".fs-views-close").focus({ preventScroll: true });
        }
        return true;
    }

    function close(section, opts) {
        var panel = section.querySelector(":scope > .fs-views");
        if (panel) {
            var had = panel.contains(document.activeElement);
            section.removeChild(panel);
            var back = section.fsOpener;
            section.fsOpener = null;
            if (had && back && back.isConnected && back !== document.body && back.focus) {
                back.focus();
            }
        }
        section.fsViews = null;
        markRows(section, null);
        if (!opts.fromUrl) {
            writeHash(section, null);
        }
    }

    /* ---- events ------------------------------------------------------------------------- */
    function bind(section) {
        section.fsBound = true;
        mine.push(section);
        var ready = function () {
            var root = graphOf(section);
            /* without stacks, Shift+click keeps the SVG's own views (drawn from its frames) */
            if (root && hasStacks(section)) {
                root.foldsvg.onviews = function (name) {
                    open(section, name, { focus: true });
                };
                /* the stacks read while the page is idle, not on the first click */
                var idle = window.requestIdleCallback || function (fn) {
                    return setTimeout(fn, 200);
                };
                idle(function () {
                    var data = stacksOf(section);
                    if (data && root.foldsvg.prepare) {
                        root.foldsvg.prepare(data);
                    }
                });
            }
        };
        var svg = section.querySelector(":scope > .fs-graph > svg[id$='-root']");
        if (svg && !svg.foldsvg) {
            svg.addEventListener("foldsvgready", function () {
                ready();
                applyHash();
            }, { once: true });
        }
        ready();
    }

    var found = document.querySelectorAll(".fs-section");
    for (var i = 0; i < found.length; i++) {
        if (!found[i].fsBound) {
            bind(found[i]);
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
        var names = document.querySelectorAll("table.fs-top button.fs-fn");
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
        var section = button && button.closest(".fs-section");
        if (!section || mine.indexOf(section) < 0) {
            return;
        }
        var name = button.getAttribute("data-fn");
        if (!hasStacks(section)) {
            highlight(section, name);
        } else if (section.fsViews === name) {
            close(section, {});
        } else {
            open(section, name, {});
        }
    });

    document.addEventListener("keydown", function (e) {
        if (e.defaultPrevented || (e.key !== "Escape" && e.key !== "Esc")) {
            return;
        }
        var section = e.target && e.target.closest ? e.target.closest(".fs-section") : null;
        if (!section || section.fsViews == null) {
            var open_ = mine.filter(function (s) {
                return s.fsViews != null;
            });
            section = open_.length === 1 ? open_[0] : null;
        }
        if (section && mine.indexOf(section) >= 0 && section.fsViews != null) {
            e.preventDefault();
            close(section, {});
        }
    });

    window.addEventListener("hashchange", applyHash);
    applyHash();
})();
