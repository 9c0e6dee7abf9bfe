//! Move pruning by an automaton of forbidden move sequences.
//!
//! Many move strings lead to the same board as another string no longer
//! and smaller in order (shortlex: shorter first, then by direction codes
//! `U < D < L < R`): `UD` does nothing, `RDLURDLU…` cycles come back, and so
//! on. IDA* has no duplicate detection, so it searches below each of them
//! again. A breadth-first search over move strings from every blank cell
//! finds such *duplicate strings* up to a length; IDA* then refuses a move
//! that would end one.
//!
//! **Why no optimal answer is lost.** Take the shortlex-smallest optimal
//! path. Were a forbidden string `S` part of it, the string `T` that the
//! search found before `S` (from the same blank cell, reaching the same
//! board from any board: a move string's effect depends only on its start
//! cell) could replace it: a shorter path, or one of the same length that
//! is smaller at the first place they differ. Either contradicts the
//! choice, so that path is never pruned, and IDA* finds it in the
//! iteration whose bound is its length. (Only strings that contain no
//! forbidden string already are extended, so the search stays small.)
//!
//! The forbidden strings are matched with an Aho–Corasick automaton whose
//! states all know the blank's cell: one root per cell (the empty history
//! there), then one state per prefix of a forbidden string. A search
//! carries one `u32` per node and a move is one table lookup. The plain
//! "never undo the last move" rule is the automaton of the strings of
//! length 2 ([`MovePruner::parent_only`]).

use super::moves::dir_code;
use crate::board::{Dir, Shape};
use rustc_hash::FxHashSet;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The transition that a forbidden (or off-board) move has.
pub const FORBIDDEN: u32 = u32::MAX;

/// How IDA* prunes moves.
///
/// ```
/// use npuzzle::{parse_board, Algorithm, Problem, Pruning, SolveOptions};
///
/// let pruning: Pruning = "parent".parse()?;
/// assert_eq!(pruning, Pruning::Parent);
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default()
///     .with_algorithm(Algorithm::Idastar)
///     .with_pruning(pruning);
/// assert_eq!(npuzzle::solve(&Problem::new(start, goal)?, &opts)?.moves, Some(5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pruning {
    /// The planner's choice: the automaton where it is built
    /// (the longest the build allows), else no move straight back.
    #[default]
    Auto,
    /// Only no move straight back (duplicate strings of length 2).
    Parent,
    /// The automaton of duplicate strings as long as the board's build allows.
    Automaton,
}

impl Pruning {
    /// The names as parsed and printed.
    pub fn name(self) -> &'static str {
        match self {
            Pruning::Auto => "auto",
            Pruning::Parent => "parent",
            Pruning::Automaton => "automaton",
        }
    }
}

impl std::str::FromStr for Pruning {
    type Err = String;
    fn from_str(s: &str) -> Result<Pruning, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Pruning::Auto),
            "parent" | "back" => Ok(Pruning::Parent),
            "automaton" | "fsm" => Ok(Pruning::Automaton),
            _ => Err(format!(
                "'{}' is not a move pruning; use auto, parent or automaton",
                crate::board::printable(s)
            )),
        }
    }
}

impl std::fmt::Display for Pruning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Most move strings the breadth-first search keeps in all (bounds the
/// build's time and memory on large boards; the length is cut to fit).
const MAX_STRINGS: usize = 1 << 21;

/// Largest board the automaton is built for (a board is a 128-bit key).
const KEY_CELLS: usize = 25;

/// Longest duplicate strings looked for on a board of `shape`. On Korf's
/// 100 with 6-6-3 the nodes expanded fall with the length (per instance:
/// 126 k with 2, 101 k with 8, 92 k with 10, 87 k with 12, 84 k with 14,
/// 83 k with 16) while the build grows about fivefold per two moves; 12
/// takes about 0.1 s on 4×4. The 24-puzzle's searches are long enough to
/// pay for 14 (about a second). `2` (only the move back) on boards of more
/// than 25 cells.
pub fn automaton_len(shape: Shape) -> usize {
    let n = shape.cells();
    if n > KEY_CELLS || shape.rows < 2 || shape.cols < 2 {
        2
    } else if n <= 16 {
        12
    } else {
        14
    }
}

/// The automaton for one board shape.
#[derive(Debug)]
pub struct MovePruner {
    /// `next[4 · state + dir code]`: the state after the move, or
    /// [`FORBIDDEN`].
    next: Vec<u32>,
    /// The forbidden strings found, for the tests.
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
    forbidden: usize,
}

/// A move string from a start cell: two bits per move (at most 31 moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Word {
    start: u8,
    len: u8,
    bits: u64,
}

