/* Label widths: the font as the page draws it, in graph()'s scope (graph.js).
 * Labels are fitted against widths measured in the page, never against an estimate in ems:
 * the font is whatever the browser found for the family (Chromium's monospace is 0.602 em
 * wide, not 0.59), characters missing from it come from other fonts, and a page that scales
 * the SVG may round glyph advances at the scale it draws them. PROBE is a hidden <text>
 * styled and scaled as the labels are; one layout of it gives the advance of every printable
 * ASCII character (getSubStringLength, as inferno's script measures), and the characters
 * beyond ASCII are measured when a label first needs them, all of them in one layout.
 * Kerning and ligatures are off in labels (the layers' style), so that a label is as wide as
 * the sum of its characters. Until the probe has been laid out, ESTIMATE (the writer's
 * font size times font width) stands in for every character. */
var PRINTABLE = (function () {
    var s = "";
    for (var c = 0x21; c < 0x7f; c++) {
        s += String.fromCharCode(c);
    }
    return s;
})();
var ONLY_ASCII = /^[\x00-\x7f]*$/;
var ONLY_PRINTABLE = /^[\x20-\x7e]*$/;
var CUT_LEAST = 4;                 /* the fewest characters of a name a cut label shows */

function fontMeter(probe, estimate) {
    var ascii = new Float64Array(128).fill(estimate);
    var other = new Map();         /* a character beyond ASCII (one code point) -> its width */
    var meter = {
        narrowest: estimate,       /* the narrowest printable ASCII character */
        mono: estimate,            /* the one width of all printable ASCII, 0 when they differ */
        dots: 2 * estimate,        /* ".." */
        measure: measure,
        need: need,
        add: add,
        width: width,
        cut: cut
    };

    /* Measures every character known: true when a width changed. The probe's text is the
     * printable characters, " ..", then each other character after a space (that keeps
     * apart what could combine). */
    function measure() {
        var keys = Array.from(other.keys());
        var s = PRINTABLE + " ..";
        var at = [];
        for (var k = 0; k < keys.length; k++) {
            at.push(s.length + 1);
            s += " " + keys[k];
        }
        if (probe.textContent !== s) {
            probe.textContent = s;
        }
        var next = new Float64Array(128);
        var found = [];
        var run = 0;
        var dots = 0;
        var i;
        try {
            for (i = 0; i < PRINTABLE.length; i++) {
                next[0x21 + i] = probe.getSubStringLength(i, 1);
            }
            next[0x20] = probe.getSubStringLength(PRINTABLE.length, 1);
            dots = probe.getSubStringLength(PRINTABLE.length + 1, 2);
            run = probe.getSubStringLength(0, PRINTABLE.length);
            for (k = 0; k < keys.length; k++) {
                found.push(probe.getSubStringLength(at[k], 1));
            }
        } catch (e) {
            run = 0;
        }
        if (!(run > 0)) {
            return false; /* not laid out (hidden, detached): measured when it is */
        }
        for (i = 0; i < 0x20; i++) {
            next[i] = next[0x20]; /* a control character, if any, is drawn as a space */
        }
        next[0x7f] = next[0x20];
        var changed = Math.abs(dots - meter.dots) > 1e-6;
        var lo = Infinity;
        var hi = 0;
        for (i = 0; i < 128; i++) {
            changed = changed || Math.abs(next[i] - ascii[i]) > 1e-6;
            if (i > 0x20 && i < 0x7f) {
                lo = Math.min(lo, next[i]);
                hi = Math.max(hi, next[i]);
            }
        }
        for (k = 0; k < keys.length; k++) {
            var v = found[k] >= 0 ? found[k] : 2 * estimate;
            changed = changed || Math.abs(v - other.get(keys[k])) > 1e-6;
            other.set(keys[k], v);
        }
        ascii = next;
        meter.dots = dots;
        meter.narrowest = lo;
        /* one character's advance comes rounded (to 1/64 px); the run's average is exact */
        meter.mono = hi - lo < 0.1 ? Math.max(run / PRINTABLE.length, next[0x20]) : 0;
        return changed;
    }

    /* adds to the set NEED (made when null) the characters of S not measured yet */
    function need(s, needs) {
        if (ONLY_ASCII.test(s)) {
            return needs;
        }
        for (var i = 0; i < s.length; i++) {
            if (s.charCodeAt(i) >= 0x80) {
                var ch = charAt(s, i);
                i += ch.length - 1;
                if (!other.has(ch)) {
                    needs = needs || new Set();
                    needs.add(ch);
                }
            }
        }
        return needs;
    }

    /* measures the characters of the set NEEDS too: true when a width changed */
    function add(needs) {
        needs.forEach(function (ch) {
            other.set(ch, 2 * estimate);
        });
        return measure();
    }

    function charAt(s, i) {
        var c = s.charCodeAt(i);
        return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s.charAt(i);
    }

    function charWidth(ch) {
        var c = ch.charCodeAt(0);
        if (c < 0x80) {
            return ascii[c];
        }
        var v = other.get(ch);
        return v === undefined ? 2 * estimate : v;
    }

    function width(s) {
        if (meter.mono && ONLY_PRINTABLE.test(s)) {
            return s.length * meter.mono;
        }
        var w = 0;
        for (var i = 0; i < s.length; i++) {
            var ch = charAt(s, i);
            i += ch.length - 1;
            w += charWidth(ch);
        }
        return w;
    }

    /* S cut to fit ROOM with "..": its end kept (as inferno cuts by default), its start with
     * RIGHT; "" when fewer than CUT_LEAST of its characters fit: a fragment such as "..e" or
     * "..0f9" names nothing and only hides that the frame is too narrow to read */
    function cut(s, room, right) {
        var left = room - meter.dots;
        if (left < CUT_LEAST * meter.narrowest) {
            return "";
        }
        var k;
        if (meter.mono && ONLY_PRINTABLE.test(s)) {
            k = Math.min(Math.floor(left / meter.mono), s.length);
            return shown(right ? s.slice(0, k) : s.slice(s.length - k), right);
        }
        var cps = Array.from(s);
        var w = 0;
        for (k = 0; k < cps.length; k++) {
            w += charWidth(cps[right ? k : cps.length - 1 - k]);
            if (w > left) {
                break;
            }
        }
        return shown(right ? cps.slice(0, k).join("") : cps.slice(cps.length - k).join(""), right);
    }

    /* the cut label of the kept part PART; a left cut does not start on a path's separator
     * ("..::run" reads "..run") */
    function shown(part, right) {
        if (!right) {
            part = part.replace(/^:+/, "");
        }
        return Array.from(part).length < CUT_LEAST ? "" : right ? part + ".." : ".." + part;
    }

    return meter;
}
