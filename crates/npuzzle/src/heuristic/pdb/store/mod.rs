//! The on-disk cache of built pattern databases.
//!
//! One file per (board, goal, group, zero-awareness): a header naming the
//! format version, the board, the goal, the group, whether the database is
//! zero-aware, its entry count, its largest value, how many entries were
//! clamped, and a CRC-32 of those two figures and the contents; then the
//! contents, two entries a byte (see `build` for what a nibble
//! holds). A file of another format version (the byte-per-entry files of
//! version 2) fails the version check and is rebuilt. Files are written
//! to a temporary name in the same directory and renamed into place, so a
//! crash or two builders racing never leave a torn file under the real
//! name. A file that is truncated, corrupt or for another board, goal or
//! group is detected on load.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"NPUZPDB\0";
/// Header bytes after the entry count: largest value, clamped count,
/// checksum.
const HEADER_TAIL: usize = 1 + 8 + 4;
/// Bumped whenever the layout or the meaning of the bytes changes.
/// Version 3: nibbles of `(d − md) / 2` in the order of the compact
/// layout (version 2 kept a byte per entry, indexed by free-cell ordinal).
pub const FORMAT_VERSION: u32 = 3;

/// A database's contents, as built or loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    /// Two entries a byte, the even one in the low half.
    pub data: Vec<u8>,
    /// Entries: `data` holds `entries.div_ceil(2)` bytes.
    pub entries: u64,
    /// The largest distance in the database's definition.
    pub max: u8,
    /// Entries stored below their definition (clamped to 15).
    pub clamped: u64,
}

impl Contents {
    /// Bytes of data `entries` entries take.
    pub fn data_bytes(entries: u64) -> u64 {
        entries.div_ceil(2)
    }

    /// CRC-32 of the figures and the data.
    fn checksum(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        h.update(&[self.max]);
        h.update(&self.clamped.to_le_bytes());
        h.update(&self.data);
        h.finalize()
    }
}

/// What a database file is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// The goal's tiles in reading order.
    pub goal: Vec<u8>,
    /// The group's tiles, sorted.
    pub tiles: Vec<u8>,
    /// Zero-aware: one value per region of the blank (else the minimum
    /// over the blank's regions).
    pub regions: bool,
}

impl Key {
    /// File name: board, a hash of the goal, the tiles.
    pub fn file_name(&self) -> String {
        let goal_hash = crc32fast::hash(&self.goal);
        let tiles: Vec<String> = self.tiles.iter().map(ToString::to_string).collect();
        format!(
            "{}x{}-goal{:08x}-tiles{}{}.pdb",
            self.rows,
            self.cols,
            goal_hash,
            tiles.join("_"),
            if self.regions { "-regions" } else { "" }
        )
    }

    /// The header up to the entry count (what must match the key), then
    /// the largest value, the clamped count and the checksum.
    fn header(&self, entries: u64, max: u8, clamped: u64, checksum: u32) -> Vec<u8> {
        let mut h = Vec::with_capacity(HEADER_TAIL + 25 + self.goal.len() + self.tiles.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.push(self.rows);
        h.push(self.cols);
        h.push(self.goal.len() as u8);
        h.push(self.tiles.len() as u8);
        h.push(u8::from(self.regions));
        h.extend_from_slice(&self.goal);
        h.extend_from_slice(&self.tiles);
        h.extend_from_slice(&entries.to_le_bytes());
        h.push(max);
        h.extend_from_slice(&clamped.to_le_bytes());
        h.extend_from_slice(&checksum.to_le_bytes());
        h
    }
}

/// Why a cached file could not be used.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No file of the key's name in the directory: not built yet.
    #[error("not found")]
    Missing,
    /// The file exists but reading it failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Something other than a regular file (a directory, a FIFO, a
    /// device) stands under the file's name.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file does not start with this format's magic and version (a
    /// foreign file, or one from another version of the format).
    #[error("{path} is not a pattern database of this format (version or magic differs)")]
    Format {
        /// The file.
        path: PathBuf,
    },
    /// The header names another board, goal, group or zero-awareness (or
    /// another entry count) than the key.
    #[error("{path} is for another board, goal or group")]
    Mismatch {
        /// The file.
        path: PathBuf,
    },
    /// The file ends before its header or its data does.
    #[error("{path} is truncated ({got} of {want} bytes)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes found.
        got: u64,
        /// Bytes a whole file has (header and data).
        want: u64,
    },
    /// The data fails its CRC-32, or the file is longer than its header
    /// says.
    #[error("{path} is corrupt (checksum mismatch)")]
    Corrupt {
        /// The file.
        path: PathBuf,
    },
}

