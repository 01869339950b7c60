/* Painting, in start()'s scope (graph.js): what the view should show (target), and showing it
 * by rewriting the frames of P-frames (paintInPlace) or, when few of them stay in view, in
 * the zoom layer (zoomlayer.js); zoom(i) shows frame I's view.
 *
 * What P-frames shows now, so that an in-place repaint writes only what changes: the x
 * and width (in %) it was last painted for, the label fit (fitGen) it was last labelled
 * for (0: the writer's labels, fitted to an estimate of the font); the attribute strings
 * and labels as last written (undefined: as the writer wrote them, read when needed). The
 * writer marks no frame hidden or dimmed. */
var shownFit = new Uint32Array(n);
var shownState = new Uint8Array(n).fill(SHOW);
var shownPX = new Float64Array(n);
var shownPW = new Float64Array(n);
var shownX = new Array(n);
var shownW = new Array(n);
var shownLabel = new Array(n);
var shownTextX = new Array(n);

/* what the view should show: filled by target() */
var tState = new Uint8Array(n);
var tX = new Float64Array(n);
var tW = new Float64Array(n);
var zoomed = -1;               /* frame index zoomed to, -1 for none */
target();
shownPX.set(tX);               /* the full graph, as written */
shownPW.set(tW);


/* The view to show, into tState/tX/tW (x and width in % of the frames' width); returns
 * how many frames P-frames would have to change to show it in place, how many frames are
 * in view, and those in view that may get a label but whose name's width is not known. */
function target() {
    var zx = 0;
    var zw = total;
    var zd = 0;
    if (zoomed >= 0) {
        zx = X[zoomed];
        zw = Wd[zoomed];
        zd = D[zoomed];
    }
    var zend = zx + zw;
    var scale = 100 / zw;
    var changes = 0;
    var inView = 0;
    var least = labelLeast();
    var unsized = null;
    for (var i = 0; i < n; i++) {
        var x = X[i];
        var end = x + Wd[i];
        var state = HIDE;
        if (D[i] < zd) {
            if (x <= zx && end >= zend) {
                state = PARENT;
                tX[i] = 0;
                tW[i] = 100;
            }
        } else if (x >= zx && end <= zend) {
            state = SHOW;
            var px = (x - zx) * scale;
            tX[i] = px;
            tW[i] = (end - zx) * scale - px;
        }
        tState[i] = state;
        if (state !== HIDE) {
            inView++;
            if (NW[i] < 0 && tW[i] >= least) {
                (unsized || (unsized = [])).push(i);
            }
            if (state !== shownState[i] || Math.abs(tX[i] - shownPX[i]) > 5e-5 || Math.abs(tW[i] - shownPW[i]) > 5e-5) {
                changes++;
            }
        } else if (shownState[i] !== HIDE) {
            changes++;
        }
    }
    return { changes: changes, inView: inView, unsized: unsized };
}

function paint() {
    var t = target();
    measureNames(t.unsized);
    /* a copy in the zoom layer costs about what two in-place changes do */
    var hadFocus = focusedFrame();
    if (zoomed >= 0 && 2 * t.inView <= t.changes) {
        paintLayer();
    } else {
        paintInPlace();
    }
    /* the tab stop on the element that shows its frame now, or on the frame zoomed to
     * (the root) when its own is hidden; the focus stays on it */
    var s = stopFor(hadFocus >= 0 ? hadFocus : stop);
    var el = hadFocus >= 0 ? frameEl(s) : null;
    focusWait++;
    if (el && el !== document.activeElement && layered) {
        focusLater(s, document.activeElement, focusWait);
    } else {
        if (el && el !== document.activeElement) {
            offerStop(s);
            el.focus({ preventScroll: true });
        }
        setStop(s);
    }
    if (ui.unzoom) {
        ui.unzoom.classList.toggle("hide", zoomed < 0);
    }
    showOutline();
}

