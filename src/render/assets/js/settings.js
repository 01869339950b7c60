/* The graph's settings (script.c writes them), its root, and the names every part uses.
 * In graph()'s scope (graph.js). */
var SVGNS = "http://www.w3.org/2000/svg";
var P = String(settings.id || "fg");
if (!root || root.getAttribute("id") !== P + "-root") {
    /* not in the SVG the writer made (or no currentScript): nothing of ours to drive */
    return;
}
var script = document.currentScript && document.currentScript.parentNode === root ? document.currentScript : null;

var fontsize = +settings.fontsize || 12;
var fontwidth = +settings.fontwidth || 0.59;
var xpad = settings.xpad == null ? 10 : +settings.xpad;
var searchcolor = settings.searchcolor || "rgb(230,0,230)";
var nametype = settings.nametype == null ? "Function:" : String(settings.nametype);
var countname = settings.countname == null ? "cycles" : String(settings.countname);
var factor = +settings.factor || 1;
var chart = !!settings.chart; /* a flame chart: fg:x is where a frame starts in input order */
var fluid = !!settings.fluid;
var truncateRight = !!settings.truncate_text_right;
var staticWidth = +root.getAttribute("width") || +settings.width || 1200;
var height = +root.getAttribute("height") || 0;
var standalone = root === document.documentElement;
/* --theme: no dark colors with light; else the colors are light-dark() pairs that follow the
 * color scheme the writer's style gives the SVG (auto: the system's when standalone, the
 * page's when inline; dark: dark) */
var darkColors = settings.theme !== "light";

var HIDE = 0;
var SHOW = 1;
var PARENT = 2;
var XHTMLNS = "http://www.w3.org/1999/xhtml";
