/* The details line and the outline of the frame under the pointer or focused, in start()'s
 * scope (graph.js). The outline is one rect of ours over the frames: the writer's :hover
 * stroke on a frame is neutralised (style.js), as restyling one frame repaints all the
 * frames of its layer. */
function showDetails(i) {
    if (ui.details) {
        ui.details.textContent = i < 0 ? " " : nametype + " " + tipOf(i) + moreOf(i);
    }
}

function groupDigits(v) {
    return String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/* What the writer's tooltip cannot know: zoomed, a frame's share of the zoomed frame beside
 * its share of the whole (FlameGraph and inferno have been asked for it for years); in a
 * flame chart, where the frame starts (fg:x: the count before it, in input order). */
function moreOf(i) {
    var s = "";
    var z = zoomed;
    if (z >= 0 && i !== z && Wd[z] > 0 && X[i] >= X[z] && X[i] + Wd[i] <= X[z] + Wd[z] + 1e-9 &&
        Wd[i] <= Wd[z]) {
        s += ", " + ((100 * Wd[i]) / Wd[z]).toFixed(2) + "% of " + nameOf(z);
    }
    if (chart) {
        s += ", starts at " + groupDigits(X[i] * factor) + " " + countname;
    }
    return s;
}

/* the outline of the frame under the pointer (or focused from the keyboard) */
var outline = document.createElementNS(SVGNS, "rect");
outline.setAttribute("class", "fs-outline");
outline.setAttribute("display", "none");
root.insertBefore(outline, layers.top.fo.nextSibling);
var outlined = -1;
var hoverIdx = -1;
var focusIdx = -1;

function showOutline() {
    var i = focusIdx >= 0 ? focusIdx : hoverIdx;
    if (i >= 0 && !frameEl(i)) {
        i = -1;
    }
    if (i < 0) {
        if (outlined >= 0) {
            outline.setAttribute("display", "none");
            outlined = -1;
        }
        return;
    }
    var fw = framesWidth();
    var x0 = +layers.base.fo.getAttribute("x") || 0;
    outline.setAttribute("x", fmt(x0 + (tX[i] * fw) / 100));
    outline.setAttribute("y", String(ys[i]));
    outline.setAttribute("width", fmt((tW[i] * fw) / 100));
    outline.setAttribute("height", rects[i].getAttribute("height") || "15");
    outline.classList.toggle("focus", i === focusIdx);
    if (outlined < 0) {
        outline.removeAttribute("display");
    }
    outlined = i;
}
