//! Colour databases on disk, beside the single-tile ones: one file per
//! board, colouring and metric, a header that names them, the entry count
//! and a CRC-32 of the contents, then a byte an entry. Written to a
//! temporary name and renamed, so a crash never leaves a torn file under
//! the real name; a file for anything else, truncated or corrupt, is
//! refused on load (and rebuilt).

use super::Colouring;
use crate::board::Metric;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"NPUZCOL\0";
/// Bumped whenever the layout or the meaning of the bytes changes.
const FORMAT_VERSION: u32 = 1;

/// What a file is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub colouring: Colouring,
    pub metric: Metric,
}

impl Key {
    fn file_name(&self) -> String {
        let s = self.colouring.shape;
        format!(
            "{}x{}-colours{:08x}-{}.cpdb",
            s.rows,
            s.cols,
            crc32fast::hash(&self.colouring.cells),
            self.metric.name()
        )
    }

    fn header(&self, entries: u64, checksum: u32) -> Vec<u8> {
        let s = self.colouring.shape;
        let mut h = Vec::with_capacity(32 + self.colouring.cells.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&[s.rows as u8, s.cols as u8, u8::from(self.metric == Metric::Mtm)]);
        h.extend_from_slice(&self.colouring.cells);
        h.extend_from_slice(&entries.to_le_bytes());
        h.extend_from_slice(&checksum.to_le_bytes());
        h
    }
}

/// Why a file could not be used.
#[derive(Debug, Error)]
pub(super) enum LoadError {
    #[error("not found")]
    Missing,
    #[error("cannot read the colour database {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("the colour database {path} is {what}")]
    Bad { path: PathBuf, what: &'static str },
}

/// The contents of the file for `key`, of `entries` bytes.
pub(super) fn load(dir: &Path, key: &Key, entries: u64) -> Result<Vec<u8>, LoadError> {
    let path = dir.join(key.file_name());
    let io = |source| LoadError::Io {
        path: path.clone(),
        source,
    };
    let bad = |what| LoadError::Bad {
        path: path.clone(),
        what,
    };
    let mut f = match fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(LoadError::Missing),
        Err(e) => return Err(io(e)),
    };
    if !f.metadata().map_err(io)?.is_file() {
        return Err(bad("not a regular file"));
    }
    let want = key.header(entries, 0);
    let mut header = vec![0u8; want.len()];
    f.read_exact(&mut header).map_err(|_| bad("truncated"))?;
    let body = want.len() - 4;
    if header[..body] != want[..body] {
        return Err(bad("for another board, colouring, metric or format version"));
    }
    let checksum = u32::from_le_bytes([header[body], header[body + 1], header[body + 2], header[body + 3]]);
    let len = usize::try_from(entries).map_err(|_| bad("too large"))?;
    // Advised before its pages are touched: lookups read it at random, and
    // with small pages nearly every one also misses the TLB.
    let mut data = Vec::with_capacity(len);
    crate::system::advise_huge_pages(&data);
    data.resize(len, 0u8);
    f.read_exact(&mut data).map_err(|_| bad("truncated"))?;
    if f.read(&mut [0u8; 1]).map_err(io)? != 0 {
        return Err(bad("longer than its header says"));
    }
    if crc32fast::hash(&data) != checksum {
        return Err(bad("corrupt (its checksum does not match)"));
    }
    Ok(data)
}

/// Writes `data` for `key` atomically: a temporary file, synced, renamed.
pub(super) fn save(dir: &Path, key: &Key, data: &[u8]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(key.file_name());
    let tmp = dir.join(format!(".{}.tmp{}", key.file_name(), std::process::id()));
    let result = (|| {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        f.write_all(&key.header(data.len() as u64, crc32fast::hash(data)))?;
        f.write_all(data)?;
        let f = f.into_inner().map_err(io::IntoInnerError::into_error)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|_| path)
}

/// Bytes the databases in the cache directory `dir` take: the single-tile
/// files and the colour ones, which share one cap.
pub(crate) fn disk_used(dir: &Path) -> u64 {
    let single: u64 = crate::heuristic::pdb::store::list(dir).map_or(0, |files| files.iter().map(|f| f.bytes).sum());
    let colour: u64 = list(dir).map_or(0, |files| files.iter().map(|f| f.bytes).sum());
    single + colour
}

/// A colour database file found in a cache directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its size on disk.
    pub bytes: u64,
    /// The board's rows.
    pub rows: u8,
    /// The board's columns.
    pub cols: u8,
    /// How its distances count moves.
    pub metric: Metric,
    /// `colours 2-2-2-7-2`: how many goal cells each colour paints (the
    /// blank's cell apart).
    pub label: String,
    /// Its entries (one byte each).
    pub entries: u64,
}

/// The colour databases in `dir` (`*.cpdb`; files that are not are
/// skipped, their contents checked only when loaded).
pub fn list(dir: &Path) -> io::Result<Vec<ColourFile>> {
    let mut out: Vec<ColourFile> = crate::heuristic::pdb::store::files_with(dir, "cpdb")?
        .into_iter()
        .filter_map(|(path, bytes)| read_head(&path, bytes))
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The header of the colour database at `path`, if it is one.
fn read_head(path: &Path, bytes: u64) -> Option<ColourFile> {
    let mut f = fs::File::open(path).ok()?;
    let mut head = [0u8; 15];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC || head[8..12] != FORMAT_VERSION.to_le_bytes() {
        return None;
    }
    let (rows, cols) = (head[12], head[13]);
    let metric = if head[14] == 1 { Metric::Mtm } else { Metric::Stm };
    let mut rest = vec![0u8; usize::from(rows) * usize::from(cols) + 8];
    f.read_exact(&mut rest).ok()?;
    let cells = &rest[..rest.len() - 8];
    let colours = usize::from(cells.iter().copied().max().unwrap_or(0));
    let mut counts = vec![0usize; colours + 1];
    for &c in cells {
        counts[usize::from(c)] += 1;
    }
    let sizes: Vec<String> = counts[1..].iter().map(ToString::to_string).collect();
    let mut e = [0u8; 8];
    e.copy_from_slice(&rest[rest.len() - 8..]);
    Some(ColourFile {
        path: path.to_path_buf(),
        bytes,
        rows,
        cols,
        metric,
        label: format!("colours {}", sizes.join("-")),
        entries: u64::from_le_bytes(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};

    #[test]
    fn saved_files_are_listed_and_count_against_the_disk_cap() {
        let dir = tempfile::tempdir().unwrap();
        let goal = Board::blank_last(Shape::new(2, 3)).unwrap();
        let colouring = Colouring::from_groups(&goal, &[vec![1, 2], vec![3, 4, 5]]).unwrap();
        let key = Key {
            colouring,
            metric: Metric::Mtm,
        };
        let data = vec![7u8; 60];
        let path = save(dir.path(), &key, &data).unwrap();
        // a stray file of another kind is no database
        fs::write(dir.path().join("notes.cpdb"), b"hello").unwrap();
        let files = list(dir.path()).unwrap();
        assert_eq!(files.len(), 1, "{files:?}");
        let f = &files[0];
        assert_eq!((f.rows, f.cols, f.metric, f.entries), (2, 3, Metric::Mtm, 60));
        assert_eq!(f.label, "colours 2-3");
        assert_eq!(f.path, path);
        assert_eq!(f.bytes, fs::metadata(&path).unwrap().len());
        assert_eq!(disk_used(dir.path()), f.bytes);
        assert_eq!(load(dir.path(), &key, 60).unwrap(), data);
    }
}
