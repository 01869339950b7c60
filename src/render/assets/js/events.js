/* Pointer and focus events on the frames, in start()'s scope (graph.js), listened to on the
 * two layers: hover shows the details and the outline, a click zooms (Shift+click: the views,
 * when there are any), focus moves the tab stop. */
function frameOf(target) {
    for (var t = target; t && t !== root; t = t.parentNode) {
        var p = t.parentNode;
        if (p === framesEl) {
            var i = index.get(t);
            return i == null ? -1 : i;
        }
        if (p === zoomEl) {
            var k = zoomIndex.get(t);
            return k == null ? -1 : k;
        }
    }
    return -1;
}

/* the frame under the pointer: while the zoom layer is up, P-frames lies under it unseen
 * (opacity 0, which still takes pointer events) and must not answer where no copy covers
 * it */
function pointedFrame(target) {
    return layered && framesEl.contains(target) ? -1 : frameOf(target);
}

function matchesFocusVisible(el) {
    try {
        return el.matches(":focus-visible");
    } catch (e) {
        return true;
    }
}

/* the last element before the frames that takes the focus (for Shift+Tab out of the
 * zoom layer past the hidden P-frames) */
function focusableBefore() {
    var cands = [icEl, ui.search, ui.unzoom];
    for (var k = 0; k < cands.length; k++) {
        if (cands[k] && !cands[k].classList.contains("hide")) {
            return cands[k];
        }
    }
    return null;
}

function listen(layer) {
    layer.addEventListener("mouseover", function (e) {
        var i = pointedFrame(e.target);
        if (i >= 0) {
            showDetails(i);
            hoverIdx = i;
            showOutline();
        }
    });
    layer.addEventListener("mouseout", function (e) {
        if (pointedFrame(e.relatedTarget) < 0) {
            showDetails(-1);
            hoverIdx = -1;
            showOutline();
        }
    });
    layer.addEventListener("focusin", function (e) {
        if (layer === framesEl && layered) {
            /* P-frames is hidden under the zoom layer: pass the focus on */
            var from = e.relatedTarget;
            var to = from && zoomEl.contains(from) ? focusableBefore() : stopEl;
            if (to) {
                to.focus({ preventScroll: true });
            } else if (e.target.blur) {
                e.target.blur();
            }
            return;
        }
        var i = frameOf(e.target);
        if (i >= 0) {
            setStop(i);
            showDetails(i);
            focusIdx = matchesFocusVisible(e.target) ? i : -1;
            showOutline();
        }
    });
    layer.addEventListener("focusout", function () {
        showDetails(-1);
        focusIdx = -1;
        showOutline();
    });
    layer.addEventListener("mousedown", function (e) {
        /* a frame clicked takes the focus, as the tab stop (the browser focuses it after
         * this event) */
        var i = pointedFrame(e.target);
        var el = i >= 0 ? frameEl(i) : null;
        if (el && el.contains(e.target)) {
            offerStop(i); /* focusin makes it the tab stop */
        }
    });
    layer.addEventListener("click", function (e) {
        var i = pointedFrame(e.target);
        if (i < 0) {
            return;
        }
        if (e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && root.foldsvg.onviews) {
            /* Shift+click: the function's callers and callees (views) */
            e.preventDefault();
            root.foldsvg.onviews(nameOf(i));
            return;
        }
        if (els[i].localName === "a" && (e.ctrlKey || e.metaKey || e.shiftKey)) {
            return; /* let a link open elsewhere */
        }
        zoom(i);
    });
}
listen(framesEl);
listen(zoomEl);
