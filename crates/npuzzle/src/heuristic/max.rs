//! The larger of two heuristics: admissible when both are, and at least as
//! informed as either. Pattern databases over two partitions of the tiles
//! use it (each partition's sum is a lower bound, so their maximum is one).

use super::{Heuristic, TableHooks};

/// The larger of `A`'s and `B`'s estimates.
pub struct MaxOf<A, B>(pub A, pub B);

impl<A: Heuristic, B: Heuristic> Heuristic for MaxOf<A, B> {
    type State = (A::State, B::State);

    const READS_TILES: bool = A::READS_TILES || B::READS_TILES;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn init(&self, tiles: &[u8]) -> Self::State {
        (self.0.init(tiles), self.1.init(tiles))
    }

    #[inline]
    fn value(&self, (a, b): &Self::State) -> u32 {
        self.0.value(a).max(self.1.value(b))
    }

    #[inline]
    fn update(
        &self,
        (a, b): &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::State {
        (
            self.0.update(a, tiles, tile, from, to),
            self.1.update(b, tiles, tile, from, to),
        )
    }
}

/// The hooks of both, where both have them.
impl<A: TableHooks, B: TableHooks> TableHooks for MaxOf<A, B> {
    type Touched = (A::Touched, B::Touched);

    /// `B` is left as it was once `A` alone exceeds `limit`: the state is
    /// then good only for pruning, as the trait allows.
    #[inline]
    fn update_bounded(
        &self,
        (a, b): &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Self::State {
        let a2 = self.0.update_bounded(a, tiles, tile, from, to, limit);
        if self.0.value(&a2) > limit {
            return (a2, *b);
        }
        (a2, self.1.update_bounded(b, tiles, tile, from, to, limit))
    }

    fn touches(&self) -> bool {
        self.0.touches() && self.1.touches()
    }

    fn identity(&self) -> String {
        format!("max({}, {})", self.0.identity(), self.1.identity())
    }

    fn far(&self) -> bool {
        self.0.far() || self.1.far()
    }

    #[inline]
    fn touch(&self, (a, b): &Self::State, tile: u8, from: usize, to: usize) -> Self::Touched {
        (
            self.0.touch(a, tile, from, to),
            self.1.touch(b, tile, from, to),
        )
    }

    #[inline]
    fn update_touched(
        &self,
        (a, b): &Self::State,
        (ta, tb): &Self::Touched,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Self::State {
        let a2 = self.0.update_touched(a, ta, tiles, tile, from, to, limit);
        if self.0.value(&a2) > limit {
            return (a2, *b);
        }
        (
            a2,
            self.1.update_touched(b, tb, tiles, tile, from, to, limit),
        )
    }

    fn second(&self, (a, b): &Self::State) -> u32 {
        self.0.second(a).max(self.1.second(b))
    }

    fn has_second(&self) -> bool {
        self.0.has_second() || self.1.has_second()
    }

    /// The first heuristic's (the other's state may be stale where the
    /// first alone prunes).
    #[inline]
    fn tie(&self, (a, _): &Self::State) -> u32 {
        self.0.tie(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};
    use crate::heuristic::{LinearConflict, Manhattan, Misplaced};

    #[test]
    fn the_larger_of_two_along_a_walk() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let h = MaxOf(Misplaced::new(&goal), LinearConflict::new(&goal));
        let lc = LinearConflict::new(&goal);
        let md = Manhattan::new(&goal);
        let mut b = goal.clone();
        let mut st = h.init(b.tiles());
        let mut x = 12345u32;
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let d = crate::board::Dir::ALL[(x >> 16) as usize % 4];
            let before = b.blank();
            if !b.apply(d) {
                continue;
            }
            let tile = b.tiles()[before];
            st = h.update(&st, b.tiles(), tile, b.blank(), before);
            let want = lc
                .estimate(b.tiles())
                .max(Misplaced::new(&goal).estimate(b.tiles()));
            assert_eq!(h.value(&st), want);
            assert_eq!(h.estimate(b.tiles()), want);
            assert!(h.value(&st) >= md.estimate(b.tiles()));
        }
    }
}
