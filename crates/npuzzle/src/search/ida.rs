//! The depth-first core of IDA*, shared by the sequential driver
//! ([`super::idastar`]) and the parallel one ([`super::parallel`]).
//!
//! The inner loop is built for speed: one board kept in place (a move
//! slides one tile and is undone on the way back), moves from precomputed
//! neighbour tables, moves pruned by an automaton of duplicate move strings
//! ([`super::prune`]; at least no move straight back), the heuristic
//! updated incrementally ([`Heuristic::update`]), every child evaluated
//! before any is searched and searched in the one order [`child_key`]
//! gives, the search generic over the heuristic so it is monomorphised, nothing allocated per
//! node, and the clock and cancel flag looked at only every few thousand
//! expansions.
//!
//! [`Ida`] positions itself on any board ([`Ida::set_board`]) and searches
//! the subtree below with a given bound ([`Ida::search`]); a parallel IDA*
//! hands subtrees to several of them.

use super::moves::{dir_code, slide, undo_slide, Moves, Neighbours};
use super::observe::{Fate, Observer, Quiet, Visit};
use super::checkpoint::{self, CheckpointError, Counts, Due, Place, Saved};
use super::prune::{MovePruner, Pruning, FORBIDDEN};
use super::{Limit, Problem};
use crate::board::{Board, Dir};
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::heuristic::{Heuristic, TableHooks};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How one bounded depth-first search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The goal was reached; [`Ida::take_path`] has the moves.
    Found,
    /// Nothing within the bound; [`Ida::next_bound`] is the smallest `f`
    /// that exceeded it (`u32::MAX` if none did).
    Exhausted,
    /// A budget ran out or the search was cancelled ([`Ida::interrupt`]).
    Stopped,
}

/// The depth-first core of IDA*, for one heuristic, telling `O` what it
/// does (nothing, for [`Quiet`]: every call is compiled away).
pub struct Ida<'h, H: TableHooks, O: Observer = Quiet> {
    h: &'h H,
    /// Neighbours of each cell; indexed by a `u8` cell, so no bounds checks.
    moves: [Moves; 256],
    /// Direction codes of `moves`.
    codes: [[u8; 4]; 256],
    pruner: Arc<MovePruner>,
    /// Whether the heuristic's second opinion ([`TableHooks::second`]) is
    /// asked, with bidirectional pathmax.
    second: bool,
    /// Whether the children's table entries are touched first
    /// ([`TableHooks::touches`]).
    touch: bool,
    /// Whether they are touched a subtree ahead ([`TableHooks::far`]).
    ahead: bool,
    /// The board in place (first `n` bytes); indexed by `u8` cells.
    board: [u8; 256],
    n: usize,
    goal: Vec<u8>,
    bound: u32,
    next_bound: u32,
    /// Nodes expanded and generated so far (across calls).
    pub expanded: u64,
    pub generated: u64,
    check_at: u64,
    max_nodes: u64,
    clock: Clock<'h>,
    /// A second cancel flag, besides the budget's ([`Ida::watching`]).
    stop: Option<Arc<AtomicBool>>,
    interrupt: Option<Interrupt>,
    /// Moves of the path found, last move first, filled while unwinding.
    path: Vec<Dir>,
    /// Checkpoints: the subtrees at a fixed depth, and the saving.
    cut: Option<Box<Cut>>,
    obs: O,
}

/// What a checkpointed search keeps of its place: the subtrees rooted at
/// depth `depth` it entered this iteration, the one it goes on from, and
/// the checkpoint it fills in and writes when one is due.
pub struct Cut {
    depth: u32,
    /// Subtrees entered in this iteration.
    entered: u64,
    /// On resume: subtrees before this one are skipped (they were searched
    /// to exhaustion), and on entering it the counts are taken back.
    resume: Option<(u64, Counts)>,
    /// What a checkpoint written now says (its place updated on entering
    /// each subtree).
    pub saved: Saved,
    path: std::path::PathBuf,
    due: Due,
    /// A write that failed, for the driver to report.
    pub failed: Option<CheckpointError>,
}

impl Cut {
    /// Cutting at `depth`, saving `saved` to `path` when `due`.
    pub fn new(depth: u32, saved: Saved, path: std::path::PathBuf, due: Due) -> Cut {
        Cut {
            depth,
            entered: 0,
            resume: None,
            saved,
            path,
            due,
            failed: None,
        }
    }