impl Word {
    fn push(self, d: u8) -> Word {
        Word {
            start: self.start,
            len: self.len + 1,
            bits: self.bits | u64::from(d) << (2 * self.len),
        }
    }
    fn at(self, i: usize) -> u8 {
        (self.bits >> (2 * i) & 3) as u8
    }
}

fn step(shape: Shape, cell: usize, d: u8) -> Option<usize> {
    Dir::ALL[usize::from(d)].step(cell, shape.rows, shape.cols)
}

impl MovePruner {
    /// The automaton that forbids only a move straight back.
    pub fn parent_only(shape: Shape) -> MovePruner {
        MovePruner::build(shape, 2)
    }

    /// The automaton of the duplicate strings of at most `max_len` moves
    /// (fewer when `MAX_STRINGS` would be passed).
    pub fn build(shape: Shape, max_len: usize) -> MovePruner {
        MovePruner::build_until(shape, max_len, &|| false)
            .unwrap_or_else(|| MovePruner::parent_only(shape))
    }

    /// [`MovePruner::build`], asking `stop` every few thousand strings;
    /// `None` once it says stop.
    fn build_until(shape: Shape, max_len: usize, stop: &dyn Fn() -> bool) -> Option<MovePruner> {
        let n = shape.cells();
        let max_len = if n > KEY_CELLS {
            2
        } else {
            max_len.clamp(2, 31)
        };
        let forbidden_words = if max_len == 2 {
            back_moves(shape)
        } else {
            forbidden_strings(shape, max_len, stop)?
        };
        let forbidden = forbidden_words.len();
        // Aho–Corasick: states 0..n are the roots (empty history on cell c).
        let mut cell: Vec<usize> = (0..n).collect();
        let mut child: Vec<[u32; 4]> = vec![[FORBIDDEN; 4]; n];
        let mut dead: Vec<bool> = vec![false; n];
        for w in &forbidden_words {
            let mut s = usize::from(w.start);
            for i in 0..usize::from(w.len) {
                let d = w.at(i);
                if child[s][usize::from(d)] == FORBIDDEN {
                    let c = step(shape, cell[s], d).unwrap_or(cell[s]);
                    child[s][usize::from(d)] = cell.len() as u32;
                    cell.push(c);
                    child.push([FORBIDDEN; 4]);
                    dead.push(false);
                }
                s = child[s][usize::from(d)] as usize;
            }
            dead[s] = true;
        }
        let states = cell.len();
        let mut fail = vec![0u32; states];
        let mut go = vec![[FORBIDDEN; 4]; states];
        let mut queue = std::collections::VecDeque::new();
        for c in 0..n {
            for d in 0..4u8 {
                let Some(to) = step(shape, c, d) else {
                    continue;
                };
                let v = child[c][usize::from(d)];
                if v == FORBIDDEN {
                    go[c][usize::from(d)] = to as u32;
                } else {
                    fail[v as usize] = to as u32;
                    dead[v as usize] |= dead[to];
                    go[c][usize::from(d)] = v;
                    queue.push_back(v as usize);
                }
            }
        }
        while let Some(u) = queue.pop_front() {
            for d in 0..4u8 {
                if step(shape, cell[u], d).is_none() {
                    continue;
                }
                let f = fail[u] as usize;
                let v = child[u][usize::from(d)];
                if v == FORBIDDEN {
                    go[u][usize::from(d)] = go[f][usize::from(d)];
                } else {
                    let fv = go[f][usize::from(d)];
                    fail[v as usize] = fv;
                    dead[v as usize] |= dead[fv as usize];
                    go[u][usize::from(d)] = v;
                    queue.push_back(v as usize);
                }
            }
        }
        let mut next = Vec::with_capacity(4 * states);
        for g in &go {
            for &v in g {
                next.push(if v == FORBIDDEN || dead[v as usize] {
                    FORBIDDEN
                } else {
                    v
                });
            }
        }
        Some(MovePruner {
            next,
            forbidden,
        })
    }

    /// The state of an empty history with the blank on `cell`.
    #[inline]
    pub fn root(&self, cell: usize) -> u32 {
        cell as u32
    }

    /// The state after moving the blank in direction `dir` (its code,
    /// `dir_code`), or [`FORBIDDEN`].
    #[inline(always)]
    pub fn next(&self, state: u32, dir: u8) -> u32 {
        self.next[(state as usize) << 2 | usize::from(dir & 3)]
    }

    /// Forbidden strings it matches.
    #[cfg(any(test, feature = "internals"))]
    pub fn forbidden(&self) -> usize {
        self.forbidden
    }