/// What a file's header says of its contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// The largest distance in the database's definition.
    pub max: u8,
    /// Entries stored below their definition (clamped to 15).
    pub clamped: u64,
}

/// Where [`load_into`] puts a file's data as it reads it.
pub trait DataSink {
    /// Before the data: the header's figures and the bytes to come.
    fn begin(&mut self, figures: Figures, bytes: u64);
    /// The next bytes of data (a multiple of [`CHUNK`] bytes but for the
    /// last).
    fn take(&mut self, data: &[u8]);
}

/// Bytes read at a time by [`load_into`].
pub const CHUNK: usize = 1 << 20;

struct Whole(Vec<u8>);

impl DataSink for Whole {
    fn begin(&mut self, _: Figures, bytes: u64) {
        self.0 = Vec::with_capacity(usize::try_from(bytes).unwrap_or(0));
        crate::system::advise_huge_pages(&self.0);
    }
    fn take(&mut self, data: &[u8]) {
        self.0.extend_from_slice(data);
    }
}

/// Loads the database for `key` from `dir`, checking everything; `entries`
/// is the number of entries such a database holds.
pub fn load(dir: &Path, key: &Key, entries: u64) -> Result<Contents, LoadError> {
    let mut whole = Whole(Vec::new());
    let figures = load_into(dir, key, entries, &mut whole)?;
    Ok(Contents {
        data: whole.0,
        entries,
        max: figures.max,
        clamped: figures.clamped,
    })
}

/// [`load`], handing the data to `sink` a chunk at a time (so that it can
/// be kept in another form without holding the file's bytes at once). The
/// checks are the same: an error means the sink's contents are to be
/// dropped.
pub fn load_into(
    dir: &Path,
    key: &Key,
    entries: u64,
    sink: &mut dyn DataSink,
) -> Result<Figures, LoadError> {
    let path = dir.join(key.file_name());
    let io_err = |source: io::Error| LoadError::Io {
        path: path.clone(),
        source,
    };
    // Only a regular file is read: opening a FIFO (or a device) that
    // someone left under the file's name would block, or never end.
    let file_len = match fs::metadata(&path) {
        Ok(m) if m.is_file() => m.len(),
        Ok(_) => return Err(LoadError::NotAFile { path }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(LoadError::Missing),
        Err(e) => return Err(io_err(e)),
    };
    let mut f = match fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(LoadError::Missing),
        Err(e) => return Err(io_err(e)),
    };
    let bytes = Contents::data_bytes(entries);
    let (figures, checksum, hl) = read_header(&mut f, &path, key, entries, bytes)?;
    // Room for no more than the caller expects and the file holds, so that
    // neither a wrong expectation nor a short file sizes a big allocation.
    sink.begin(figures, bytes.min(file_len.saturating_sub(hl)));
    let mut crc = crc32fast::Hasher::new();
    crc.update(&[figures.max]);
    crc.update(&figures.clamped.to_le_bytes());
    let got = read_data(f.take(bytes + 1), bytes, &mut crc, sink).map_err(io_err)?;
    if got < bytes {
        return Err(LoadError::Truncated {
            path,
            got: hl + got,
            want: hl + bytes,
        });
    }
    if got > bytes || crc.finalize() != checksum {
        return Err(LoadError::Corrupt { path });
    }
    Ok(figures)
}