    /// A new iteration: nothing entered yet; on resume, subtree `resume.0`
    /// is where it goes on.
    pub fn begin(&mut self, resume: Option<(u64, Counts)>) {
        self.entered = 0;
        self.resume = resume;
    }

    /// Whether a resumed iteration never reached the subtree it was to go
    /// on from (the search is not the one that was saved).
    pub fn missed(&self) -> Option<u64> {
        self.resume.map(|(i, _)| i)
    }

    /// Whether a checkpoint is due (the next then counts from now).
    pub fn due(&mut self) -> bool {
        self.due.now()
    }

    /// Writes the checkpoint now; a failure is kept in `failed`.
    pub fn save(&mut self) -> bool {
        match checkpoint::write(&self.path, &self.saved) {
            Ok(()) => true,
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }
}

impl<'h, H: TableHooks> Ida<'h, H> {
    /// A searcher for boards of `goal`'s shape, limited by `clock`'s budget,
    /// pruning moves as `pruning` says.
    pub fn new(h: &'h H, goal: &Board, clock: Clock<'h>, pruning: Pruning) -> Ida<'h, H> {
        Ida::observed(h, goal, clock, pruning, Quiet)
    }
}

impl<'h, H: TableHooks, O: Observer> Ida<'h, H, O> {
    /// [`Ida::new`], telling `obs` each node expanded and each child
    /// generated.
    pub fn observed(
        h: &'h H,
        goal: &Board,
        clock: Clock<'h>,
        pruning: Pruning,
        obs: O,
    ) -> Ida<'h, H, O> {
        let nb = Neighbours::new(goal.shape());
        let max_nodes = clock.budget().max_nodes;
        let n = goal.len();
        let none = Moves {
            cells: [0; 4],
            dirs: [Dir::Up; 4],
            len: 0,
        };
        let mut moves = [none; 256];
        let mut codes = [[0u8; 4]; 256];
        let mut board = [0u8; 256];
        for c in 0..n {
            moves[c] = nb.of(c);
            for (code, &d) in codes[c].iter_mut().zip(&moves[c].dirs) {
                *code = dir_code(d);
            }
            board[c] = goal.tiles()[c];
        }
        Ida {
            h,
            moves,
            codes,
            pruner: MovePruner::shared_until(goal.shape(), pruning, &|| clock.poll().is_err()),
            second: h.has_second(),
            touch: h.touches(),
            ahead: h.touches() && h.far(),
            board,
            n,
            goal: goal.tiles().to_vec(),
            bound: 0,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            check_at: POLL_EVERY.min(max_nodes),
            max_nodes,
            clock,
            stop: None,
            interrupt: None,
            path: Vec::new(),
            cut: None,
            obs,
        }
    }

    /// The observer.
    pub fn observer(&mut self) -> &mut O {
        &mut self.obs
    }

    /// Also stopped (as if cancelled) once `stop` is raised: a parallel
    /// search's workers watch both the caller's cancel flag (in their
    /// budget) and the flag a worker raises when it finds the answer.
    pub fn watching(mut self, stop: Arc<AtomicBool>) -> Ida<'h, H, O> {
        self.stop = Some(stop);
        self
    }

    /// Checkpointed: subtrees at `cut`'s depth counted, and saved when due
    /// (at the budget's polls).
    pub fn with_cut(mut self, cut: Cut) -> Ida<'h, H, O> {
        self.cut = Some(Box::new(cut));
        self
    }

    /// The checkpointing, if any.
    pub fn cut(&mut self) -> Option<&mut Cut> {
        self.cut.as_deref_mut()
    }

    /// The pruning automaton's state of an empty history with the blank on
    /// `blank` (a search's root).
    pub fn root(&self, blank: usize) -> u32 {
        self.pruner.root(blank)
    }

    /// Puts a board (of the goal's shape) in place.
    pub fn set_board(&mut self, tiles: &[u8]) {
        self.board[..self.n].copy_from_slice(tiles);
    }

    #[cfg(test)]
    pub fn tiles(&self) -> &[u8] {
        &self.board[..self.n]
    }

    /// Searches below the board in place, which was reached in `g` moves
    /// with its blank on `blank` and the pruning automaton in `state`
    /// ([`Ida::root`] at a root), for the goal within `f ≤ bound`. `hs` is
    /// the heuristic state of the board in place.
    pub fn search(&mut self, blank: usize, state: u32, g: u32, hs: H::State, bound: u32) -> Step {
        self.bound = bound;
        self.next_bound = u32::MAX;
        self.path.clear();
        let mut touched = [H::Touched::default(); 4];
        let b = blank as u8;
        match (self.ahead, self.cut.is_some()) {
            (true, cut) => {
                self.touch_kids(&hs, blank, state, usize::MAX, &mut touched);
                if cut {
                    self.dfs::<true, true>(b, state, g, hs, &touched)
                } else {
                    self.dfs::<true, false>(b, state, g, hs, &touched)
                }
            }
            (false, true) => self.dfs::<false, true>(b, state, g, hs, &touched),
            (false, false) => self.dfs::<false, false>(b, state, g, hs, &touched),
        }
    }

    /// Smallest `f` above the bound met by the last [`Ida::search`].
    pub fn next_bound(&self) -> u32 {
        self.next_bound
    }

    /// What stopped the last search, when it returned [`Step::Stopped`].
    pub fn interrupt(&self) -> Option<Interrupt> {
        self.interrupt
    }

    /// The moves found by the last search (from its root to the goal).
    pub fn take_path(&mut self) -> Vec<Dir> {
        let mut p = std::mem::take(&mut self.path);
        p.reverse();
        p
    }

    #[cold]
    fn poll(&mut self) -> bool {
        if self.expanded >= self.max_nodes {
            self.interrupt = Some(Interrupt::Limit(Limit::Nodes));
            return true;
        }
        if let Err(i) = self.clock.poll() {
            self.interrupt = Some(i);
            return true;
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.interrupt = Some(Interrupt::Cancelled);
            return true;
        }
        if let Some(cut) = self.cut.as_deref_mut() {
            if cut.due() && !cut.save() {
                self.interrupt = Some(Interrupt::Cancelled);
                return true;
            }
        }
        // a poll comes every POLL_EVERY nodes
        self.clock.tell(POLL_EVERY);
        self.check_at = (self.expanded + POLL_EVERY).min(self.max_nodes);
        false
    }

    /// Whether the search ends after a child's `step`; on the way back
    /// from the goal, records the move `dir` that led to the child.
    #[inline(always)]
    fn ends(&mut self, step: Step, dir: Dir) -> bool {
        if step == Step::Found {
            self.path.push(dir);
        }
        step != Step::Exhausted
    }

    /// Asks the heuristic for the table entries of every child of a node
    /// ([`TableHooks::touch`]) into `out`, by move: the node has heuristic
    /// state `hs`, the blank on `blank` and the automaton in `state`, and
    /// its board is the one in place but for the blank having come from
    /// `prev` (`usize::MAX` when it is the board in place).
    #[inline(always)]
    fn touch_kids(
        &self,
        hs: &H::State,
        blank: usize,
        state: u32,
        prev: usize,
        out: &mut [H::Touched; 4],
    ) {
        let m = self.moves[blank];
        let codes = self.codes[blank];
        for j in 0..usize::from(m.len) {
            if self.pruner.next(state, codes[j]) == FORBIDDEN {
                continue;
            }
            let to = usize::from(m.cells[j]);
            let tile = if to == prev {
                self.board[blank]
            } else {
                self.board[to]
            };
            out[j] = self.h.touch(hs, tile, to, blank);
        }
    }

    /// The heuristic state of the child whose blank goes from `b` to `to`,
    /// exact up to `limit` ([`TableHooks::update_bounded`]); `touched` is
    /// what [`TableHooks::touch`] found for it, if asked.
    #[inline(always)]
    fn child(
        &mut self,
        hs: &H::State,
        touched: &H::Touched,
        b: usize,
        to: usize,
        limit: u32,
    ) -> H::State {
        // (the `READS_TILES` branches are resolved at compile time)
        let tile = if H::READS_TILES {
            slide(&mut self.board, b, to)
        } else {
            self.board[to]
        };
        let tiles: &[u8] = if H::READS_TILES {
            &self.board[..self.n]
        } else {
            &[]
        };
        let hs2 = if self.touch {
            self.h
                .update_touched(hs, touched, tiles, tile, to, b, limit)
        } else {
            self.h.update_bounded(hs, tiles, tile, to, b, limit)
        };
        if H::READS_TILES {
            undo_slide(&mut self.board, b, to, tile);
        }
        hs2
    }

    /// The one expansion, in two passes: every child is evaluated before
    /// any is searched, in the order of [`child_key`] (on Korf's 100 with
    /// 7-8, 13% fewer nodes generated and 0.378 s against 0.415 s than
    /// evaluating and searching each child in move order, medians of 3).
    /// A heuristic that reads the board ([`Heuristic::READS_TILES`]) has
    /// the child's board moved to and back for its evaluation; the others
    /// are evaluated from the move alone. With the heuristic's second opinion
    /// (an inconsistent heuristic) it adds bidirectional pathmax: a child
    /// whose estimate exceeds the
    /// parent's by more than one move raises the parent's (a move changes
    /// the true distance by one), which may prune the parent and its other
    /// children at once. (Pathmax downwards never prunes in IDA*: a child's
    /// inherited `f` is its parent's, within the bound.)
    ///
    /// It stays one function, past the length the rest of the code keeps
    /// to: with its first pass split out (inlined), 3×3 batches ran 5.8%
    /// more instructions (callgrind), the compiler inlining the heuristic
    /// differently.
    ///
    /// With `AHEAD` ([`TableHooks::far`]), `ahead` is what
    /// [`TableHooks::touch`] found for each child, asked for by the parent
    /// (see below); without, the node touches its children itself.
    ///
    /// With `CUT` (a checkpointed search), a node at the cut's depth is
    /// the root of a subtree counted, and perhaps skipped, by
    /// [`Ida::enter`]; below it the search runs without `CUT`.
    fn dfs<const AHEAD: bool, const CUT: bool>(
        &mut self,
        blank: u8,
        state: u32,
        g: u32,
        hs: H::State,
        ahead: &[H::Touched; 4],
    ) -> Step {
        if self.h.value(&hs) == 0 && self.board[..self.n] == self.goal[..] {
            return Step::Found;
        }
        if CUT && self.cut.as_ref().is_some_and(|c| c.depth == g) {
            return self.enter::<AHEAD>(blank, state, g, hs, ahead);
        }
        if self.expanded >= self.check_at && self.poll() {
            return Step::Stopped;
        }
        self.expanded += 1;
        let m = self.moves[usize::from(blank)];
        let codes = self.codes[usize::from(blank)];
        let b = usize::from(blank);
        let limit = self.bound.saturating_sub(g + 1);
        let len = usize::from(m.len);
        let mut nexts = [FORBIDDEN; 4];
        for (next, &code) in nexts.iter_mut().zip(&codes).take(len) {
            *next = self.pruner.next(state, code);
        }
        // every child's table entries asked for before any is read
        let mut own = [H::Touched::default(); 4];
        let touched = if AHEAD {
            ahead
        } else {
            if self.touch {
                self.touch_kids(&hs, b, state, usize::MAX, &mut own);
            }
            &own
        };
        let mut kids: [Option<(H::State, u32)>; 4] = [None; 4];
        // each child's `f` and the heuristic's tie-break, to search the
        // most promising first
        let mut fs = [u64::MAX; 4];
        for (i, &next) in nexts.iter().enumerate().take(len) {
            if next == FORBIDDEN {
                continue;
            }
            self.generated += 1;
            let to = usize::from(m.cells[i]);
            let hs2 = self.child(&hs, &touched[i], b, to, limit);
            let mut f = g + 1 + self.h.value(&hs2);
            if self.second && f <= self.bound {
                f = f.max(g + 1 + self.h.second(&hs2));
            }
            if O::ACTIVE {
                let fate = if f > self.bound { Fate::Pruned } else { Fate::Queued };
                self.tell_child(b, to, m.dirs[i], g + 1, f - g - 1, fate);
            }
            if f > self.bound {
                // pathmax: the parent is at least `f − 2` (its `g` plus the
                // child's estimate less one; saturating, for a heuristic
                // that says 0 short of the goal)
                if f.saturating_sub(2) > self.bound {
                    self.next_bound = self.next_bound.min(f - 2);
                    return Step::Exhausted;
                }
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            fs[i] = child_key(self.h, f, &hs2);
            kids[i] = Some((hs2, next));
        }
        let mut order = [0usize, 1, 2, 3];
        order.sort_by_key(|&i| fs[i]);
        // Every child to be searched has its own children's entries asked
        // for now, in search order: the first child's misses overlap with
        // the asking for the others', and a later child's arrive while an
        // earlier one's subtree is searched, instead of each child waiting
        // for its own at its expansion.
        let mut grand = [[H::Touched::default(); 4]; 4];
        if AHEAD {
            for &i in &order {
                if let Some((hs2, next)) = &kids[i] {
                    self.touch_kids(hs2, usize::from(m.cells[i]), *next, b, &mut grand[i]);
                }
            }
        }
        for i in order {
            let Some((hs2, next)) = kids[i] else { continue };
            let (cell, dir) = (m.cells[i], m.dirs[i]);
            let to = usize::from(cell);
            let tile = slide(&mut self.board, b, to);
            if O::ACTIVE {
                let (tiles, h) = (&self.board[..self.n], self.h.value(&hs2));
                let via = Some(dir);
                self.obs.expanded(&Visit { tiles, g: g + 1, h: Some(h), via });
                self.tell_parts(&hs2);
            }
            // (without `AHEAD` the child reads nothing of it)
            let its = if AHEAD { &grand[i] } else { ahead };
            let step = self.dfs::<AHEAD, CUT>(cell, next, g + 1, hs2, its);
            undo_slide(&mut self.board, b, to, tile);
            if self.ends(step, dir) {
                return step;
            }
        }
        Step::Exhausted
    }
}