    /// The automaton for `shape` under `pruning`, built once per shape and
    /// kept for the process.
    pub fn shared(shape: Shape, pruning: Pruning) -> Arc<MovePruner> {
        MovePruner::shared_until(shape, pruning, &|| false)
    }

    /// [`MovePruner::shared`] for a search that `stop` may end: the first
    /// build for a shape takes up to seconds (5×5), and a search must stop
    /// within milliseconds of its deadline or cancel flag. A build that
    /// `stop` ends gives the automaton of moves straight back, not kept;
    /// the search, which watches the same budget, stops at its first look.
    pub fn shared_until(
        shape: Shape,
        pruning: Pruning,
        stop: &dyn Fn() -> bool,
    ) -> Arc<MovePruner> {
        type Cache = Mutex<HashMap<(Shape, usize), Arc<MovePruner>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let len = match pruning {
            Pruning::Parent => 2,
            Pruning::Auto | Pruning::Automaton => automaton_len(shape),
        };
        let cache = CACHE.get_or_init(Cache::default);
        if let Some(p) = cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(shape, len))
        {
            return p.clone();
        }
        // built outside the lock: two threads may both build, one wins
        let Some(p) = MovePruner::build_until(shape, len, stop) else {
            return Arc::new(MovePruner::parent_only(shape));
        };
        let p = Arc::new(p);
        cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((shape, len))
            .or_insert(p)
            .clone()
    }
}

/// The duplicate strings of at most `max_len` moves from every cell, each
/// with no shorter forbidden string inside it. A string is a duplicate when
/// a string before it in shortlex order, from the same cell, reaches the
/// same board.
///
/// Strings are kept level by level (all cells at once) with a link to the
/// kept string that is their tail (the string less its first move): `w·d`
/// contains a forbidden string only as a suffix, and it has one exactly
/// when `tail(w)·d` was not kept (forbidden itself, or containing one).
fn forbidden_strings(shape: Shape, max_len: usize, stop: &dyn Fn() -> bool) -> Option<Vec<Word>> {
    /// A kept string.
    struct Kept {
        word: Word,
        blank: u8,
        /// The board reached from the identity: five bits per cell.
        key: u128,
        /// The kept string that is this one less its first move.
        tail: u32,
        /// The kept strings one move longer.
        child: [u32; 4],
    }
    const NONE: u32 = u32::MAX;
    let n = shape.cells();
    let mut out = Vec::new();
    let label = |key: u128, c: usize| (key >> (5 * c)) & 31;
    let identity = (0..n).fold(0u128, |k, c| k | (c as u128) << (5 * c));
    let mut seen: Vec<FxHashSet<u128>> = (0..n).map(|_| FxHashSet::from_iter([identity])).collect();
    // the empty strings (roots) are 0..n
    let mut kept: Vec<Kept> = (0..n)
        .map(|c| Kept {
            word: Word {
                start: c as u8,
                len: 0,
                bits: 0,
            },
            blank: c as u8,
            key: identity,
            tail: NONE,
            child: [NONE; 4],
        })
        .collect();
    let mut level = 0..n;
    for _ in 0..max_len {
        let first = kept.len();
        for i in level.clone() {
            if i % 4096 == 0 && stop() {
                return None;
            }
            let (w, blank, key, tail) = {
                let k = &kept[i];
                (k.word, usize::from(k.blank), k.key, k.tail)
            };
            for d in 0..4u8 {
                let Some(to) = step(shape, blank, d) else {
                    continue;
                };
                let tail2 = if w.len == 0 {
                    // a single move: its tail is the empty string there
                    to as u32
                } else {
                    let t = kept[tail as usize].child[usize::from(d)];
                    if t == NONE {
                        continue;
                    }
                    t
                };
                let x = label(key, blank) ^ label(key, to);
                let key2 = key ^ x << (5 * blank) ^ x << (5 * to);
                let w2 = w.push(d);
                if seen[usize::from(w.start)].insert(key2) {
                    kept[i].child[usize::from(d)] = kept.len() as u32;
                    kept.push(Kept {
                        word: w2,
                        blank: to as u8,
                        key: key2,
                        tail: tail2,
                        child: [NONE; 4],
                    });
                } else {
                    out.push(w2);
                }
            }
        }
        level = first..kept.len();
        if kept.len() > MAX_STRINGS {
            break;
        }
    }
    Some(out)
}

