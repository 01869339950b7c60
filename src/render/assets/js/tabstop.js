/* The roving tab stop, in start()'s scope (graph.js), as in ARIA trees and grids: the frames
 * are one Tab stop. Exactly one frame element has tabindex="0" (at first the root frame, then
 * the frame last focused; the others have none, links -1), so Tab goes from the controls
 * (Reset Zoom, Search, ic) into the graph and with the next Tab out of it, and the start
 * writes one attribute, not one per frame.
 *
 * the one frame in the tab order (roving tabindex): the root frame, the widest at depth
 * 0, until another is focused. Links (<a>, focusable by themselves) leave the tab order. */
var homeIdx = -1;
for (i = 0; i < n; i++) {
    if (D[i] === 0 && (homeIdx < 0 || Wd[i] > Wd[homeIdx])) {
        homeIdx = i;
    }
    if (els[i].localName === "a") {
        els[i].setAttribute("tabindex", "-1");
    }
}
var stop = homeIdx;            /* its frame index */
var stopEl = null;             /* the element holding tabindex="0" for it */

/* The frame that takes the tab stop for frame I: I when it is shown (by its own element,
 * or its copy while the zoom layer is up), else the frame zoomed to, or the root. */
function stopFor(i) {
    return i >= 0 && frameEl(i) ? i : zoomed >= 0 ? zoomed : homeIdx;
}

/* Makes frame I the one frame in the tab order. The old tab stop leaves it here, when it
 * no longer has the focus: taking the tabindex from the focused element costs a style
 * update of the whole document (ms with a big graph), so a frame about to be focused is
 * first put in the tab order beside it (offerStop). */
var offered = null;            /* an element offerStop() put in the tab order */
function setStop(i) {
    i = stopFor(i);
    var el = i >= 0 ? frameEl(i) : null;
    stop = i;
    if (offered && offered !== el) {
        untab(offered);
    }
    var had = offered === el;
    offered = null;
    if (el === stopEl) {
        return;
    }
    if (stopEl) {
        untab(stopEl);
    }
    if (el && !had) {
        el.setAttribute("tabindex", "0");
    }
    stopEl = el;
}

/* puts the element of frame I in the tab order too, before it takes the focus */
function offerStop(i) {
    var el = i >= 0 ? frameEl(i) : null;
    if (el && el !== stopEl && el !== offered) {
        if (offered) {
            untab(offered);
        }
        el.setAttribute("tabindex", "0");
        offered = el;
    }
    return el;
}

function untab(el) {
    if (el.localName === "a") {
        el.setAttribute("tabindex", "-1");
    } else {
        el.removeAttribute("tabindex");
    }
}

function focusFrame(i) {
    var el = offerStop(i);
    if (el && el !== document.activeElement) {
        el.focus();
    }
    setStop(i);
}
