//! What IDA* may ask of a heuristic backed by large tables, beyond the
//! estimate ([`TableHooks`]), and [`Plain`], a heuristic with none of it.
//!
//! Pattern databases implement the hooks: IDA* touches their entries
//! ahead of reading them, skips a lookup whose sum already prunes, asks
//! for the dual lookups and breaks ties between children. A heuristic that
//! has no tables goes into IDA* as [`Plain`], whose hooks do nothing, so the
//! core [`Heuristic`] trait stays what every heuristic must say.

use super::Heuristic;

/// The hooks IDA* calls on a heuristic backed by large tables. Every
/// method has a default that asks nothing of the tables, the behaviour of
/// [`Plain`]; an implementation names only [`TableHooks::Touched`] (`()`
/// when it touches nothing).
pub trait TableHooks: Heuristic {
    /// Like [`Heuristic::update`], but the heuristic may skip work once the
    /// value is known to exceed `limit`: the state returned then has a value
    /// above `limit` but is good only for pruning, never for updating
    /// further. (Pattern databases skip the reflected lookup this way.)
    #[inline]
    fn update_bounded(
        &self,
        state: &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        _limit: u32,
    ) -> Self::State {
        self.update(state, tiles, tile, from, to)
    }

    /// What [`TableHooks::touch`] found out about a move, for
    /// [`TableHooks::update_touched`] (pattern databases: where each lookup
    /// reads).
    type Touched: Copy + Default;

    /// Whether [`TableHooks::touch`] pays: IDA* then touches every child's
    /// entries before evaluating any.
    fn touches(&self) -> bool {
        false
    }

    /// Whether the tables [`TableHooks::touch`] reads lie mostly beyond the
    /// processor's caches, so that IDA* does best to touch a node's
    /// grandchildren when it orders its children, a subtree ahead of
    /// reading them, rather than its children when it expands it.
    fn far(&self) -> bool {
        false
    }

    /// Asks the cache for what [`Heuristic::update`] of this move will
    /// read from large tables, so that a node's children's cache misses
    /// overlap instead of coming one after another (pattern databases: one
    /// or two misses a child), and returns where, so that the update need
    /// not work it out again. Nothing by default.
    #[inline]
    fn touch(&self, _state: &Self::State, _tile: u8, _from: usize, _to: usize) -> Self::Touched {
        Self::Touched::default()
    }

    /// [`TableHooks::update_bounded`] of a move [`TableHooks::touch`] was
    /// given, with what it returned.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn update_touched(
        &self,
        state: &Self::State,
        _touched: &Self::Touched,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Self::State {
        self.update_bounded(state, tiles, tile, from, to, limit)
    }

    /// A second lower bound for the same board, costlier than
    /// [`Heuristic::value`] and not consistent with it (pattern databases:
    /// the dual lookups). IDA* asks for it only where the first does not
    /// prune, and takes the larger. `0` unless [`TableHooks::has_second`].
    #[inline]
    fn second(&self, _state: &Self::State) -> u32 {
        0
    }

    /// Whether [`TableHooks::second`] can say more than `0`.
    fn has_second(&self) -> bool {
        false
    }

    /// What each table gave to the estimate of `state`, for a watched
    /// search: each group's value, and each group's value in the reflected
    /// position where that is looked up (pattern databases); `None` for a
    /// heuristic without tables. Never asked when nobody watches.
    #[cold]
    fn parts(&self, _state: &Self::State) -> Option<(Vec<u32>, Option<Vec<u32>>)> {
        None
    }

    /// What tells this heuristic from another with the same name, for a
    /// checkpoint to be taken up only by a search with the same estimates:
    /// pattern databases name their partition and files.
    fn identity(&self) -> String {
        self.name().to_owned()
    }

    /// Which of two children of the same estimate IDA* searches first: the
    /// smaller. Only the last iteration's length changes with it (it
    /// stops at the first solution); `0` by default, move order.
    #[inline]
    fn tie(&self, _state: &Self::State) -> u32 {
        0
    }
}

/// A heuristic with the [`TableHooks`] defaults: how the searches that take
/// hooks (IDA*, parallel IDA*, the anytime search) run one that has none.
/// It forwards [`Heuristic`] to the heuristic inside, so it costs nothing.
#[derive(Clone, Copy, Debug)]
pub struct Plain<H>(pub H);

impl<H: Heuristic> Heuristic for Plain<H> {
    type State = H::State;

    const READS_TILES: bool = H::READS_TILES;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn init(&self, tiles: &[u8]) -> H::State {
        self.0.init(tiles)
    }

    #[inline(always)]
    fn value(&self, state: &H::State) -> u32 {
        self.0.value(state)
    }

    #[inline(always)]
    fn update(&self, state: &H::State, tiles: &[u8], tile: u8, from: usize, to: usize) -> H::State {
        self.0.update(state, tiles, tile, from, to)
    }
}

impl<H: Heuristic> TableHooks for Plain<H> {
    type Touched = ();
}

/// A heuristic behind a reference is the heuristic: `Plain(&h)` borrows
/// a caller's heuristic.
impl<H: Heuristic + ?Sized> Heuristic for &H {
    type State = H::State;

    const READS_TILES: bool = H::READS_TILES;

    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn init(&self, tiles: &[u8]) -> H::State {
        (**self).init(tiles)
    }

    #[inline(always)]
    fn value(&self, state: &H::State) -> u32 {
        (**self).value(state)
    }

    #[inline(always)]
    fn update(&self, state: &H::State, tiles: &[u8], tile: u8, from: usize, to: usize) -> H::State {
        (**self).update(state, tiles, tile, from, to)
    }
}