/// The strings of a move and its undo, from every cell.
fn back_moves(shape: Shape) -> Vec<Word> {
    let mut out = Vec::new();
    for c in 0..shape.cells() {
        for d in 0..4u8 {
            if step(shape, c, d).is_some() {
                let back = dir_code(Dir::ALL[usize::from(d)].opposite());
                let w = Word {
                    start: c as u8,
                    len: 0,
                    bits: 0,
                };
                out.push(w.push(d).push(back));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board reached from the identity with the blank on `start`, and
    /// the blank's cell, or `None` off the board.
    fn apply(shape: Shape, start: usize, moves: &[u8]) -> Option<(Vec<u8>, usize)> {
        let mut b: Vec<u8> = (0..shape.cells() as u8).collect();
        let mut blank = start;
        for &d in moves {
            let to = step(shape, blank, d)?;
            b.swap(blank, to);
            blank = to;
        }
        Some((b, blank))
    }

    /// Runs the automaton; `None` if a move is refused.
    fn run(p: &MovePruner, start: usize, moves: &[u8]) -> Option<u32> {
        let mut s = p.root(start);
        for &d in moves {
            s = p.next(s, d);
            if s == FORBIDDEN {
                return None;
            }
        }
        Some(s)
    }

    #[test]
    fn a_build_told_to_stop_stops() {
        let shape = Shape::new(4, 4);
        assert!(MovePruner::build_until(shape, 12, &|| true).is_none());
        let asked = std::cell::Cell::new(0);
        let late = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        assert!(MovePruner::build_until(shape, 12, &late).is_none());
        let full = MovePruner::build_until(shape, 12, &|| false).unwrap();
        assert_eq!(full.next, MovePruner::build(shape, 12).next);
        assert!(full.forbidden() > MovePruner::parent_only(shape).forbidden());
    }

    #[test]
    fn parent_only_forbids_exactly_the_move_back() {
        let shape = Shape::new(3, 4);
        let p = MovePruner::parent_only(shape);
        for c in 0..12 {
            for d in 0..4u8 {
                for e in 0..4u8 {
                    let legal = apply(shape, c, &[d, e]).is_some();
                    let back = Dir::ALL[usize::from(d)].opposite() == Dir::ALL[usize::from(e)];
                    assert_eq!(run(&p, c, &[d, e]).is_some(), legal && !back, "{c} {d} {e}");
                }
            }
        }
    }

    #[test]
    fn automaton_prunes_more_on_4x4() {
        let shape = Shape::new(4, 4);
        let p = MovePruner::build(shape, 14);
        assert!(p.forbidden() > 100, "{}", p.forbidden());
        // count the strings of 16 moves each prunes from the corner
        let count = |p: &MovePruner| {
            let mut states = vec![p.root(0)];
            for _ in 0..16 {
                states = states
                    .iter()
                    .flat_map(|&s| (0..4u8).map(move |d| p.next(s, d)))
                    .filter(|&s| s != FORBIDDEN)
                    .collect();
            }
            states.len()
        };
        let plain = count(&MovePruner::parent_only(shape));
        let fsm = count(&p);
        assert!(fsm * 10 < plain * 9, "{fsm} vs {plain}");
    }

    proptest::proptest! {
        /// Every string the automaton refuses has a string no longer and
        /// before it in shortlex order from the same cell that reaches the
        /// same board (a replacement); found by a plain BFS over strings.
        #[test]
        fn every_refused_string_has_an_earlier_equivalent(
            rows in 2usize..4, cols in 2usize..4, start in 0usize..16,
            moves in proptest::collection::vec(0u8..4, 1..9),
        ) {
            let shape = Shape::new(rows, cols);
            let start = start % shape.cells();
            let p = MovePruner::build(shape, 8);
            let Some((board, _)) = apply(shape, start, &moves) else { return Ok(()) };
            if run(&p, start, &moves).is_some() {
                return Ok(());
            }
            // the refused move ends a forbidden string: some suffix `s` of
            // `moves` (from the cell where it starts) has an equivalent
            // before it; replacing it gives an earlier string reaching
            // `board`.
            let mut found = false;
            'outer: for i in 0..moves.len() {
                let (_, c) = apply(shape, start, &moves[..i]).unwrap();
                let s = &moves[i..];
                let (target, _) = apply(shape, c, s).unwrap();
                for len in 0..=s.len() {
                    for code in 0..(1u64 << (2 * len)) {
                        let t: Vec<u8> = (0..len).map(|j| (code >> (2 * (len - 1 - j)) & 3) as u8).collect();
                        if len == s.len() && t.as_slice() >= s {
                            break;
                        }
                        if apply(shape, c, &t).map(|x| x.0) == Some(target.clone()) {
                            let mut whole = moves[..i].to_vec();
                            whole.extend(&t);
                            proptest::prop_assert_eq!(apply(shape, start, &whole).map(|x| x.0), Some(board.clone()));
                            found = true;
                            break 'outer;
                        }
                    }
                }
            }
            proptest::prop_assert!(found, "refused {:?} from {} without a replacement", moves, start);
        }
    }
}
