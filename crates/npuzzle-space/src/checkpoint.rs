//! Checkpoint files: the two-bit array (or one worker's part of it) between
//! two levels, so that a killed search can go on.
//!
//! Layout, little-endian: the magic `NPZSPACE`, the format version (u32),
//! rows and columns (u8 each), the metric (u8: 0 single tiles, 1 pushes;
//! from version 2 on, version 1 files being single-tile), the goal's tiles
//! (one byte each), the level
//! about to be expanded (u32), the count of every level below it (u64
//! each), the array's whole length in words, this part's first word and
//! length, the part's number and the number of parts (u32 each), this
//! part's positions at the level and closed before it (u64 each); then the
//! words; then a CRC-32 of everything before it. A file is written to
//! `PATH.tmp` and renamed over `PATH`, so a kill mid-write leaves the last
//! complete checkpoint in place.

use super::{bits, SpaceError};
use npuzzle::{Board, Metric};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"NPZSPACE";
const VERSION: u32 = 2;
/// The version before the metric was recorded (its searches are all
/// single-tile), still read.
const VERSION_STM_ONLY: u32 = 1;
/// No space handled here has more levels (2×7 has 109, 4×4 81).
const MAX_LEVELS: u32 = 10_000;
/// Words per read or write call.
const BLOCK_WORDS: usize = 1 << 16;

/// Everything in a checkpoint but the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub goal: Board,
    /// How the levels count moves.
    pub metric: Metric,
    /// The level whose positions hold its code and are not yet expanded.
    pub level: u32,
    /// `counts[d]` for `d < level` (the level's own total is the sum of
    /// the parts' `part_frontier`).
    pub counts: Vec<u64>,
    pub total_words: u64,
    pub first_word: u64,
    pub words: u64,
    pub part: u32,
    pub parts: u32,
    /// This part's positions at `level`.
    pub part_frontier: u64,
    /// This part's positions closed (at levels below `level`).
    pub part_closed: u64,
}

impl Header {
    fn encode(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(64 + self.counts.len() * 8);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.push(self.goal.rows() as u8);
        h.push(self.goal.cols() as u8);
        h.push(metric_byte(self.metric));
        h.extend_from_slice(self.goal.tiles());
        h.extend_from_slice(&self.level.to_le_bytes());
        for c in &self.counts {
            h.extend_from_slice(&c.to_le_bytes());
        }
        for x in [self.total_words, self.first_word, self.words] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        h.extend_from_slice(&self.part.to_le_bytes());
        h.extend_from_slice(&self.parts.to_le_bytes());
        h.extend_from_slice(&self.part_frontier.to_le_bytes());
        h.extend_from_slice(&self.part_closed.to_le_bytes());
        h
    }
}

fn metric_byte(metric: Metric) -> u8 {
    match metric {
        Metric::Stm => 0,
        Metric::Mtm => 1,
    }
}

/// The temporary name a checkpoint is written under.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Writes `header` and `header.words` words (`word(i)` for `i` in
/// `0..words`) to `path`, through a temporary file.
pub(crate) fn write(
    path: &Path,
    header: &Header,
    word: impl Fn(usize) -> u64,
) -> Result<(), SpaceError> {
    write_temp(path, header, word)?;
    commit(path)
}

/// The first half of [`write`]: the file under its temporary name, which
/// a resume never reads.
pub(crate) fn write_temp(
    path: &Path,
    header: &Header,
    word: impl Fn(usize) -> u64,
) -> Result<(), SpaceError> {
    let tmp = temp_path(path);
    write_to(&tmp, header, word).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        SpaceError::CheckpointWrite {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// The second half of [`write`]: the temporary file renamed over `path`.
pub(crate) fn commit(path: &Path) -> Result<(), SpaceError> {
    let tmp = temp_path(path);
    std::fs::rename(&tmp, path).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        SpaceError::CheckpointWrite {
            path: path.to_path_buf(),
            source,
        }
    })
}

fn write_to(tmp: &Path, header: &Header, word: impl Fn(usize) -> u64) -> std::io::Result<()> {
    let file = File::create(tmp)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut crc = crc32fast::Hasher::new();
    let head = header.encode();
    crc.update(&head);
    out.write_all(&head)?;
    let mut buf = Vec::with_capacity(BLOCK_WORDS * 8);
    let words = header.words as usize;
    let mut i = 0;
    while i < words {
        buf.clear();
        let end = (i + BLOCK_WORDS).min(words);
        for j in i..end {
            buf.extend_from_slice(&word(j).to_le_bytes());
        }
        crc.update(&buf);
        out.write_all(&buf)?;
        i = end;
    }
    out.write_all(&crc.finalize().to_le_bytes())?;
    let file = out
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// What the reader expects: the header must describe this search and part.
pub(crate) struct Expect<'a> {
    pub goal: &'a Board,
    pub metric: Metric,
    /// The positions of the whole space, `n!/2`.
    pub positions: u64,
    pub total_words: u64,
    pub first_word: u64,
    pub words: u64,
    pub part: u32,
    pub parts: u32,
}

