/* The controls, in start()'s scope (graph.js): the background's class, the ignore-case
 * toggle next to Search (and the search box, search.js), Reset Zoom, Search and the toggle as buttons (click, Enter, Space). */
if (bg) {
    bg.classList.add("fs-bg");
}
var icEl = null;
if (ui.search) {
    icEl = document.createElementNS(SVGNS, "text");
    icEl.setAttribute("id", P + "-ignorecase");
    icEl.setAttribute("y", ui.search.getAttribute("y") || String(2 * fontsize));
    var fill = ui.search.getAttribute("fill");
    if (fill) {
        icEl.setAttribute("fill", fill);
    }
    icEl.setAttribute("tabindex", "0");
    icEl.textContent = "ic";
    var icTitle = document.createElementNS(SVGNS, "title");
    icTitle.textContent = "Search ignores case (toggle)";
    icEl.appendChild(icTitle);
    root.insertBefore(icEl, ui.search.nextSibling);
    ui.search.setAttribute("tabindex", "0");
}
if (ui.unzoom) {
    ui.unzoom.setAttribute("tabindex", "0");
}

function button(el, action) {
    if (!el) {
        return;
    }
    el.addEventListener("click", function (e) {
        e.stopPropagation();
        action();
    });
    el.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            e.stopPropagation();
            action();
        }
    });
}
button(ui.unzoom, function () {
    zoom(-1);
});
button(ui.search, function () {
    if (boxOpen()) {
        closeBox();
        resetSearch();
    } else {
        openBox();
    }
});
button(icEl, toggleIgnoreCase);
