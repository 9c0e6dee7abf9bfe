// npuzzle serve: the Explore view's drawings: small boards, the search
// tree (its first few hundred nodes, laid out as it grows) and bar charts.
'use strict';

(() => {
  const { moved, fmt } = window.npuzzle.boards;
  const TREE_MAX = 300;
  const OPPOSITE = { U: 'D', D: 'U', L: 'R', R: 'L' };

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // A small board: a grid of cells, the blank empty.
  function mini(tiles, cols, cls) {
    const b = el('div', `mini${cls ? ` ${cls}` : ''}`);
    b.style.setProperty('--cols', cols);
    b.dataset.tiles = tiles.join(' ');
    for (const v of tiles) b.append(el('span', v === 0 ? 'blank' : '', v === 0 ? '' : String(v)));
    return b;
  }

  // ---- The search tree (its first few hundred nodes) ---------------------

  class Tree {
    constructor(rows, cols) {
      this.rows = rows;
      this.cols = cols;
      this.reset();
    }

    reset() {
      this.nodes = [];
      this.latest = new Map(); // side + board -> the latest node of that board
      this.current = -1;
    }

    add(key, g, parent, status, side) {
      if (this.nodes.length >= TREE_MAX) return -1;
      const id = this.nodes.length;
      this.nodes.push({ key, g, parent, status, side, kids: [] });
      if (parent >= 0) this.nodes[parent].kids.push(id);
      this.latest.set(side + key, id);
      return id;
    }

    // The node this board came from: the board one move back (`via`
    // undone), or where the search does not say, a neighbour one step
    // shallower. -2 when the parent is not in the tree.
    parentOf(e) {
      const side = e.side || '';
      const back = (d) => moved(e.tiles, this.cols, this.rows, d);
      if (e.via) {
        const p = back(OPPOSITE[e.via]);
        const id = p && this.latest.get(side + p.join(' '));
        if (id !== undefined && id !== null) return id;
      }
      if (e.g === 0) return -1;
      for (const d of 'UDLR') {
        const p = back(d);
        const id = p && this.latest.get(side + p.join(' '));
        if (id !== undefined && id !== null && this.nodes[id].g === e.g - 1) return id;
      }
      return -2;
    }

    expand(e) {
      const key = e.tiles.join(' ');
      const side = e.side || '';
      const known = this.latest.get(side + key);
      let id = -1;
      if (known !== undefined && this.nodes[known].status === 'open' && this.nodes[known].g === e.g) id = known;
      else {
        const p = this.parentOf(e);
        if (p !== -2) id = this.add(key, e.g, p, 'closed', side);
      }
      if (id >= 0) this.nodes[id].status = 'closed';
      this.current = id;
    }

    child(e) {
      if (this.current >= 0) this.add(e.tiles.join(' '), e.g, this.current, 'open', e.side || '');
    }
  }

  // Leaves left to right in depth-first order, parents over their children.
  function drawTree(svg, tree, onPath) {
    const n = tree.nodes;
    const x = new Array(n.length);
    const y = new Array(n.length);
    let leaves = 0, depth = 0;
    const place = (id, d) => {
      y[id] = d;
      depth = Math.max(depth, d);
      const kids = n[id].kids;
      if (!kids.length) {
        x[id] = leaves++;
        return;
      }
      kids.forEach((k) => place(k, d + 1));
      x[id] = (x[kids[0]] + x[kids[kids.length - 1]]) / 2;
    };
    n.forEach((node, id) => { if (node.parent < 0) place(id, 0); });
    // Rows spread to fill the box (about 2.4 wide to 1 high).
    const W = 14, H = Math.max(20, Math.min(40, (Math.max(24, leaves) * W) / 2.4 / Math.max(1, depth)));
    // A small tree keeps small nodes, centred in a box at least 24 wide.
    const width = Math.max(24, leaves) * W, left = (width - leaves * W) / 2;
    const px = (id) => left + x[id] * W + W / 2, py = (id) => y[id] * H + 8;
    svg.setAttribute('viewBox', `0 0 ${width} ${Math.max(depth * H + 16, width / 2.4)}`);
    const parts = [];
    n.forEach((node, id) => {
      if (node.parent >= 0) parts.push(`<line x1="${px(node.parent)}" y1="${py(node.parent)}" x2="${px(id)}" y2="${py(id)}"/>`);
    });
    n.forEach((node, id) => {
      // At the end the answer's path shows, the goal on it too.
      const cls = onPath(node) ? 'solution' : id === tree.current ? 'current' : node.status;
      parts.push(`<circle class="${cls}" cx="${px(id)}" cy="${py(id)}" r="5"/>`);
    });
    svg.innerHTML = parts.join('');
    svg.dataset.nodes = n.length;
  }

  // Vertical bars with their labels beneath.
  function drawBars(box, items) {
    box.replaceChildren();
    const top = Math.max(1, ...items.map((i) => i.value));
    // Values over the bars while they fit, in thousands past 9,999.
    const short = (n) => (items.length > 24 ? '' : n >= 10000 ? `${Math.round(n / 1000)}k` : fmt(n));
    for (const it of items) {
      const col = el('div', `col${it.cls ? ` ${it.cls}` : ''}`);
      const bar = el('div', 'bar');
      bar.style.height = `${Math.max(2, (100 * it.value) / top)}%`;
      col.title = `${it.label}: ${fmt(it.value)}`;
      col.append(el('div', 'v', short(it.value)), bar, el('div', 'l', it.label));
      box.append(col);
    }
  }

  window.npuzzle.traceViews = { el, mini, Tree, drawTree, drawBars, TREE_MAX };
})();
