/* Search, in start()'s scope (graph.js): a box in the graph (opened by Search, Ctrl+F or F3)
 * highlights the frames whose names hold its text and says the share of the total they
 * cover, nested matches counted once; "ic" toggles case, ".*" reads the text as a regular
 * expression. The box's expressions run in a worker given SLOW ms, so that none can stall
 * the page (a backtracking one such as ^(\w+)*$! takes seconds on a long name, twice as long
 * with each character); a term from the URL is text, so that a link cannot run one.
 * root.foldsvg.search(term) is the page's own: a regular expression, run here. */
var origFill = new Array(n);
var highlighted = new Uint8Array(n);

var searchTerm = null;
var searchHow = null; /* how searchTerm was read: "text", "worker" or null (the page's) */
var ignoreCase = false;
var useRegex = false; /* the box's ".*" */
var SLOW = 1500;
var worker = null;
var pending = null; /* the term the worker is asked about */
var slowTimer = 0;

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

function say(text) {
    if (ui.matched) {
        ui.matched.textContent = text;
    }
}

/* TERM (read HOW) found in the frames I for which HIT(I) is true */
function mark(term, how, hit) {
    searchTerm = term;
    searchHow = how;
    var hits = [];
    for (var i = 0; i < n; i++) {
        if (i !== rootIndex && hit(i)) {
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
    say("Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) + "%");
    saveState();
}

function failed(text) {
    clearHighlights();
    searchTerm = null;
    if (ui.search) {
        ui.search.classList.remove("show");
    }
    say(text);
    saveState();
}

function stopWorker() {
    clearTimeout(slowTimer);
    if (worker && pending) {
        worker.terminate();
        worker = null;
    }
    pending = null;
}

/* TERM read HOW: "text" (literally), "worker" (a regular expression, time-boxed) or, by
 * default, a regular expression run here */
function search(term, how) {
    stopWorker();
    if (term == null || term === "") {
        resetSearch();
        return;
    }
    if (how === "text") {
        var t = ignoreCase ? term.toLowerCase() : term;
        mark(term, how, function (i) {
            var s = nameOf(i);
            return (ignoreCase ? s.toLowerCase() : s).indexOf(t) >= 0;
        });
        return;
    }
    var re;
    try {
        re = new RegExp(term, ignoreCase ? "i" : "");
    } catch (e) {
        failed("Invalid regular expression");
        return;
    }
    if (how === "worker") {
        inWorker(term);
    } else {
        mark(term, null, function (i) {
            return re.test(nameOf(i));
        });
    }
}

function inWorker(term) {
    try {
        if (!worker) {
            worker = new Worker(URL.createObjectURL(new Blob([
                "var names;onmessage=function(e){var d=e.data;if(d.names){names=d.names;return}" +
                "var re=new RegExp(d.term,d.flags),h=new Uint8Array(names.length);" +
                "for(var i=0;i<h.length;i++)h[i]=re.test(names[i])?1:0;postMessage(h)}"
            ], { type: "text/javascript" })));
            var names = [];
            for (var i = 0; i < n; i++) {
                names.push(nameOf(i));
            }
            worker.postMessage({ names: names });
        }
    } catch (e) {
        failed("Regular expressions need workers");
        return;
    }
    pending = term;
    worker.onmessage = function (e) {
        clearTimeout(slowTimer);
        pending = null;
        mark(term, "worker", function (i) {
            return e.data[i] === 1;
        });
    };
    worker.postMessage({ term: term, flags: ignoreCase ? "i" : "" });
    slowTimer = setTimeout(function () {
        stopWorker();
        failed("Regular expression too slow");
    }, SLOW);
}

function resetSearch() {
    stopWorker();
    clearHighlights();
    searchTerm = null;
    if (ui.search) {
        ui.search.classList.remove("show");
    }
    say(" ");
    saveState();
}

function toggleIgnoreCase() {
    ignoreCase = !ignoreCase;
    if (icEl) {
        icEl.classList.toggle("show", ignoreCase);
    }
    if (searchTerm != null) {
        search(searchTerm, searchHow);
    } else {
        saveState();
    }
}

/* The box: a text field and the ".*" toggle, left of "ic" */
var box = null;
var boxInput = null;
var boxRe = null;

function boxSearch() {
    search(boxInput.value, useRegex ? "worker" : "text");
}

function openBox() {
    if (!box) {
        box = document.createElementNS(SVGNS, "foreignObject");
        box.setAttribute("id", P + "-searchbox");
        box.setAttribute("height", fmt(1.8 * fontsize));
        var div = document.createElementNS(XHTMLNS, "div");
        div.setAttribute("style", "display:flex;margin:0;padding:0;height:100%");
        boxInput = document.createElementNS(XHTMLNS, "input");
        boxInput.setAttribute("placeholder", "Search frames");
        boxInput.setAttribute("aria-label", "Search frames");
        boxInput.setAttribute("style", "flex:1;min-width:0;font-size:" + fontsize + "px");
        boxRe = document.createElementNS(XHTMLNS, "button");
        boxRe.textContent = ".*";
        boxRe.setAttribute("title", "Regular expression (toggle)");
        boxRe.setAttribute("aria-pressed", "false");
        div.appendChild(boxInput);
        div.appendChild(boxRe);
        box.appendChild(div);
        root.insertBefore(box, icEl || ui.search);
        boxInput.addEventListener("input", boxSearch);
        boxInput.addEventListener("keydown", function (e) {
            e.stopPropagation(); /* the graph's keys are not for the box */
            if (e.key === "Escape" || e.key === "Esc") {
                e.preventDefault();
                closeBox();
                resetSearch();
            } else if (e.key === "Enter") {
                e.preventDefault();
                boxSearch();
            }
        });
        boxRe.addEventListener("click", function (e) {
            e.stopPropagation();
            useRegex = !useRegex;
            boxRe.setAttribute("aria-pressed", String(useRegex));
            boxRe.style.fontWeight = useRegex ? "bold" : "";
            boxSearch();
        });
        placeBox();
    }
    box.removeAttribute("display");
    placeLegend();
    if (searchTerm != null && boxInput.value !== searchTerm) {
        boxInput.value = searchTerm;
    }
    boxInput.focus();
    boxInput.select();
}

function closeBox() {
    if (boxOpen()) {
        var had = box.contains(document.activeElement);
        box.setAttribute("display", "none");
        placeLegend();
        if (had && ui.search) {
            ui.search.focus(); /* the focus goes back where the box was opened */
        }
    }
}

function boxOpen() {
    return !!box && !box.hasAttribute("display");
}

function placeBox() {
    if (box) {
        var w = Math.min(20 * fontsize, W / 3);
        var right = icEl ? +icEl.getAttribute("x") - 2 * fontsize : W - xpad - 5 * fontsize;
        box.setAttribute("x", fmt(right - w));
        box.setAttribute("y", fmt(0.65 * fontsize));
        box.setAttribute("width", fmt(w));
    }
}