/// Reads and checks the header of the file at `path` (opened as `f`)
/// against `key`: its figures, the stored checksum, and the header's
/// length.
fn read_header(
    f: &mut fs::File,
    path: &Path,
    key: &Key,
    entries: u64,
    bytes: u64,
) -> Result<(Figures, u32, u64), LoadError> {
    let path = || path.to_path_buf();
    let want_header = key.header(entries, 0, 0, 0);
    let mut header = Vec::with_capacity(want_header.len());
    f.take(want_header.len() as u64)
        .read_to_end(&mut header)
        .map_err(|source| LoadError::Io {
            path: path(),
            source,
        })?;
    let magic_ok = header.len() >= 12
        && &header[..8] == MAGIC
        && header[8..12] == FORMAT_VERSION.to_le_bytes();
    // a short file that starts like ours is truncated; anything else is foreign
    let short_ours = header.len() < 12 && MAGIC.starts_with(&header[..header.len().min(8)]);
    if !(magic_ok || short_ours) {
        return Err(LoadError::Format { path: path() });
    }
    if header.len() < want_header.len() {
        return Err(LoadError::Truncated {
            path: path(),
            got: header.len() as u64,
            want: want_header.len() as u64 + bytes,
        });
    }
    let hl = header.len();
    // everything up to the entry count must match
    let fixed = hl - HEADER_TAIL;
    if header[..fixed] != want_header[..fixed] {
        return Err(LoadError::Mismatch { path: path() });
    }
    let tail = &header[fixed..];
    let mut clamped = [0u8; 8];
    clamped.copy_from_slice(&tail[1..9]);
    let checksum = u32::from_le_bytes([tail[9], tail[10], tail[11], tail[12]]);
    let figures = Figures {
        max: tail[0],
        clamped: u64::from_le_bytes(clamped),
    };
    Ok((figures, checksum, hl as u64))
}