/// Reads a checkpoint, calling `set(i, w)` for each word, after checking
/// it belongs to `expect`. Nothing is trusted before the CRC matches: the
/// caller must discard what `set` stored when this returns an error.
pub(crate) fn read(
    path: &Path,
    expect: &Expect<'_>,
    set: impl FnMut(usize, u64),
) -> Result<Header, SpaceError> {
    match read_checked(path, expect, set) {
        // A field that does not fit this search may be a damaged byte
        // rather than another search's file (a changed level shifts every
        // field after it): the checksum over the whole file tells which.
        Err(Refusal::Mismatch(reason)) => Err(SpaceError::BadCheckpoint {
            path: path.to_path_buf(),
            reason: match whole_crc_matches(path) {
                Ok(false) => DAMAGED.to_string(),
                _ => reason,
            },
        }),
        Err(Refusal::Other(e)) => Err(e),
        Ok(h) => Ok(h),
    }
}

const DAMAGED: &str = "damaged: its CRC-32 does not match its contents";

/// Why `read_checked` refused a file.
enum Refusal {
    /// A field that does not fit the search: damage or another search.
    Mismatch(String),
    /// Anything else, said as it is.
    Other(SpaceError),
}

impl From<SpaceError> for Refusal {
    fn from(e: SpaceError) -> Refusal {
        Refusal::Other(e)
    }
}

/// Whether the file's last four bytes are the CRC-32 of the rest.
fn whole_crc_matches(path: &Path) -> std::io::Result<bool> {
    let mut input = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut crc = crc32fast::Hasher::new();
    // The last four bytes read so far: the checksum once the file ends.
    let mut tail: Vec<u8> = Vec::with_capacity(4);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        tail.extend_from_slice(&buf[..n]);
        let keep = tail.len().saturating_sub(4);
        crc.update(&tail[..keep]);
        tail.drain(..keep);
    }
    Ok(tail.len() == 4 && tail == crc.finalize().to_le_bytes())
}

fn read_checked(
    path: &Path,
    expect: &Expect<'_>,
    mut set: impl FnMut(usize, u64),
) -> Result<Header, Refusal> {
    let mut r = Checked::open(path)?;
    let header = read_header(&mut r, expect)?;
    let rows_cols = header.goal.len() as u64;
    let (level, words) = (header.level, header.words);
    let metric_len = u64::from(r.version != VERSION_STM_ONLY);
    let head_len = 8 + 4 + 2 + metric_len + rows_cols + 4 + 8 * u64::from(level) + 24 + 8 + 16;
    let want_len = head_len + words * 8 + 4;
    if r.len != want_len {
        return Err(Refusal::Other(r.bad(format!(
            "{} bytes long, a checkpoint of this search at level {level} has {want_len}",
            r.len
        ))));
    }
    read_words(&mut r, expect, header.first_word, words, &mut set)?;
    let mut stored = [0u8; 4];
    r.input
        .read_exact(&mut stored)
        .map_err(|_| r.bad(r.truncated("checksum")))?;
    if u32::from_le_bytes(stored) != r.crc.clone().finalize() {
        return Err(r.bad(DAMAGED.into()).into());
    }
    Ok(header)
}

/// A checkpoint file read front to back, every byte but the stored
/// checksum into the CRC.
struct Checked<'p> {
    path: &'p Path,
    input: BufReader<File>,
    crc: crc32fast::Hasher,
    len: u64,
    /// The format version, once the header has been read.
    version: u32,
}

