//! Making and valuing a node's children, for [`super::core`]'s search:
//! every child made (its estimates' states, its database reads started)
//! before any is valued, those within the bound kept and put in the order
//! they are searched, and with packed lookups the kept children's own
//! children made before the first of them is searched.

use super::core::{line_of, Est, Kid, Search};
use crate::board::{Dir, Metric};
use crate::heuristic::pdb::colour::Packed;
use crate::heuristic::Heuristic;
use crate::search::moves::slide;

impl<'h, H: Heuristic, const N: usize> Search<'h, H, N> {
    /// Makes every child of the node with the blank on `blank`, whose
    /// state is `e`, into the slots from `base` (their estimates' states,
    /// and their database reads started: each is a miss far into a large
    /// table, and started together they overlap); returns how many.
    pub(super) fn make_children(&mut self, blank: usize, base: usize, e: &Est<H::State, N>, last: Option<Dir>) -> usize {
        if self.kids.len() < base + self.width {
            let filler = Kid {
                e: *e,
                ranks: [0; N],
                h: 0,
                key: 0,
                dir: Dir::Up,
                pushed: 0,
            };
            let depths = base / self.stride + 1;
            self.kids.resize(depths * self.stride, filler);
            self.made.resize((depths + 1) * self.width, 0);
            self.order.resize((depths + 1) * self.width, 0);
        }
        let made = match self.packed {
            Some(p) if !self.reads_board => self.make_packed(&p, blank, base, e, last),
            _ => self.make_on_board(blank, base, e, last),
        };
        self.generated += made as u64;
        made
    }

    /// [`Search::make_children`] with packed lookups that read no board:
    /// the hot path, its loop kept to what each child needs.
    #[inline(always)]
    fn make_packed(&mut self, p: &Packed<'h, N>, blank: usize, base: usize, e: &Est<H::State, N>, last: Option<Dir>) -> usize {
        let dirs = self.next_dirs(last);
        let (tiles, floor, h, lines) = (&self.tiles, &self.floor, self.h, &self.lines);
        let kids = &mut self.kids[base..base + self.width];
        let mut made = 0;
        for &dir in dirs {
            let line = line_of(lines, blank, dir);
            let reach = if self.metric == Metric::Stm { line[0].min(1) } else { line[0] };
            let (mut at, mut c) = (blank, *e);
            for (k, &to) in line[1..=usize::from(reach)].iter().enumerate() {
                let to = usize::from(to);
                // the tile on `to` slides onto `at`
                let tile = tiles[to & 0xFF];
                c.split = floor.update(c.split, dir, tile, to, at);
                c.inner = h.update(&c.inner, &[], tile, to, at);
                p.step(&mut c.words, tile, to, at);
                let ranks = p.ranks(&c.words);
                p.prefetch(&ranks);
                if let Some(slot) = kids.get_mut(made) {
                    *slot = Kid {
                        e: c,
                        ranks,
                        h: 0,
                        key: 0,
                        dir,
                        pushed: k as u8 + 1,
                    };
                }
                made += 1;
                at = to;
            }
        }
        made
    }

    /// [`Search::make_children`] on the board: each child's board made by
    /// sliding, its estimates that read it taken, and undone.
    fn make_on_board(&mut self, blank: usize, base: usize, e: &Est<H::State, N>, last: Option<Dir>) -> usize {
        let mut made = 0;
        for &dir in self.next_dirs(last) {
            let (mut at, mut c, mut pushed) = (blank, *e, 0u8);
            let line = *line_of(&self.lines, blank, dir);
            let reach = if self.metric == Metric::Stm { line[0].min(1) } else { line[0] };
            for &to in &line[1..=usize::from(reach)] {
                let to = usize::from(to);
                // the tile on `to` slides onto `at`
                let tile = slide(&mut self.tiles, at, to);
                c.split = self.floor.update(c.split, dir, tile, to, at);
                c.inner = if H::READS_TILES {
                    self.h.update(&c.inner, &self.tiles[..self.n], tile, to, at)
                } else {
                    self.h.update(&c.inner, &[], tile, to, at)
                };
                let mut ranks = [0; N];
                if let Some(p) = &self.packed {
                    p.step(&mut c.words, tile, to, at);
                    ranks = p.ranks(&c.words);
                    p.prefetch(&ranks);
                }
                pushed += 1;
                let (h, floor) = self.partial_estimate(&c, u32::MAX);
                self.kids[base + made] = Kid {
                    e: c,
                    ranks,
                    h,
                    key: floor,
                    dir,
                    pushed,
                };
                made += 1;
                at = to;
            }
            self.unslide(blank, dir, usize::from(pushed));
        }
        made
    }

