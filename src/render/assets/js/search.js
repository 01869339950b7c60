/* Search, in start()'s scope (graph.js): a regular expression, from the prompt of Search
 * (Ctrl+F, F3) or the URL, highlights the frames whose names match and says the share of
 * the total they cover; "ic" toggles case. */
var origFill = new Array(n);
var highlighted = new Uint8Array(n);

var searchTerm = null;
var ignoreCase = false;

function clearHighlights() {
    for (var i = 0; i < n; i++) {
        if (highlighted[i]) {
            setFill(i, origFill[i]);
            highlighted[i] = 0;
        }
    }
}

function setFill(i, f) {
    setRectFill(rects[i], f);
    if (copyOf[i]) {
        setRectFill(copyOf[i], f);
    }
}

function setRectFill(r, f) {
    if (f == null) {
        r.removeAttribute("fill");
    } else {
        r.setAttribute("fill", f);
    }
}

function search(term) {
    if (term == null || term === "") {
        resetSearch();
        return;
    }
    var re;
    try {
        re = new RegExp(term, ignoreCase ? "i" : "");
    } catch (e) {
        clearHighlights();
        searchTerm = null;
        if (ui.search) {
            ui.search.classList.remove("show");
        }
        if (ui.matched) {
            ui.matched.textContent = "Invalid regular expression";
        }
        saveState();
        return;
    }
    searchTerm = term;
    var hits = [];
    for (var i = 0; i < n; i++) {
        var hit = i !== rootIndex && re.test(nameOf(i));
        if (hit) {
            hits.push(i);
            if (!highlighted[i]) {
                if (origFill[i] === undefined) {
                    origFill[i] = rects[i].getAttribute("fill");
                }
                setFill(i, searchcolor);
                highlighted[i] = 1;
            }
        } else if (highlighted[i]) {
            setFill(i, origFill[i]);
            highlighted[i] = 0;
        }
    }
    /* the share of the total covered by matches, nested matches counted once */
    hits.sort(function (a, b) {
        return X[a] - X[b];
    });
    var covered = 0;
    var reach = -1;
    for (var k = 0; k < hits.length; k++) {
        var s = X[hits[k]];
        var e = s + Wd[hits[k]];
        if (e <= reach) {
            continue;
        }
        covered += e - Math.max(s, reach);
        reach = e;
    }
    var pct = (100 * covered) / total;
    if (ui.search) {
        ui.search.classList.add("show");
    }
    if (ui.matched) {
        ui.matched.textContent = "Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) + "%";
    }
    saveState();
}

function resetSearch() {
    clearHighlights();
    searchTerm = null;
    if (ui.search) {
        ui.search.classList.remove("show");
    }
    if (ui.matched) {
        ui.matched.textContent = " ";
    }
    saveState();
}

function askSearch() {
    var term = window.prompt(
        "Search for a regular expression" + (ignoreCase ? " (ignoring case)" : "") +
            " (press Escape to cancel)",
        searchTerm || ""
    );
    if (term != null) {
        search(term);
    }
}

function toggleIgnoreCase() {
    ignoreCase = !ignoreCase;
    if (icEl) {
        icEl.classList.toggle("show", ignoreCase);
    }
    if (searchTerm != null) {
        search(searchTerm);
    } else {
        saveState();
    }
}
