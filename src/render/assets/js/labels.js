/* Labels, in start()'s scope (graph.js). The writer's follow inferno's rule (0.59 em per
 * character of the whole image width), which spills out of frames in a browser. The script
 * fits every label again at the start, after each zoom, resize or font load, against the
 * frame's own box (frame widths are shares of P-frames: the image width minus both paddings)
 * with the font measured in the page (meter.js). Long names are cut at the start ("..tail",
 * as inferno's script does) or, with --truncate-text-right, at the end; the root frame reads
 * "all", as inferno's does once its script has run.
 *
 * A label starts LABEL_PAD units into its frame (as inferno's script puts it) and ends at
 * least LABEL_END before the frame's right edge. Units are those of P-frames, whose width
 * framesW the frames' % widths are shares of; a scaled SVG scales labels and frames alike. */
var LABEL_PAD = 3;
var LABEL_END = 1;
/* the views' graphs use the font as their owner measured it (same font, same size) */
var sharedMeter = !!(given && given.meter);
var meter = sharedMeter ? given.meter : fontMeter(layers.probe, fontsize * fontwidth);
var fitGen = 1;                /* bumped whenever the frames' width or the font changes */
var NW = new Float64Array(n).fill(-1); /* a name's width, -1: not known for this fit */
var framesW = 0;               /* the frames' width (set by layout()) */
/* the writer's labels (inferno's rule: a label when 3 characters of the estimated width
 * fit at the static width) */
var writerChar = (100 * fontsize * fontwidth) / staticWidth;

function refit() {
    NW.fill(-1);
    fitGen++;
}

function labelFor(i, pct) {
    var room = (pct * framesW) / 100 - LABEL_PAD - LABEL_END;
    if (room < meter.dots) {
        return ""; /* as inferno's script: no label in less than two characters */
    }
    var nm = nameOf(i);
    if (NW[i] < 0) {
        NW[i] = meter.width(nm);
    }
    return NW[i] <= room ? nm : meter.cut(nm, room, truncateRight);
}

/* whether the writer may have written a label for frame I (conservative: then it is read) */
function writerLabel(i) {
    return !given && !!texts[i] && (100 * Wd[i]) / total / writerChar >= 3 - 1e-6;
}

/* the narrowest frame (in % of the frames' width) that may get a label */
function labelLeast() {
    return framesW > 0 ? (100 * (LABEL_PAD + LABEL_END + meter.dots)) / framesW : Infinity;
}

/* Measures, in one go, the characters not measured yet of the names of the frames LIST
 * (in view, wide enough for a label, width not known), before anything is written:
 * measuring lays the page out. */
function measureNames(list) {
    var need = null;
    for (var k = 0; list && k < list.length; k++) {
        need = meter.need(nameOf(list[k]), need);
    }
    if (need && meter.add(need)) {
        refit();
    }
}
