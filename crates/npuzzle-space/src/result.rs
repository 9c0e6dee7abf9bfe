//! What a whole-space search found.

use npuzzle::{Board, Shape};

/// The distribution of distances from a goal over every reachable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceResult {
    /// The goal the distances are measured from.
    pub goal: Board,
    /// `counts[d]`: the number of positions at distance `d`.
    pub counts: Vec<u64>,
    /// The first antipodes (positions at the greatest distance) in rank
    /// order, as many as were asked for.
    pub antipodes: Vec<Board>,
}

impl SpaceResult {
    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.goal.shape()
    }

    /// Every position counted: `(R·C)!/2` when the search is complete.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The greatest distance from the goal.
    pub fn radius(&self) -> u32 {
        self.counts.len().saturating_sub(1) as u32
    }

    /// How many positions lie at the greatest distance.
    pub fn antipode_count(&self) -> u64 {
        self.counts.last().copied().unwrap_or(0)
    }

    /// The mean distance over all positions.
    pub fn mean(&self) -> f64 {
        let weighted: u128 = self
            .counts
            .iter()
            .enumerate()
            .map(|(d, &c)| d as u128 * u128::from(c))
            .sum();
        weighted as f64 / self.total().max(1) as f64
    }

    /// The distance with the most positions (the smallest, on a tie).
    pub fn mode(&self) -> u32 {
        let mut best = 0;
        for (d, &c) in self.counts.iter().enumerate() {
            if c > self.counts[best] {
                best = d;
            }
        }
        best as u32
    }

    /// The number of positions at a distance less than `d`.
    pub fn closer_than(&self, d: u32) -> u64 {
        self.counts.iter().take(d as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_figures() {
        let r = SpaceResult {
            goal: Board::blank_last(Shape::new(2, 2)).unwrap(),
            counts: vec![1, 2, 2, 2, 2, 2, 1],
            antipodes: vec![],
        };
        assert_eq!(r.total(), 12);
        assert_eq!(r.radius(), 6);
        assert_eq!(r.antipode_count(), 1);
        assert_eq!(r.mean(), 3.0);
        assert_eq!(r.mode(), 1);
        assert_eq!(r.closer_than(2), 3);
    }
}