impl<H: TableHooks, O: Observer> Ida<'_, H, O> {
    /// A subtree root at the cut's depth (see [`Cut`]): skipped when a
    /// resumed iteration has not reached its place yet, its counts taken
    /// back when it has, recorded as the place a checkpoint now names,
    /// then searched.
    #[cold]
    #[inline(never)]
    fn enter<const AHEAD: bool>(
        &mut self,
        blank: u8,
        state: u32,
        g: u32,
        hs: H::State,
        ahead: &[H::Touched; 4],
    ) -> Step {
        let Some(cut) = self.cut.as_deref_mut() else {
            return self.dfs::<AHEAD, false>(blank, state, g, hs, ahead);
        };
        let index = cut.entered;
        cut.entered += 1;
        if let Some((at, counts)) = cut.resume {
            if index < at {
                return Step::Exhausted;
            }
            cut.resume = None;
            self.expanded = counts.expanded;
            self.generated = counts.generated;
            self.next_bound = counts.next_bound;
            self.check_at = (self.expanded + POLL_EVERY).min(self.max_nodes);
        }
        let counts = Counts {
            expanded: self.expanded,
            generated: self.generated,
            next_bound: self.next_bound,
        };
        if let Place::Serial { entered, .. } = &mut cut.saved.place {
            *entered = Some((index, counts));
        }
        self.dfs::<AHEAD, false>(blank, state, g, hs, ahead)
    }

    /// Tells the observer what each table gave to the estimate `hs`, where
    /// the heuristic has tables.
    #[cold]
    pub fn tell_parts(&mut self, hs: &H::State) {
        if let Some((plain, reflected)) = self.h.parts(hs) {
            self.obs.estimate_parts(&plain, reflected.as_deref());
        }
    }

    /// Tells the observer of the child whose blank goes from `b` to `to`
    /// (`dir`), at depth `g` with estimate `h`.
    #[cold]
    fn tell_child(&mut self, b: usize, to: usize, dir: Dir, g: u32, h: u32, fate: Fate) {
        let tile = slide(&mut self.board, b, to);
        let child = Visit {
            tiles: &self.board[..self.n],
            g,
            h: Some(h),
            via: Some(dir),
        };
        self.obs.generated(&child, fate);
        undo_slide(&mut self.board, b, to, tile);
    }
}