/// Hands the first `bytes` bytes of `f` to `sink` and the CRC, a chunk at
/// a time; returns how many bytes `f` held (more than `bytes` when the
/// file is too long).
fn read_data(
    mut f: impl Read,
    bytes: u64,
    crc: &mut crc32fast::Hasher,
    sink: &mut dyn DataSink,
) -> io::Result<u64> {
    let mut buf = vec![0u8; CHUNK];
    let mut got = 0u64;
    loop {
        // fill the buffer (a read may return less than asked)
        let mut len = 0;
        while len < CHUNK {
            match f.read(&mut buf[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if len == 0 {
            break;
        }
        let keep = usize::try_from((bytes - got.min(bytes)).min(len as u64)).unwrap_or(len);
        if keep > 0 {
            crc.update(&buf[..keep]);
            sink.take(&buf[..keep]);
        }
        got += len as u64;
        if len < CHUNK {
            break;
        }
    }
    Ok(got)
}

/// Writes the database atomically: a temporary file in `dir`, synced, then
/// renamed over the final name.
pub fn save(dir: &Path, key: &Key, contents: &Contents) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(key.file_name());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(
        ".{}.tmp{}-{}-{:?}",
        key.file_name(),
        std::process::id(),
        nanos,
        std::thread::current().id()
    ));
    let result = (|| {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        f.write_all(&key.header(
            contents.entries,
            contents.max,
            contents.clamped,
            contents.checksum(),
        ))?;
        f.write_all(&contents.data)?;
        let f = f
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|_| path)
}

/// One database file found in a cache directory, as its header describes
/// it (the data is not read or checked).
///
/// ```
/// use npuzzle::pdb::{build, list, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// let dir = std::env::temp_dir().join(format!("npuzzle-doctest-file-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let goal = Board::blank_last(Shape::new(2, 3))?;
/// build(&goal, &PdbOptions::default().with_dir(Some(dir.clone())), &(), &Budget::default())?;
/// let file = &list(&dir)?[0];
/// assert_eq!((file.rows, file.cols, file.goal.as_slice()), (2, 3, goal.tiles()));
/// assert!(file.path.is_file() && file.bytes > 0 && file.entries > 0);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CachedFile {
    /// The file.
    pub path: PathBuf,
    /// Its size on disk, in bytes.
    pub bytes: u64,
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// The goal's tiles in reading order.
    pub goal: Vec<u8>,
    /// The group's tiles, sorted.
    pub tiles: Vec<u8>,
    /// Zero-aware: one value per region of the blank.
    pub regions: bool,
    /// Entries the header announces.
    pub entries: u64,
}

/// Lists the databases in `dir` (unreadable files are skipped).
///
/// ```
/// use npuzzle::pdb::{build, list, PdbOptions};
/// use npuzzle::{Board, Budget, Shape};
///
/// let dir = std::env::temp_dir().join(format!("npuzzle-doctest-list-{}", std::process::id()));
/// assert!(list(&dir)?.is_empty()); // no directory yet: nothing cached
/// std::fs::create_dir_all(&dir)?;
/// let opts = PdbOptions::default().with_dir(Some(dir.clone()));
/// let built = build(&Board::blank_last(Shape::new(2, 3))?, &opts, &(), &Budget::default())?;
/// assert_eq!(list(&dir)?.len(), built.databases.len());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn list(dir: &Path) -> io::Result<Vec<CachedFile>> {
    let mut out = Vec::new();
    for (path, bytes) in files_with(dir, "pdb")? {
        let Ok(mut f) = fs::File::open(&path) else {
            continue;
        };
        let mut head = [0u8; 17];
        if f.read_exact(&mut head).is_err()
            || &head[..8] != MAGIC
            || head[8..12] != FORMAT_VERSION.to_le_bytes()
        {
            continue;
        }
        let (rows, cols, n, k) = (
            head[12],
            head[13],
            usize::from(head[14]),
            usize::from(head[15]),
        );
        let mut rest = vec![0u8; n + k + 8];
        if f.read_exact(&mut rest).is_err() {
            continue;
        }
        let mut e = [0u8; 8];
        e.copy_from_slice(&rest[n + k..]);
        out.push(CachedFile {
            bytes,
            path,
            rows,
            cols,
            goal: rest[..n].to_vec(),
            tiles: rest[n..n + k].to_vec(),
            regions: head[16] != 0,
            entries: u64::from_le_bytes(e),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The regular files of `dir` named `*.ext`, with their sizes (none when
/// `dir` does not exist). Regular files only: opening a FIFO would block.
pub(crate) fn files_with(dir: &Path, ext: &str) -> io::Result<Vec<(PathBuf, u64)>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().and_then(|e| e.to_str()) == Some(ext))
        .filter_map(|path| {
            let meta = fs::metadata(&path).ok().filter(fs::Metadata::is_file)?;
            Some((path, meta.len()))
        })
        .collect())
}

/// The default cache directory: `$XDG_CACHE_HOME/npuzzle` (or the
/// platform's cache directory), else `./.npuzzle-cache`.
///
/// ```
/// use npuzzle::pdb::{default_dir, PdbOptions};
///
/// let dir = default_dir();
/// assert!(dir.ends_with("npuzzle") || dir.ends_with(".npuzzle-cache"));
/// // Options without a directory of their own cache there.
/// assert_eq!(PdbOptions::default().cache_dir(), dir);
/// ```
pub fn default_dir() -> PathBuf {
    dirs::cache_dir().map_or_else(|| PathBuf::from(".npuzzle-cache"), |d| d.join("npuzzle"))
}

#[cfg(test)]
mod tests;
