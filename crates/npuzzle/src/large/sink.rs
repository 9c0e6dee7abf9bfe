//! Where the moves go: the solver hands them over in chunks as it produces
//! them, so a path of billions of moves never has to be held.

use crate::board::Dir;
use std::convert::Infallible;
use std::io::{self, Write};

/// Receives the moves of a solution, in order, in chunks.
///
/// ```
/// use npuzzle::{solve_grid, Dir, Grid, MoveSink, Shape, SolveOptions};
/// use std::convert::Infallible;
///
/// struct Count(u64); // counts the moves, keeps none
/// impl MoveSink for Count {
///     type Error = Infallible;
///     fn moves(&mut self, moves: &[Dir]) -> Result<(), Infallible> {
///         self.0 += moves.len() as u64;
///         Ok(())
///     }
/// }
///
/// let goal = Grid::blank_last(Shape::new(30, 30));
/// let mut start = goal.clone();
/// for _ in 0..10 {
///     start.apply(Dir::Up);
///     start.apply(Dir::Left);
/// }
/// let mut count = Count(0);
/// let answer = solve_grid(&start, &goal, &SolveOptions::default(), &mut count)?;
/// assert_eq!(answer.moves, Some(count.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait MoveSink {
    /// What a failed hand-over reports (a write error, say).
    type Error;

    /// Takes the next moves. An error stops the solver, which returns it.
    fn moves(&mut self, moves: &[Dir]) -> Result<(), Self::Error>;
}

/// Keeps the whole path (for boards whose path fits in memory).
impl MoveSink for Vec<Dir> {
    type Error = Infallible;

    fn moves(&mut self, moves: &[Dir]) -> Result<(), Infallible> {
        self.extend_from_slice(moves);
        Ok(())
    }
}

/// Drops the moves (the solver still counts them).
///
/// ```
/// use npuzzle::{solve_grid, Dir, Discard, Grid, Shape, SolveOptions};
///
/// let goal = Grid::blank_last(Shape::new(40, 40));
/// let mut start = goal.clone();
/// start.apply(Dir::Up);
/// let answer = solve_grid(&start, &goal, &SolveOptions::default(), &mut Discard)?;
/// // The fast solver's moves, counted, not kept (the fewest is 1).
/// assert!(answer.moves.unwrap() >= 1);
/// assert_eq!(answer.lower_bound, Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl MoveSink for Discard {
    type Error = Infallible;

    fn moves(&mut self, _: &[Dir]) -> Result<(), Infallible> {
        Ok(())
    }
}

/// Writes the moves as `U`/`D`/`L`/`R` letters, with no separators.
///
/// The writer gets one `write_all` per chunk; wrap a file in a
/// `BufWriter` only if you also write small pieces around it.
///
/// ```
/// use npuzzle::{parse_path, Letters, MoveSink};
///
/// let mut sink = Letters::new(Vec::new());
/// sink.moves(&parse_path("UL")?)?;
/// sink.moves(&parse_path("DR")?)?;
/// assert_eq!(sink.into_inner(), b"ULDR");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Letters<W: Write> {
    writer: W,
    buf: Vec<u8>,
}

impl<W: Write> Letters<W> {
    /// Letters written to `writer`.
    pub fn new(writer: W) -> Letters<W> {
        Letters {
            writer,
            buf: Vec::new(),
        }
    }

    /// The writer back (not flushed).
    pub fn into_inner(self) -> W {
        self.writer
    }
}

impl<W: Write> MoveSink for Letters<W> {
    type Error = io::Error;

    fn moves(&mut self, moves: &[Dir]) -> io::Result<()> {
        self.buf.clear();
        self.buf.extend(moves.iter().map(|d| d.letter() as u8));
        self.writer.write_all(&self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_written_in_order() {
        let mut sink = Letters::new(Vec::new());
        sink.moves(&[Dir::Up, Dir::Left]).unwrap();
        sink.moves(&[Dir::Down, Dir::Right]).unwrap();
        assert_eq!(sink.into_inner(), b"ULDR");
    }
}