/// The order IDA* searches the children of a node in, sequential or
/// parallel: smallest key first, stably. Smallest `f` first, ties as the
/// heuristic says ([`TableHooks::tie`]): in the last iteration the goal is
/// met sooner; the order changes nothing else (pruning depends on the path,
/// not on the order siblings are searched in).
#[inline(always)]
pub fn child_key<H: TableHooks>(h: &H, f: u32, hs: &H::State) -> u64 {
    u64::from(f) << 32 | u64::from(h.tie(hs))
}

/// Parity of every path length from the start to the goal: each move
/// changes the Manhattan distance by exactly one.
pub fn solution_parity(problem: &Problem) -> u32 {
    crate::heuristic::Manhattan::new(problem.goal()).estimate(problem.start().tiles()) % 2
}

/// The smallest bound `≥ f` with the solutions' parity: an iteration whose
/// bound has the other parity cannot find a solution that the next one
/// would not, so it is skipped.
pub fn with_parity(f: u32, parity: u32) -> u32 {
    if f == u32::MAX || f % 2 == parity {
        f
    } else {
        f + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::heuristic::{Manhattan, Plain};
    use crate::search::Budget;

    #[test]
    fn subtree_search_from_a_board_in_place() {
        // Search below a board reached after 3 moves, as a parallel IDA*
        // would: the path found is the rest of the way.
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let start = Board::from_tiles(3, 3, &[1, 2, 3, 4, 0, 6, 7, 5, 8]).unwrap();
        let h = Plain(Manhattan::new(&goal));
        let budget = Budget::unlimited();
        let mut ida = Ida::new(&h, &goal, Clock::new(&budget), Pruning::Automaton);
        ida.set_board(start.tiles());
        let hs = h.init(start.tiles());
        let root = ida.root(start.blank());
        // bound 3 + 1 is too small for the 2 moves left when g = 3
        assert_eq!(ida.search(start.blank(), root, 3, hs, 4), Step::Exhausted);
        assert_eq!(ida.next_bound(), 5);
        assert_eq!(ida.tiles(), start.tiles(), "board restored");
        assert_eq!(ida.search(start.blank(), root, 3, hs, 5), Step::Found);
        assert_eq!(ida.take_path(), [Dir::Down, Dir::Right]);
    }

    #[test]
    fn a_raised_stop_flag_stops_the_search_at_its_next_poll() {
        // A 15-puzzle far from the goal: misplaced tiles search for hours.
        let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
        let start = Board::from_tiles(
            4,
            4,
            &[0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1],
        )
        .unwrap();
        let h = Plain(crate::heuristic::Misplaced::new(&goal));
        let budget = Budget::unlimited();
        let stop = Arc::new(AtomicBool::new(true));
        let mut ida = Ida::new(&h, &goal, Clock::new(&budget), Pruning::Auto).watching(stop);
        ida.set_board(start.tiles());
        let hs = h.init(start.tiles());
        let root = ida.root(start.blank());
        assert_eq!(ida.search(start.blank(), root, 0, hs, 80), Step::Stopped);
        assert_eq!(ida.interrupt(), Some(Interrupt::Cancelled));
        assert_eq!(ida.expanded, POLL_EVERY);
    }

    /// IDA* to the end from `start`, touching a subtree ahead or not: each
    /// iteration's bound and outcome, the nodes, and the path.
    fn iterations<H: TableHooks>(
        h: &H,
        goal: &Board,
        start: &Board,
        ahead: bool,
    ) -> (Vec<(u32, Step)>, u64, u64, Vec<Dir>) {
        let budget = Budget::unlimited();
        let mut ida = Ida::new(h, goal, Clock::new(&budget), Pruning::Auto);
        ida.ahead = ahead;
        ida.set_board(start.tiles());
        let hs = h.init(start.tiles());
        let root = ida.root(start.blank());
        let mut bound = h.value(&hs);
        let mut steps = Vec::new();
        loop {
            let step = ida.search(start.blank(), root, 0, hs, bound);
            steps.push((bound, step));
            assert_eq!(ida.tiles(), start.tiles(), "board restored");
            if step != Step::Exhausted {
                break;
            }
            bound = ida.next_bound();
        }
        (steps, ida.expanded, ida.generated, ida.take_path())
    }

    #[test]
    fn touching_ahead_searches_the_same_tree() {
        // Touching a node's grandchildren when its children are ordered
        // (`TableHooks::far`) changes only when table entries are asked for.
        use crate::heuristic::pdb::{BlankMode, PdbHeuristic, PdbOptions};
        let cases = [
            (
                Board::blank_first(Shape::new(3, 3)).unwrap(),
                "4-4",
                BlankMode::Bits,
            ),
            (
                Board::blank_last(Shape::new(3, 3)).unwrap(),
                "3-5",
                BlankMode::Regions,
            ),
            (
                Board::blank_first(Shape::new(2, 4)).unwrap(),
                "3-4",
                BlankMode::Min,
            ),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for (goal, partition, blank) in cases {
            let opts = PdbOptions::default()
                .with_partition(partition.parse().unwrap())
                .with_cache(false)
                .with_blank(blank);
            let h = PdbHeuristic::<16, 4>::load(&goal, &opts, &(), &Budget::unlimited()).unwrap();
            assert!(h.touches(), "{partition}");
            for _ in 0..30 {
                let mut start = goal.clone();
                for _ in 0..60 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    start.apply(Dir::ALL[(seed % 4) as usize]);
                }
                let near = iterations(&h, &goal, &start, false);
                let far = iterations(&h, &goal, &start, true);
                assert_eq!(near, far, "{partition} from {start:?}");
                let (steps, _, _, path) = far;
                assert_eq!(steps.last().map(|s| s.1), Some(Step::Found));
                assert_eq!(start.apply_path(&path).unwrap(), goal, "path replayed");
                assert_eq!(Some(path.len() as u32), steps.last().map(|s| s.0));
            }
        }
    }
}