    /// Values the `made` children in the slots from `base` of a node `g`
    /// moves deep; lists those within the bound in the order they are to
    /// be searched ([`Search::kept`]), and returns how many.
    pub(super) fn value_children(&mut self, base: usize, made: usize, g: u32) -> usize {
        let limit = self.bound.saturating_sub(g + 1);
        let order = g as usize * self.width;
        let mut kept = 0;
        for i in 0..made {
            let kid = &self.kids[base + i];
            let (mut h, floor) = if self.reads_board {
                (kid.h, kid.key)
            } else {
                self.partial_estimate(&kid.e, limit)
            };
            if h <= limit {
                if let Some(p) = &self.packed {
                    h = h.max(p.value(&kid.ranks, limit));
                }
            }
            let f = g + 1 + h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let key = Self::key(h, floor, kid.pushed);
            let kid = &mut self.kids[base + i];
            (kid.h, kid.key) = (h, key);
            // insertion among the kept ones, smallest key first; stable
            let mut j = kept;
            while j > 0 && self.kids[base + usize::from(self.order[order + j - 1])].key > key {
                self.order[order + j] = self.order[order + j - 1];
                j -= 1;
            }
            self.order[order + j] = i as u8;
            kept += 1;
        }
        kept
    }

    /// The `j`-th child to search of a node `g` moves deep whose children
    /// are in the slots from `base`.
    #[inline(always)]
    pub(super) fn kept(&self, base: usize, g: u32, j: usize) -> Kid<H::State, N> {
        self.kids[base + usize::from(self.order[g as usize * self.width + j])]
    }

    /// The order of a child among its siblings: smallest estimate first,
    /// then smallest estimate of the floor's own (the walking distance),
    /// then the push of more tiles. Only the last iteration, which stops
    /// at its first solution, depends on it: searching the likeliest
    /// children first ends it sooner (on 60 random 15-puzzles in pushes,
    /// 0.80 of the nodes in move order).
    #[inline(always)]
    fn key(h: u32, floor: u32, pushed: u8) -> u32 {
        h.min(0xFFFF) << 16 | floor.min(0xFFF) << 4 | u32::from(15 - pushed.min(15))
    }

    /// Makes the children of the `kept` children in the slots from `base`
    /// of the node with the blank on `blank`, `g` moves deep, before the
    /// first is searched: their database reads then arrive while the
    /// elder siblings' subtrees are searched, not while the search waits.
    /// Needs no board: in pushes, a child's next push runs across the line
    /// its own push moved, so the tiles it meets stand where they stood
    /// (in single moves, the one tile moved lies behind it).
    pub(super) fn make_grandchildren(&mut self, blank: usize, base: usize, kept: usize, g: u32) {
        for j in 0..kept {
            let kid = self.kept(base, g, j);
            let at = usize::from(self.line(blank, kid.dir)[usize::from(kid.pushed) - 1]);
            let region = self.region(g + 1, j);
            let n = self.make_children(at, region, &kid.e, Some(kid.dir));
            self.made[(g as usize + 1) * self.width + j] = n as u8;
        }
    }
}
