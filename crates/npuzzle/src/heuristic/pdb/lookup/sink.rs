//! Reading a database's file into a [`PatternDb`], packed as it is read.

use super::db::PatternDb;
use crate::heuristic::pdb::entry::Packer;
use crate::heuristic::pdb::{store, PdbError};

/// Reads a database's file into memory: packed to the compact form as it
/// is read where that is asked for and the file has no clamped entry,
/// else as its nibbles.
pub(in crate::heuristic::pdb) struct Sink {
    entries: u64,
    pack: bool,
    packer: Option<Packer>,
    nibbles: Vec<u8>,
}

impl Sink {
    /// For a database of `entries` entries; `pack`: kept compact (a
    /// zero-aware database asked for at one bit an entry).
    pub fn new(entries: u64, pack: bool) -> Sink {
        Sink {
            entries,
            pack,
            packer: None,
            nibbles: Vec::new(),
        }
    }

    /// The database read, from the figures [`store::load_into`] returned.
    pub fn into_db(
        self,
        shape: crate::board::Shape,
        goal: &crate::board::Board,
        key: store::Key,
        figures: store::Figures,
    ) -> Result<PatternDb, PdbError> {
        match self.packer {
            Some(p) => PatternDb::packed(shape, goal, key, figures, self.entries, p.finish()),
            None => {
                let contents = store::Contents {
                    data: self.nibbles,
                    entries: self.entries,
                    max: figures.max,
                    clamped: figures.clamped,
                };
                PatternDb::new(shape, goal, key, contents, false)
            }
        }
    }
}

impl store::DataSink for Sink {
    fn begin(&mut self, figures: store::Figures, bytes: u64) {
        if self.pack && figures.clamped == 0 {
            self.packer = Some(Packer::new(self.entries));
        } else {
            self.nibbles = Vec::with_capacity(usize::try_from(bytes).unwrap_or(0));
            crate::system::advise_huge_pages(&self.nibbles);
        }
    }
    fn take(&mut self, data: &[u8]) {
        match &mut self.packer {
            Some(p) => p.push(data),
            None => self.nibbles.extend_from_slice(data),
        }
    }
}