/* The focus goes to a copy in the zoom layer once the zoom is painted (unless it moved
 * or another paint came first): focused at once, the copy would make the browser style,
 * lay out and pre-paint the new view inside the click's handler, and the hidden frame
 * losing the focus (and the tab stop) change P-frames before the view is shown. Until
 * then the focus and the tab stop stay on the frame's own element, under the copy. */
var focusWait = 0;
function focusLater(i, from, token) {
    requestAnimationFrame(function () {
        setTimeout(function () {
            if (token !== focusWait || document.activeElement !== from) {
                return;
            }
            var el = offerStop(i);
            if (el && el !== from) {
                el.focus({ preventScroll: true });
            }
            setStop(i);
        }, 0);
    });
}

function paintInPlace() {
    var labelOffset = (100 * LABEL_PAD) / framesW;
    for (var i = 0; i < n; i++) {
        var state = tState[i];
        if (state !== shownState[i]) {
            var el = els[i];
            if (state === HIDE) {
                el.classList.remove("parent");
                el.classList.add("hide");
            } else if (state === PARENT) {
                el.classList.remove("hide");
                el.classList.add("parent");
            } else {
                el.classList.remove("hide");
                el.classList.remove("parent");
            }
            shownState[i] = state;
        }
        if (state === HIDE) {
            continue;
        }
        var px = tX[i];
        var pw = tW[i];
        var oldPW = shownPW[i];
        var moved = px !== shownPX[i] || pw !== oldPW;
        if (!moved && shownFit[i] === fitGen) {
            continue; /* as shown: same place, same label */
        }
        if (moved) {
            shownPX[i] = px;
            shownPW[i] = pw;
            var sx = px.toFixed(4) + "%";
            var sw = pw.toFixed(4) + "%";
            if (shownX[i] === undefined) {
                shownX[i] = rects[i].getAttribute("x");
                shownW[i] = rects[i].getAttribute("width");
            }
            if (sx !== shownX[i]) {
                rects[i].setAttribute("x", sx);
                shownX[i] = sx;
            }
            if (sw !== shownW[i]) {
                rects[i].setAttribute("width", sw);
                shownW[i] = sw;
            }
        }
        /* labels: most frames of a big graph have none; an empty <text> is left alone
         * (its x is brought up to date when it gets a label) */
        var label = labelFor(i, pw);
        shownFit[i] = fitGen;
        if (shownLabel[i] === undefined) {
            /* as the writer wrote it: read it unless it had no room for a label */
            if (label === "" && !writerLabel(i)) {
                continue;
            }
            shownLabel[i] = texts[i] ? texts[i].textContent : "";
            shownTextX[i] = texts[i] ? texts[i].getAttribute("x") : null;
        }
        if (label !== "") {
            var tx = (px + labelOffset).toFixed(4) + "%";
            if (!texts[i]) {
                texts[i] = labelEl(rects[i]);
            }
            if (tx !== shownTextX[i]) {
                texts[i].setAttribute("x", tx);
                shownTextX[i] = tx;
            }
        }
        if (label !== shownLabel[i]) {
            texts[i].textContent = label;
            shownLabel[i] = label;
        }
    }
    if (layered) {
        /* show P-frames again (first, so that focus never sits in a hidden layer) */
        layered = false;
        layers.base.div.style.opacity = "";
        framesEl.removeAttribute("aria-hidden");
        layers.top.fo.style.display = "none";
        clearCopies();
    }
}

/* A frame's <text> is made when it first gets a label (the writer writes one only for
 * the labels it wrote, the views none): most frames never get one, and every element
 * costs. Its y is the writer's: 3 below the middle of RECT, the frame's rect or its copy. */
function labelEl(rect) {
    var t = document.createElementNS(SVGNS, "text");
    t.setAttribute("y", (3 + +rect.getAttribute("y") + +rect.getAttribute("height") / 2).toFixed(2));
    rect.parentNode.appendChild(t);
    return t;
}

/* frame I's view (the root's: -1 or the root frame) */
function zoom(i) {
    zoomed = i === rootIndex ? -1 : i;
    paint();
    saveState();
}