impl<'p> Checked<'p> {
    fn open(path: &'p Path) -> Result<Checked<'p>, SpaceError> {
        let io = |source: std::io::Error| SpaceError::CheckpointRead {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        Ok(Checked {
            path,
            input: BufReader::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            len,
            version: VERSION,
        })
    }

    fn bad(&self, reason: String) -> SpaceError {
        SpaceError::BadCheckpoint {
            path: self.path.to_path_buf(),
            reason,
        }
    }

    fn truncated(&self, what: &str) -> String {
        format!(
            "truncated or damaged (ends in the {what}; {} bytes)",
            self.len
        )
    }

    /// Fills `b` from the file (the `what` it holds names the place of a
    /// short file).
    fn fill(&mut self, b: &mut [u8], what: &str) -> Result<(), SpaceError> {
        if self.input.read_exact(b).is_err() {
            return Err(self.bad(self.truncated(what)));
        }
        self.crc.update(b);
        Ok(())
    }

    fn take(&mut self, n: usize, what: &str) -> Result<Vec<u8>, SpaceError> {
        let mut b = vec![0u8; n];
        self.fill(&mut b, what)?;
        Ok(b)
    }
}

fn u32_of(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn u64_of(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// The header, checked field by field against the search `expect` as it
/// is read: nothing after a field that does not fit is read.
fn read_header(r: &mut Checked<'_>, expect: &Expect<'_>) -> Result<Header, Refusal> {
    let mismatch = Refusal::Mismatch;
    if r.take(8, "magic")?.as_slice() != MAGIC {
        return Err(r.bad("not an npuzzle space checkpoint".into()).into());
    }
    let version = u32_of(&r.take(4, "header")?);
    if version != VERSION && version != VERSION_STM_ONLY {
        return Err(mismatch(format!(
            "format version {version}; this program reads versions {VERSION_STM_ONLY} and {VERSION}"
        )));
    }
    r.version = version;
    let rc = r.take(2, "header")?;
    let (rows, cols) = (usize::from(rc[0]), usize::from(rc[1]));
    let want = expect.goal;
    if (rows, cols) != (want.rows(), want.cols()) {
        return Err(mismatch(format!(
            "it is for a {rows}x{cols} board, not {}x{}",
            want.rows(),
            want.cols()
        )));
    }
    let metric = if version == VERSION_STM_ONLY {
        Metric::Stm
    } else {
        match r.take(1, "header")?[0] {
            0 => Metric::Stm,
            1 => Metric::Mtm,
            b => return Err(mismatch(format!("metric byte {b} is no metric"))),
        }
    };
    if metric != expect.metric {
        return Err(mismatch(format!(
            "it counts {}, this search {}",
            metric.describe(),
            expect.metric.describe()
        )));
    }
    let tiles = r.take(rows * cols, "goal")?;
    if tiles.as_slice() != want.tiles() {
        let shown: Vec<String> = tiles.iter().map(std::string::ToString::to_string).collect();
        return Err(mismatch(format!(
            "it is for the goal {}, not {}",
            shown.join(" "),
            want.to_flat_string()
        )));
    }
    let level = u32_of(&r.take(4, "header")?);
    if level >= MAX_LEVELS {
        return Err(mismatch(format!("level {level} is impossible")));
    }
    let counts: Vec<u64> = r
        .take(8 * level as usize, "counts")?
        .chunks(8)
        .map(u64_of)
        .collect();
    let sizes = r.take(24, "header")?;
    let (total_words, first_word, words) =
        (u64_of(&sizes), u64_of(&sizes[8..]), u64_of(&sizes[16..]));
    let parts = r.take(8, "header")?;
    let (part, nparts) = (u32_of(&parts), u32_of(&parts[4..]));
    let pc = r.take(16, "header")?;
    let (part_frontier, part_closed) = (u64_of(&pc), u64_of(&pc[8..]));
    let got = (total_words, first_word, words, part, nparts);
    if got
        != (
            expect.total_words,
            expect.first_word,
            expect.words,
            expect.part,
            expect.parts,
        )
    {
        return Err(mismatch(format!(
            "it holds words {first_word}..{} of {total_words} as part {part} of {nparts}, \
             this search needs words {}..{} of {} as part {} of {}",
            first_word.saturating_add(words),
            expect.first_word,
            expect.first_word + expect.words,
            expect.total_words,
            expect.part,
            expect.parts
        )));
    }
    check_tallies(expect.positions, &counts, part_frontier, part_closed, words)
        .map_err(mismatch)?;
    Ok(Header {
        metric,
        goal: want.clone(),
        level,
        counts,
        total_words,
        first_word,
        words,
        part,
        parts: nparts,
        part_frontier,
        part_closed,
    })
}

/// The `words` words of the part, from word `first_word` of the space,
/// each handed to `set` once checked to mark only positions of the space.
fn read_words(
    r: &mut Checked<'_>,
    expect: &Expect<'_>,
    first_word: u64,
    words: u64,
    set: &mut impl FnMut(usize, u64),
) -> Result<(), Refusal> {
    // The entries of word `g` that stand for positions of the space: the
    // last word's others would be expanded as ranks past `n!/2` (and counted).
    let in_space = |g: u64| match expect.positions.saturating_sub(g * bits::PER_WORD) {
        0 => 0,
        k if k >= bits::PER_WORD => u64::MAX,
        k => (1u64 << (2 * k)) - 1,
    };
    let mut buf = vec![0u8; BLOCK_WORDS * 8];
    let mut i = 0usize;
    while (i as u64) < words {
        let n = (words as usize - i).min(BLOCK_WORDS);
        let b = &mut buf[..n * 8];
        r.fill(b, "words")?;
        for (k, chunk) in b.chunks_exact(8).enumerate() {
            let w = u64_of(chunk);
            if w & !in_space(first_word + (i + k) as u64) != 0 {
                return Err(Refusal::Mismatch(format!(
                    "its word {} marks positions past the {} of the space",
                    first_word + (i + k) as u64,
                    expect.positions
                )));
            }
            set(i + k, w);
        }
        i += n;
    }
    Ok(())
}

/// Checks the header's counts against what a breadth-first search from
/// the goal can have found in a space of `positions`, before any sum of
/// them is taken: the goal alone at level 0, no empty level below the one
/// being expanded, and no more positions in all than the space (or this
/// part's `words`) holds. A forged header otherwise overflowed the sums
/// (a panic) or resumed to an impossible answer.
fn check_tallies(
    positions: u64,
    counts: &[u64],
    part_frontier: u64,
    part_closed: u64,
    words: u64,
) -> Result<(), String> {
    if counts.first().is_some_and(|&c| c != 1) {
        return Err(format!("it has {} positions at level 0", counts[0]));
    }
    if let Some(d) = counts.iter().position(|&c| c == 0) {
        return Err(format!("its level {d} is empty, yet a later level is not"));
    }
    let below = counts
        .iter()
        .try_fold(0u64, |sum, &c| sum.checked_add(c))
        .filter(|&sum| sum <= positions);
    let Some(below) = below else {
        return Err(format!(
            "its levels hold more positions than the {positions} of the space"
        ));
    };
    let in_part = words.saturating_mul(bits::PER_WORD).min(positions);
    let part = part_frontier.checked_add(part_closed);
    if part.is_none_or(|p| p > in_part) || part_closed > below {
        return Err(format!(
            "it counts {part_frontier} positions at its level and {part_closed} closed \
             in a part of {in_part} (the levels below hold {below})"
        ));
    }
    Ok(())
}

/// Checks the words against the header's counts for this part: exactly
/// `part_frontier` positions hold the level's code, `part_closed` are
/// closed, none holds the other code; for a whole array, the closed ones
/// are the levels below and the level is not empty.
pub(crate) fn check_counts(
    path: &Path,
    h: &Header,
    code: u64,
    tally: impl Fn(u64) -> u64,
) -> Result<(), SpaceError> {
    let [frontier, other, closed] = [code, 3 - code, 3].map(&tally);
    let below: u64 = h.counts.iter().sum();
    let ok = frontier == h.part_frontier
        && closed == h.part_closed
        && other == 0
        && (h.parts > 1 || (h.part_frontier > 0 && below == h.part_closed));
    if ok {
        Ok(())
    } else {
        Err(SpaceError::BadCheckpoint {
            path: path.to_path_buf(),
            reason: format!(
                "its contents do not match its counts (level {}: {frontier} positions at the \
                 level, {closed} closed, {other} stray; the header says {} and {})",
                h.level, h.part_frontier, h.part_closed
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::check_tallies;

    #[test]
    fn counts_are_checked_before_they_are_summed() {
        // 2×2: 12 positions in one word; levels 1, 2, 2, 2, 2, 2, 1
        assert_eq!(check_tallies(12, &[1, 2, 2], 2, 5, 1), Ok(()));
        assert!(check_tallies(12, &[1, u64::MAX], 1, 0, 1).is_err());
        assert!(check_tallies(12, &[1, u64::MAX, 2], 1, 0, 1).is_err());
        assert!(check_tallies(12, &[2, 2], 2, 4, 1).is_err());
        assert!(check_tallies(12, &[1, 0, 2], 2, 3, 1).is_err());
        assert!(check_tallies(12, &[1, 2], u64::MAX, 3, 1).is_err());
        assert!(check_tallies(12, &[1, 2], 10, 3, 1).is_err());
        assert!(check_tallies(12, &[1, 2], 2, 4, 1).is_err());
    }
}
