/* The zoom layer, in start()'s scope (graph.js). A zoom that leaves few frames in view hides
 * the whole of P-frames with opacity 0 (no restyle, no repaint, its frames untouched) and
 * fills the zoom layer with copies of just the frames that stay. The hidden P-frames gets
 * aria-hidden="true" and hands keyboard focus on to the zoom layer (events.js); a focused
 * frame's focus moves to its copy once the zoom is painted (focusLater in paint.js). */
var layered = false;
var zoomIndex = new Map();     /* copy -> frame index */
var copyOf = [];               /* frame index -> its copy (while layered) */
var copied = [];               /* the indices that have a copy */

function clearCopies() {
    zoomEl.textContent = "";
    for (var k = 0; k < copied.length; k++) {
        copyOf[copied[k]] = undefined;
    }
    copied = [];
    zoomIndex = new Map();
}

/* the zoom layer, filled with copies of the frames in view; P-frames is left as it is */
function paintLayer() {
    var labelOffset = (100 * LABEL_PAD) / framesW;
    clearCopies();
    var frag = document.createDocumentFragment();
    for (var i = 0; i < n; i++) {
        var state = tState[i];
        if (state === HIDE) {
            continue;
        }
        var c = els[i].cloneNode(true);
        var parts = framePartsOf(c);
        if (els[i] === stopEl) {
            untab(c); /* setStop() puts the tab stop on the copy it wants */
        }
        var cls = (c.getAttribute("class") || "").replace(/(^|\s)(hide|parent)(?=\s|$)/g, " ").trim();
        if (state === PARENT) {
            cls = cls ? cls + " parent" : "parent";
        }
        if (cls) {
            c.setAttribute("class", cls);
        } else {
            c.removeAttribute("class");
        }
        var px = tX[i];
        var pw = tW[i];
        parts.rect.setAttribute("x", px.toFixed(4) + "%");
        parts.rect.setAttribute("width", pw.toFixed(4) + "%");
        if (!parts.text && labelFor(i, pw) !== "") {
            parts.text = labelEl(parts.rect);
        }
        if (parts.text) {
            var label = labelFor(i, pw);
            if (label !== "") {
                parts.text.setAttribute("x", (px + labelOffset).toFixed(4) + "%");
            }
            parts.text.textContent = label;
        }
        frag.appendChild(c);
        zoomIndex.set(c, i);
        copyOf[i] = parts.rect;
        copied.push(i);
    }
    zoomEl.appendChild(frag);
    if (!layered) {
        layered = true;
        layers.top.fo.style.display = "";
        layers.base.div.style.opacity = "0";
        framesEl.setAttribute("aria-hidden", "true");
    }
}

/* the element that shows frame I now (P-frames' own, or its copy), or null */
function frameEl(i) {
    if (!layered) {
        return shownState[i] === HIDE ? null : els[i];
    }
    var r = copyOf[i];
    return r ? copyElOf(r) : null;
}

function copyElOf(rect) {
    for (var t = rect; t; t = t.parentNode) {
        if (t.parentNode === zoomEl) {
            return t;
        }
    }
    return null;
}

function focusedFrame() {
    var a = document.activeElement;
    return a ? frameOf(a) : -1;
}
