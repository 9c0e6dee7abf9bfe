//! Where the moves go: the solver hands them over in chunks as it produces
//! them, so a path of billions of moves never has to be held.

use crate::board::Dir;
use std::convert::Infallible;
use std::io::{self, Write};

/// Receives the moves of a solution, in order, in chunks.
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
