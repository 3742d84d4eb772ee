// zk-chaos run report: draws the timeline, who led when, latency and throughput from the page's embedded data.
// Every value from the history reaches the document through textContent (or an SVG <title>'s textContent), never
// as markup. Nothing is fetched.
(function () {
  'use strict';
  var started = performance.now();
  var D = JSON.parse(document.getElementById('data').textContent);
  var SVG = 'http://www.w3.org/2000/svg';
  var OUT = ['ok', 'fail', 'info', 'open'];
  var MAX_BARS = 4000;
  var GUTTER = 78;
  var ops = D.operations;
  var N = ops.process.length;
  var END = Math.max(D.end, 1);

  // Lanes: one per process, in process order. Each process has one operation outstanding at a time, so a lane's
  // operations are sequential. With many processes (each info retires one, as in Jepsen) a process that starts after
  // another has ended takes over its lane: lanes then stand for client slots and their labels list the processes.
  var MAX_LANES = 30;
  var procOps = new Map();
  var byEntry = new Map();
  for (var x = 0; x < N; x++) {
    if (!procOps.has(ops.process[x])) { procOps.set(ops.process[x], []); }
    procOps.get(ops.process[x]).push(x);
    byEntry.set(ops.invokeEntry[x], x);
    if (ops.completeEntry[x] >= 0) { byEntry.set(ops.completeEntry[x], x); }
  }
  var laneOf = new Map();
  var laneProcs = [];
  var laneOps = [];
  var packed = D.processes.length > MAX_LANES;
  var order = D.processes.slice();
  if (packed) {
    order.sort(function (a, b) { return ops.start[procOps.get(a)[0]] - ops.start[procOps.get(b)[0]] || a - b; });
  }
  var laneEnd = [];
  order.forEach(function (p) {
    var list = procOps.get(p);
    var first = ops.start[list[0]];
    var lane = -1;
    if (packed) {
      for (var l = 0; l < laneEnd.length; l++) {
        if (laneEnd[l] < first && (lane < 0 || laneEnd[l] < laneEnd[lane])) { lane = l; }
      }
    }
    if (lane < 0) { lane = laneProcs.length; laneProcs.push([]); laneOps.push([]); laneEnd.push(0); }
    laneProcs[lane].push(p);
    for (var q = 0; q < list.length; q++) { laneOps[lane].push(list[q]); }
    laneEnd[lane] = ops.end[list[list.length - 1]] < 0 ? Infinity : ops.end[list[list.length - 1]];
    laneOf.set(p, lane);
  });
  function laneLabel(l) {
    var ps = laneProcs[l];
    if (ps.length === 1) { return 'process ' + ps[0]; }
    return 'p ' + ps.slice(0, 3).join(', ') + (ps.length > 3 ? ' +' + (ps.length - 3) : '');
  }
  var nemByEntry = new Map();
  D.nemesis.forEach(function (n) { nemByEntry.set(n.entry, n); });
  var opMark = new Map();
  D.marks.forEach(function (m) {
    var id = byEntry.get(m.entry);
    if (id !== undefined && !opMark.has(id)) { opMark.set(id, m.kind); }
  });
  var view = { a: 0, b: END };
  var selected = new Set();

  function endOf(i) { return ops.end[i] < 0 ? END : ops.end[i]; }
  function fmtX(v) { return D.hasTimes ? (v / 1e6).toFixed(3) + ' s' : 'entry ' + v; }
  function fmtDur(us) {
    if (!D.hasTimes) { return (us) + ' entries'; }
    if (us < 1000) { return us + ' µs'; }
    if (us < 1e6) { return (us / 1000).toFixed(1) + ' ms'; }
    return (us / 1e6).toFixed(2) + ' s';
  }
  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    if (text !== undefined) { e.textContent = text; }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function h(tag, text, parent, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function opName(i) {
    var k = ops.key[i] >= 0 ? '[' + D.keys[ops.key[i]] + ']' : '';
    return D.functions[ops.function[i]] + k;
  }
  function opTitle(i) {
    var v = ops.outcome[i] === 0 && ops.output[i] !== null ? ops.output[i] : ops.input[i];
    var len = ops.end[i] < 0 ? 'never completed' : fmtDur(ops.end[i] - ops.start[i]);
    return 'process ' + ops.process[i] + ': ' + opName(i) + ' ' + v + ' → ' + OUT[ops.outcome[i]] + ' (' + len + ', entries '
      + ops.invokeEntry[i] + (ops.completeEntry[i] >= 0 ? '–' + ops.completeEntry[i] : '') + ')' + (ops.error[i] ? ' error: ' + ops.error[i] : '');
  }
  function width(node) { return Math.max(640, node.clientWidth || document.body.clientWidth - 40); }

  // ---- scale and shared decorations ----
  function scale(w) {
    var plot = w - GUTTER - 10;
    var span = Math.max(view.b - view.a, 1e-9);
    return {
      w: w, plot: plot,
      x: function (v) { return GUTTER + (v - view.a) / span * plot; },
      inv: function (px) { return view.a + (px - GUTTER) / plot * span; }
    };
  }
  function niceStep(span, target) {
    var raw = span / target;
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function axis(svg, sc, y, height) {
    var g = el('g', { 'class': 'axis' }, svg);
    var step = niceStep(view.b - view.a, Math.max(2, Math.floor(sc.plot / 110)));
    for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
      var px = sc.x(t);
      el('line', { x1: px, x2: px, y1: y, y2: y + height }, g);
      el('text', { x: px + 2, y: y + 11 }, g, D.hasTimes ? (t / 1e6).toFixed(step >= 1e6 ? 0 : step >= 1e5 ? 1 : 3) + ' s' : String(Math.round(t)));
    }
  }
  function faultShade(svg, sc, y, height, labels) {
    D.faults.forEach(function (f) {
      if (f.end < view.a || f.start > view.b || f.failed) { return; }
      var x0 = Math.max(sc.x(f.start), GUTTER);
      var x1 = Math.min(sc.x(Math.max(f.end, f.start)), sc.w - 10);
      var r = el('rect', { 'class': 'fault', x: x0, y: y, width: Math.max(1, x1 - x0), height: height }, svg);
      el('title', {}, r, f.label + (f.cuts ? '; links cut: ' + f.cuts : '') + ' (' + f.startAt + ', for ' + f.length + ')');
      el('line', { 'class': 'fault-edge', x1: x0, x2: x0, y1: y, y2: y + height }, svg);
      if (labels) {
        var band = el('rect', { 'class': 'fault-band', x: x0, y: labels.y, width: Math.max(1, x1 - x0), height: 16 }, svg);
        el('title', {}, band, f.label + (f.cuts ? '; links cut: ' + f.cuts : ''));
        var chars = Math.floor((x1 - x0 - 6) / 6.2);
        if (chars > 3) {
          var text = f.label.length > chars ? f.label.slice(0, chars - 1) + '…' : f.label;
          el('text', { 'class': 'fault-label', x: x0 + 3, y: labels.y + 12 }, svg, text);
        }
      }
    });
    D.faults.forEach(function (f) {
      if (!f.failed || f.start < view.a || f.start > view.b || !labels) { return; }
      var px = sc.x(f.start);
      var r = el('rect', { 'class': 'fault-band failed', x: px - 2, y: labels.y, width: 4, height: 16 }, svg);
      el('title', {}, r, f.fault + ': ' + f.label);
    });
  }
  function brush(svg, sc, height, onPick) {
    var start = null;
    var rect = null;
    function local(ev) { var b = svg.getBoundingClientRect(); return (ev.clientX - b.left) * (sc.w / b.width); }
    svg.addEventListener('mousedown', function (ev) {
      if (ev.button !== 0) { return; }
      start = local(ev);
      rect = el('rect', { 'class': 'brush', x: start, y: 0, width: 0, height: height }, svg);
    });
    svg.addEventListener('mousemove', function (ev) {
      if (start === null) { return; }
      var now = local(ev);
      rect.setAttribute('x', Math.min(start, now));
      rect.setAttribute('width', Math.abs(now - start));
    });
    window.addEventListener('mouseup', function (ev) {
      if (start === null) { return; }
      var end = local(ev);
      var s0 = start;
      start = null;
      if (rect) { rect.remove(); rect = null; }
      if (Math.abs(end - s0) > 6) {
        var a = sc.inv(Math.max(GUTTER, Math.min(s0, end)));
        var b = sc.inv(Math.min(sc.w - 10, Math.max(s0, end)));
        setView(a, b);
      } else if (onPick && ev.target && ev.target.getAttribute) {
        onPick(ev.target);
      }
    });
  }

  // ---- timeline ----
  function visibleRange(lane) {
    var list = laneOps[lane];
    var lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (endOf(list[mid]) < view.a) { lo = mid + 1; } else { hi = mid; } }
    var first = lo;
    lo = first; hi = list.length;
    while (lo < hi) { var m2 = (lo + hi) >> 1; if (ops.start[list[m2]] <= view.b) { lo = m2 + 1; } else { hi = m2; } }
    return [first, lo];
  }
  function drawTimeline() {
    var host = document.getElementById('timeline');
    host.textContent = '';
    var lanes = laneOps.length;
    var laneH = Math.max(3, Math.min(16, Math.floor(520 / Math.max(1, lanes))));
    var top = 40;
    var height = top + lanes * laneH + 6;
    var w = width(host);
    var sc = scale(w);
    var svg = el('svg', { viewBox: '0 0 ' + w + ' ' + height, height: height, 'aria-label': 'timeline' }, host);
    el('text', { 'class': 'lane-label', x: 4, y: 33 }, svg, 'nemesis');
    axis(svg, sc, 0, height);
    faultShade(svg, sc, top - 2, height - top, { y: 20 });
    D.nemesis.forEach(function (n) {
      if (n.at < view.a || n.at > view.b || n.type === 'invoke') { return; }
      var c = el('circle', { cx: sc.x(n.at), cy: 28, r: 2.5, fill: '#333' }, svg);
      el('title', {}, c, 'entry ' + n.entry + ' ' + n.fault + ': ' + n.value);
    });
    var visible = 0;
    var ranges = [];
    for (var l = 0; l < lanes; l++) { var r = visibleRange(l); ranges.push(r); visible += r[1] - r[0]; }
    var note = document.getElementById('tl-note');
    var lanesNote = packed ? ' ' + D.processes.length.toLocaleString('en') + ' processes share ' + lanes + ' lanes: a '
      + 'process retired after an info hands its lane to a process that starts later.' : '';
    var bars = el('g', {}, svg);
    if (laneH >= 9) {
      for (var ll = 0; ll < lanes; ll++) {
        var lbl = el('text', { 'class': 'lane-label', x: 4, y: top + ll * laneH + laneH - 3 }, svg, laneLabel(ll));
        el('title', {}, lbl, 'processes in this lane, one after the other: ' + laneProcs[ll].join(', '));
      }
    }
    if (visible <= MAX_BARS) {
      for (var la = 0; la < lanes; la++) {
        var list = laneOps[la];
        for (var k = ranges[la][0]; k < ranges[la][1]; k++) {
          var i = list[k];
          var x0 = Math.max(GUTTER, sc.x(ops.start[i]));
          var x1 = Math.min(w - 10, sc.x(endOf(i)));
          var rect = el('rect', { 'class': 'op o-' + OUT[ops.outcome[i]], x: x0, y: top + la * laneH + 1,
            width: Math.max(1.5, x1 - x0), height: Math.max(2, laneH - 2), 'data-op': i }, bars);
          el('title', {}, rect, opTitle(i));
          if (selected.has(i)) { rect.classList.add('selected'); }
        }
      }
      note.textContent = N === 0 ? 'No client operations in this history.'
        : 'Showing ' + visible.toLocaleString('en') + ' of ' + N.toLocaleString('en') + ' operations one by one, '
          + fmtX(view.a) + ' to ' + fmtX(view.b) + '.' + lanesNote;
    } else {
      // Too many to draw one by one: per lane, 2-pixel columns, merged into runs of one colour. A column shows
      // info (or never completed) when any operation in it ended so, since those are rare and matter; else the more
      // common of ok and fail.
      var COL = 2;
      var cols = Math.ceil(sc.plot / COL);
      var blocks = 0;
      for (var lb = 0; lb < lanes; lb++) {
        var cnt = [new Int32Array(cols), new Int32Array(cols), new Int32Array(cols), new Int32Array(cols)];
        var lst = laneOps[lb];
        for (var q = ranges[lb][0]; q < ranges[lb][1]; q++) {
          var id = lst[q];
          var c0 = Math.max(0, Math.floor((sc.x(ops.start[id]) - GUTTER) / COL));
          var c1 = Math.min(cols - 1, Math.floor((sc.x(endOf(id)) - GUTTER) / COL));
          for (var c = c0; c <= c1; c++) { cnt[ops.outcome[id]][c]++; }
        }
        var worst = new Int8Array(cols);
        for (var cw = 0; cw < cols; cw++) {
          worst[cw] = cnt[3][cw] ? 3 : cnt[2][cw] ? 2 : cnt[1][cw] > cnt[0][cw] ? 1 : cnt[0][cw] ? 0 : -1;
        }
        var runStart = 0;
        for (var cc = 1; cc <= cols; cc++) {
          if (cc === cols || worst[cc] !== worst[runStart]) {
            if (worst[runStart] >= 0) {
              el('rect', { 'class': 'o-' + OUT[worst[runStart]], x: GUTTER + runStart * COL, y: top + lb * laneH + 1,
                width: (cc - runStart) * COL, height: Math.max(2, laneH - 2) }, bars);
              blocks++;
            }
            runStart = cc;
          }
        }
      }
      note.textContent = 'Zoomed out: ' + visible.toLocaleString('en') + ' operations in view (of '
        + N.toLocaleString('en') + '), drawn as ' + blocks.toLocaleString('en') + ' blocks: a block is info (or never '
        + 'completed) when any operation in it ended so, else the more common of ok and fail. Single operations are '
        + 'drawn when fewer '
        + 'than ' + MAX_BARS.toLocaleString('en') + ' are in view: drag across the timeline to zoom in.' + lanesNote;
    }
    // Operations named by findings: a ring on the bar and a marker above it, always drawn.
    opMark.forEach(function (kind, i) {
      if (endOf(i) < view.a || ops.start[i] > view.b) { return; }
      var lane = laneOf.get(ops.process[i]);
      var x0 = Math.max(GUTTER, sc.x(ops.start[i]));
      var x1 = Math.min(w - 10, sc.x(endOf(i)));
      var y = top + lane * laneH;
      var ring = el('rect', { 'class': 'mark-ring ' + kind, x: x0 - 1, y: y, width: Math.max(3, x1 - x0 + 2),
        height: Math.max(3, laneH), 'data-op': i }, svg);
      el('title', {}, ring, kind + ': ' + opTitle(i));
      el('path', { 'class': 'mark ' + kind, d: 'M' + x0 + ' ' + (y - 1) + ' l-4 -6 l8 0 z', 'data-op': i }, svg);
    });
    brush(svg, sc, height, function (target) {
      var id = target.getAttribute('data-op');
      if (id !== null) { showOp(+id); }
    });
  }

  // ---- who led when ----
  function drawLeaders() {
    var host = document.getElementById('leaders');
    host.textContent = '';
    var note = document.getElementById('leaders-note');
    var S = D.servers;
    var L = D.leaders;
    var A = D.account;
    if (!S && !L && !A) {
      note.textContent = 'Nothing to draw: this run directory has no cluster.jsonl (the servers were not observed) '
        + 'and its history is not an election.';
      return;
    }
    // A lane per server: those the observer saw, and those only the servers' own account names.
    var serverNodes = S ? S.nodes.slice() : [];
    if (A) { A.nodes.forEach(function (n) { if (serverNodes.indexOf(n) < 0) { serverNodes.push(n); } }); }
    serverNodes.sort();
    var rows = [];
    if (serverNodes.length) {
      rows.push({ section: S ? 'ZooKeeper servers (their own view, asked every 250 ms' + (A ? '; marks: what they logged and how their processes ended)' : ')')
        : 'ZooKeeper servers (no cluster.jsonl: modes not observed; marks: what they logged and how their processes ended)' });
      serverNodes.forEach(function (n) { rows.push({ server: n }); });
    }
    var rowH = 18;
    var top = 20;
    var height = top + rows.length * rowH + 4;
    var w = width(host);
    var sc = scale(w);
    var svg = el('svg', { viewBox: '0 0 ' + w + ' ' + height, height: height, 'aria-label': 'who led when' }, host);
    axis(svg, sc, 0, height);
    faultShade(svg, sc, top, height - top, null);
    var rowOf = {};
    rows.forEach(function (r, idx) {
      var y = top + idx * rowH;
      if (r.section) { el('text', { 'class': 'section', x: 4, y: y + 13 }, svg, r.section); return; }
      var name = r.server || r.cand;
      rowOf[(r.server ? 's:' : 'c:') + name] = y;
      el('text', { 'class': 'lane-label', x: 4, y: y + 13 }, svg, name);
    });
    function clipBar(s, e) {
      var x0 = Math.max(GUTTER, sc.x(s));
      var x1 = Math.min(w - 10, sc.x(e));
      return x1 >= GUTTER && x0 <= w - 10 ? [x0, Math.max(1, x1 - x0)] : null;
    }
    if (S) {
      S.spans.forEach(function (sp) {
        var b = clipBar(sp.start, sp.end);
        if (!b) { return; }
        var y = rowOf['s:' + sp.node];
        var r = el('rect', { 'class': 'm-' + sp.mode, x: b[0], y: y + 2, width: b[1], height: rowH - 4 }, svg);
        el('title', {}, r, sp.node + ': ' + sp.mode + (sp.epoch >= 0 ? ', epoch ' + sp.epoch : '') + (sp.state ? ', process ' + sp.state : '')
          + (sp.error ? ' (' + sp.error + ')' : '') + ', ' + fmtX(sp.start) + ' to ' + fmtX(sp.end));
        if ((sp.mode === 'leader' || sp.mode === 'standalone') && b[1] > 70) {
          el('text', { 'class': 'in-bar', x: b[0] + 3, y: y + 13 }, svg, 'leader, epoch ' + sp.epoch);
        }
      });
      S.overlaps.forEach(function (o) {
        var b = clipBar(o.start, o.end);
        if (!b) { return; }
        var y0 = rowOf['s:' + serverNodes[0]];
        var r = el('rect', { 'class': 'overlap', x: b[0], y: y0, width: Math.max(3, b[1]), height: serverNodes.length * rowH }, svg);
        el('title', {}, r, 'two servers said they led: ' + o.nodes.join(' and ') + ' for ' + fmtDur(o.end - o.start));
      });
    }
    if (A && serverNodes.length) { drawAccount(svg, sc, A, rowOf, rowH, serverNodes, clipBar); }
    if (L) {
      L.intervals.forEach(function (iv) {
        var b = clipBar(iv.start, iv.end);
        if (!b) { return; }
        var y = rowOf['c:' + iv.node];
        var r = el('rect', { 'class': 'lead', x: b[0], y: y + 2, width: b[1], height: rowH - 4, 'data-entry': iv.startEntry }, svg);
        el('title', {}, r, iv.node + ' led with token ' + iv.token + ' (process ' + iv.process + '), ' + fmtX(iv.start) + ' to '
          + fmtX(iv.end) + ', ended: ' + iv.endReason);
        if (b[1] > 44) { el('text', { 'class': 'in-bar', x: b[0] + 3, y: y + 13 }, svg, 'token ' + iv.token); }
      });
      var cands = Object.keys(rowOf).filter(function (k) { return k.indexOf('c:') === 0; });
      var ys = cands.map(function (k) { return rowOf[k]; });
      var yMin = Math.min.apply(null, ys);
      L.overlaps.forEach(function (o) {
        var b = clipBar(o.start, Math.max(o.end, o.start));
        if (!b) { return; }
        var r = el('rect', { 'class': 'overlap', x: b[0], y: yMin, width: Math.max(3, b[1]), height: cands.length * rowH }, svg);
        el('title', {}, r, o.text);
        // The label goes right of the overlap, or left of it when it would run off the chart.
        var after = b[0] + Math.max(3, b[1]) + 3;
        var fits = after + o.text.length * 6.2 < w - 10;
        el('text', { 'class': 'overlap-label', x: fits ? after : b[0] - 3, y: yMin + 12,
          'text-anchor': fits ? 'start' : 'end' }, svg, o.text);
      });
    }
    var notes = [];
    if (!S) { notes.push('No cluster.jsonl: the servers\' own view was not recorded for this run.'); }
    if (S && S.overlaps.length) { notes.push(S.overlaps.length + ' time(s) two servers said they led at once (an isolated leader that had not noticed yet).'); }
    if (L && L.overlaps.length) { notes.push(L.overlaps.length + ' overlap(s) of two election leaders, shaded red.'); }
    if (A) { notes.push(accountNote(A)); }
    note.textContent = notes.join(' ');
    brush(svg, sc, height, function (target) {
      var jump = target.getAttribute('data-jump');
      if (jump) { jumpTo(jump); return; }
      var e = target.getAttribute('data-entry');
      if (e !== null) { focusEntries([+e]); }
    });
  }

  // The servers' own account on their lanes: stretches without a whole majority hatched, stalls as red bars, crash and
  // rejoin loops as brackets over them, process starts and exits as ticks (a crash red), the first occurrence of each
  // signature as a diamond (an error red). A mark a card's row explains links to that row (data-jump).
  function drawAccount(svg, sc, A, rowOf, rowH, serverNodes, clipBar) {
    var defs = el('defs', {}, svg);
    var pat = el('pattern', { id: 'no-majority', width: 6, height: 6, patternUnits: 'userSpaceOnUse',
      patternTransform: 'rotate(45)' }, defs);
    el('line', { x1: 0, y1: 0, x2: 0, y2: 6, 'class': 'hatch' }, pat);
    function tip(node, text, excused, id) {
      el('title', {}, node, text + (excused ? '; excused by ' + excused : '') + (id ? ' (click: its row in What the servers said)' : ''));
      if (id) { node.setAttribute('data-jump', id); node.classList.add('jump'); }
      return node;
    }
    var yTop = rowOf['s:' + serverNodes[0]];
    A.excused.forEach(function (x) {
      var b = clipBar(x.start, Math.max(x.end, x.start));
      if (!b) { return; }
      tip(el('rect', { 'class': 'no-majority', x: b[0], y: yTop, width: b[1], height: serverNodes.length * rowH,
        fill: 'url(#no-majority)' }, svg), x.text);
    });
    A.stalls.forEach(function (st) {
      var b = clipBar(st.start, Math.max(st.end, st.start));
      var y = rowOf['s:' + st.node];
      if (!b || y === undefined) { return; }
      tip(el('rect', { 'class': 'stall', x: b[0], y: y + rowH - 7, width: Math.max(3, b[1]), height: 5 }, svg),
        st.text, null, st.id);
    });
    A.loops.forEach(function (lp) {
      var y = rowOf['s:' + lp.node];
      var b = clipBar(lp.start, Math.max(lp.end, lp.start));
      if (!b || y === undefined) { return; }
      var x0 = b[0], x1 = b[0] + Math.max(4, b[1]);
      var g = el('g', { 'class': 'loop ' + lp.kind + (lp.excused ? ' excused' : '') }, svg);
      tip(el('path', { d: 'M' + x0 + ' ' + (y + 8) + ' V' + (y + 2) + ' H' + x1 + ' V' + (y + 8) }, g), lp.text, lp.excused, lp.id);
      lp.ticks.forEach(function (t) {
        if (t < view.a || t > view.b) { return; }
        var px = sc.x(t);
        tip(el('line', { x1: px, x2: px, y1: y + 2, y2: y + 6 }, g), lp.text, lp.excused, lp.id);
      });
      // a wide-enough invisible target, so that a short loop can be hovered and clicked
      tip(el('rect', { 'class': 'hit', x: x0 - 2, y: y, width: x1 - x0 + 4, height: 8 }, g), lp.text, lp.excused, lp.id);
    });
    A.processes.forEach(function (p) {
      var y = rowOf['s:' + p.node];
      if (p.at < view.a || p.at > view.b || y === undefined) { return; }
      var px = sc.x(p.at);
      var cls = 'proc ' + p.kind + (p.excused ? ' excused' : '');
      if (p.kind === 'crash') {
        var g = el('g', { 'class': cls }, svg);
        el('line', { 'class': 'halo', x1: px, x2: px, y1: y + 1, y2: y + rowH - 1 }, g);
        el('line', { x1: px, x2: px, y1: y + 1, y2: y + rowH - 1 }, g);
        tip(el('path', { d: 'M' + (px - 6) + ' ' + y + ' l12 0 l-6 9 z' }, g), p.text, p.excused, p.id);
        tip(el('rect', { 'class': 'hit', x: px - 5, y: y, width: 10, height: rowH }, g), p.text, p.excused, p.id);
      } else {
        // a start points up from the lane's foot, an exit made by the nemesis or the harness points down
        var d = p.kind === 'start' ? 'M' + (px - 3) + ' ' + (y + rowH - 1) + ' l3 -5 l3 5 z'
          : 'M' + (px - 3) + ' ' + (y + rowH - 6) + ' l6 0 l-3 5 z';
        tip(el('path', { 'class': cls, d: d }, svg), p.text);
      }
    });
    A.signatures.forEach(function (sg) {
      var y = rowOf['s:' + sg.node];
      if (sg.at < view.a || sg.at > view.b || y === undefined) { return; }
      var px = sc.x(sg.at), cy = y + rowH / 2;
      tip(el('path', { 'class': 'sig sig-' + sg.verdict, d: 'M' + px + ' ' + (cy - 5) + ' l5 5 l-5 5 l-5 -5 z' }, svg),
        'first occurrence: ' + sg.text, null, sg.id);
    });
  }
  function accountNote(A) {
    var crashes = A.processes.filter(function (p) { return p.kind === 'crash'; });
    var errors = A.signatures.filter(function (s) { return s.verdict === 'error'; });
    var parts = [crashes.length + ' crash(es) (' + crashes.filter(function (p) { return !p.excused; }).length
      + ' not excused)', A.signatures.length + ' signature(s) at their first occurrence (' + errors.length + ' error)',
      A.loops.length + ' loop(s)', A.stalls.length + ' stall(s)', A.excused.length + ' stretch(es) without a whole majority (hatched)'];
    return 'On the servers\' lanes: ' + parts.join(', ') + '.';
  }
  function jumpTo(id) {
    var row = document.getElementById(id);
    if (!row) { return; }
    var open = row.closest('details');
    if (open) { open.open = true; }
    row.scrollIntoView({ block: 'center' });
    row.classList.remove('flash');
    void row.offsetWidth; // restart the highlight
    row.classList.add('flash');
  }

  // ---- latency and throughput (canvas: 100,000 points draw in a few ms) ----
  var PALETTE = ['#1f77b4', '#2ca02c', '#9467bd', '#8c564b', '#17becf', '#e377c2', '#7f7f7f', '#bcbd22', '#ff7f0e', '#d62728'];
  function canvas(id, cssHeight) {
    var c = document.getElementById(id);
    var w = width(c.parentNode);
    var dpr = window.devicePixelRatio || 1;
    c.width = Math.round(w * dpr);
    c.height = Math.round(cssHeight * dpr);
    c.style.height = cssHeight + 'px';
    var g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, cssHeight);
    return { c: c, g: g, w: w, h: cssHeight };
  }
  function canvasFrame(cv, sc, top, bottom) {
    var g = cv.g;
    g.fillStyle = 'rgba(60,60,60,0.10)';
    D.faults.forEach(function (f) {
      if (f.failed || f.end < view.a || f.start > view.b) { return; }
      var x0 = Math.max(sc.x(f.start), GUTTER), x1 = Math.min(sc.x(f.end), cv.w - 10);
      g.fillRect(x0, top, Math.max(1, x1 - x0), bottom - top);
    });
    g.strokeStyle = '#e1e4e8';
    g.fillStyle = '#57606a';
    g.font = '11px system-ui, sans-serif';
    var step = niceStep(view.b - view.a, Math.max(2, Math.floor(sc.plot / 110)));
    for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
      var px = Math.round(sc.x(t)) + 0.5;
      g.beginPath(); g.moveTo(px, top); g.lineTo(px, bottom); g.stroke();
      g.fillText((t / 1e6).toFixed(step >= 1e6 ? 0 : step >= 1e5 ? 1 : 3) + ' s', px + 2, bottom + 12);
    }
  }
  function drawLatency() {
    var note = document.getElementById('latency-note');
    var legend = document.getElementById('latency-legend');
    legend.textContent = '';
    if (!D.hasTimes) {
      note.textContent = 'No times in this history: latency and throughput cannot be drawn.';
      document.getElementById('latency').style.display = 'none';
      document.getElementById('throughput').style.display = 'none';
      return;
    }
    var cv = canvas('latency', 260);
    var sc = scale(cv.w);
    var top = 8, bottom = cv.h - 18;
    var lo = Infinity, hi = 0, shown = 0, open = 0;
    var counts = {};
    for (var i = 0; i < N; i++) {
      if (ops.start[i] < view.a || ops.start[i] > view.b) { continue; }
      if (ops.end[i] < 0) { open++; continue; }
      var lat = Math.max(1, ops.end[i] - ops.start[i]);
      lo = Math.min(lo, lat); hi = Math.max(hi, lat);
      var key = D.functions[ops.function[i]] + ' ' + OUT[ops.outcome[i]];
      counts[key] = (counts[key] || 0) + 1;
      shown++;
    }
    canvasFrame(cv, sc, top, bottom);
    if (shown === 0) { note.textContent = 'No completed operation in view.'; drawThroughput(); return; }
    lo = Math.max(10, lo); hi = Math.max(hi, lo * 10);
    var l0 = Math.log10(lo), l1 = Math.log10(hi);
    function y(lat) { return bottom - (Math.log10(Math.max(lat, lo)) - l0) / (l1 - l0) * (bottom - top); }
    var g = cv.g;
    g.fillStyle = '#57606a';
    for (var p = Math.ceil(l0); p <= l1; p++) {
      var yy = Math.round(y(Math.pow(10, p))) + 0.5;
      g.strokeStyle = '#eef0f2'; g.beginPath(); g.moveTo(GUTTER, yy); g.lineTo(cv.w - 10, yy); g.stroke();
      g.fillText(fmtDur(Math.pow(10, p)), 4, yy + 4);
    }
    for (var j = 0; j < N; j++) {
      if (ops.start[j] < view.a || ops.start[j] > view.b || ops.end[j] < 0) { continue; }
      var px = sc.x(ops.start[j]);
      var py = y(Math.max(1, ops.end[j] - ops.start[j]));
      var color = PALETTE[ops.function[j] % PALETTE.length];
      if (ops.outcome[j] === 0) {
        g.fillStyle = color; g.fillRect(px - 1, py - 1, 2.5, 2.5);
      } else if (ops.outcome[j] === 1) {
        g.strokeStyle = color; g.strokeRect(px - 2, py - 2, 4, 4);
      } else {
        g.strokeStyle = '#b3001b'; g.beginPath(); g.moveTo(px - 3, py - 3); g.lineTo(px + 3, py + 3);
        g.moveTo(px + 3, py - 3); g.lineTo(px - 3, py + 3); g.stroke();
      }
    }
    h('b', 'Latency (log scale) of each operation at its invoke: ', legend);
    D.functions.forEach(function (f, fi) {
      var s = h('span', null, legend);
      var sw = h('i', null, s, 'swatch');
      sw.style.background = PALETTE[fi % PALETTE.length];
      s.appendChild(document.createTextNode(f + ': ' + ['ok', 'fail', 'info'].map(function (o) {
        return (counts[f + ' ' + o] || 0) + ' ' + o;
      }).join(', ')));
    });
    h('span', '(dot = ok, square = fail, red × = info: the time until the client gave up)', legend, 'hint');
    note.textContent = shown.toLocaleString('en') + ' completed operations drawn' + (open ? '; ' + open + ' never completed (not drawn)' : '') + '. Grey bands: faults in force.';
    drawThroughput();
  }
  function drawThroughput() {
    var cv = canvas('throughput', 140);
    var sc = scale(cv.w);
    var top = 16, bottom = cv.h - 18;
    var buckets = Math.max(10, Math.min(300, Math.floor(sc.plot / 4)));
    var span = (view.b - view.a) / buckets;
    var counts = [new Float64Array(buckets), new Float64Array(buckets), new Float64Array(buckets)];
    for (var i = 0; i < N; i++) {
      if (ops.end[i] < 0 || ops.end[i] < view.a || ops.end[i] > view.b) { continue; }
      var b = Math.min(buckets - 1, Math.floor((ops.end[i] - view.a) / span));
      counts[Math.min(2, ops.outcome[i])][b]++;
    }
    var perSec = 1e6 / span;
    var max = 1;
    for (var k = 0; k < buckets; k++) { max = Math.max(max, (counts[0][k] + counts[1][k] + counts[2][k]) * perSec); }
    canvasFrame(cv, sc, top, bottom);
    var g = cv.g;
    var colors = ['#5b9bd5', '#f0a04b', '#a78bcc'];
    var bw = sc.plot / buckets;
    for (var q = 0; q < buckets; q++) {
      var y = bottom;
      for (var o = 0; o < 3; o++) {
        var hgt = counts[o][q] * perSec / max * (bottom - top);
        if (hgt > 0) { g.fillStyle = colors[o]; g.fillRect(GUTTER + q * bw, y - hgt, Math.max(1, bw - 0.5), hgt); y -= hgt; }
      }
    }
    g.fillStyle = '#57606a';
    g.fillText(Math.round(max) + ' ops/s', 4, top + 8);
    g.fillText('0', 4, bottom);
    g.fillText('completions per second (ok, fail, info stacked)', GUTTER + 4, 11);
  }

  // ---- details and navigation ----
  function showOp(i) {
    var box = document.getElementById('detail');
    box.textContent = '';
    var head = h('div', null, box);
    h('b', 'process ' + ops.process[i] + ': ' + opName(i) + ' → ' + OUT[ops.outcome[i]], head);
    head.appendChild(document.createTextNode(ops.end[i] >= 0 ? '  (' + fmtDur(ops.end[i] - ops.start[i]) + ')' : '  (never completed)'));
    if (opMark.has(i)) { h('span', '  named by a finding (' + opMark.get(i) + ')', head, 'hint'); }
    var t = h('table', null, box);
    var hr = h('tr', null, t);
    ['entry', 'type', 'at', 'f', 'key', 'value', 'error'].forEach(function (c) { h('th', c, hr); });
    var key = ops.key[i] >= 0 ? D.keys[ops.key[i]] : '';
    var r1 = h('tr', null, t);
    [ops.invokeEntry[i], 'invoke', fmtX(ops.start[i]), D.functions[ops.function[i]], key, ops.input[i], ''].forEach(function (v) { h('td', v, r1); });
    if (ops.completeEntry[i] >= 0) {
      var r2 = h('tr', null, t);
      [ops.completeEntry[i], OUT[ops.outcome[i]], fmtX(ops.end[i]), D.functions[ops.function[i]], key, ops.outcome[i] === 2 ? '' : ops.output[i], ops.error[i] || '']
        .forEach(function (v) { h('td', v, r2); });
    }
    r1.lastChild.previousSibling.className = 'value mono';
  }
  function showNemesis(n) {
    var box = document.getElementById('detail');
    box.textContent = '';
    h('b', 'nemesis entry ' + n.entry + ': ' + n.type + ' ' + n.fault + ' at ' + fmtX(n.at), box);
    h('pre', n.value, box);
  }
  function focusEntries(entries) {
    var ids = [];
    var lo = Infinity, hi = -Infinity;
    entries.forEach(function (e) {
      var id = byEntry.get(e);
      if (id !== undefined) {
        ids.push(id); lo = Math.min(lo, ops.start[id]); hi = Math.max(hi, endOf(id));
      } else if (nemByEntry.has(e)) {
        var n = nemByEntry.get(e); lo = Math.min(lo, n.at); hi = Math.max(hi, n.at);
      }
    });
    if (lo === Infinity) { return; }
    var pad = Math.max((hi - lo) * 0.5, END * 0.01);
    selected = new Set(ids);
    setView(lo - pad, hi + pad);
    if (ids.length) { showOp(ids[0]); } else { showNemesis(nemByEntry.get(entries[0])); }
    document.getElementById('timeline-section').scrollIntoView();
  }
  function setView(a, b) {
    a = Math.max(0, a); b = Math.min(END, b);
    if (b - a < 1e-6) { b = a + 1; }
    view.a = a; view.b = b;
    draw();
  }
  function draw() {
    try {
      drawTimeline();
      drawLeaders();
      drawLatency();
    } catch (e) {
      console.error('zk-chaos report: drawing failed: ' + e + (e && e.stack ? '\n' + e.stack : ''));
    }
  }
  document.addEventListener('click', function (ev) {
    var t = ev.target;
    if (t && t.matches && t.matches('a.ref[data-entry]')) {
      ev.preventDefault();
      focusEntries([+t.getAttribute('data-entry')]);
      history.replaceState(null, '', '#entry-' + t.getAttribute('data-entry'));
    } else if (t && t.matches && t.matches('button.show[data-entries]')) {
      focusEntries(t.getAttribute('data-entries').split(',').filter(Boolean).map(Number));
    }
  });
  document.getElementById('zoom-all').addEventListener('click', function () { selected = new Set(); setView(0, END); });
  document.getElementById('zoom-out').addEventListener('click', function () {
    var mid = (view.a + view.b) / 2, half = (view.b - view.a);
    setView(mid - half, mid + half);
  });
  var resizeTimer = null;
  window.addEventListener('resize', function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 150); });
  draw();
  var m = /^#entry-(\d+)$/.exec(location.hash);
  if (m) { focusEntries([+m[1]]); }
  document.body.setAttribute('data-render-ms', String(Math.round(performance.now() - started)));
  document.body.setAttribute('data-ready', 'true');
})();
