//! Reading batch input in chunks of whole lines, with flat memory.
//!
//! The reader numbers every physical line, drops blank and `#` lines and the
//! instances of other shards at once (they produce no output), and keeps the
//! text of the rest in one buffer per chunk. A line longer than
//! [`ChunkReader::max_line`] is not kept: it is reported as too long, so a
//! file without line breaks cannot exhaust memory.

use super::Shard;
use std::io::{self, BufRead, BufReader, ErrorKind, Read};

/// Lines longer than this (in bytes) are errors (a 16×16 board written
/// generously takes a few KiB; a pair twice that).
pub const DEFAULT_MAX_LINE: usize = 64 * 1024;

/// One instance line of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRef {
    /// Start of the line's text in [`Chunk::data`], in bytes.
    pub start: u32,
    /// End of the line's text (exclusive; the line break is not kept).
    pub end: u32,
    /// 1-based line number in the input.
    pub line: u64,
    /// 0-based instance index (blank and `#` lines are not counted).
    pub index: u64,
    /// The line was longer than the limit; its text was not kept.
    pub too_long: bool,
}

/// Consecutive instance lines (of this shard) and their text.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The text of the lines kept, back to back.
    pub data: Vec<u8>,
    /// The instance lines, in input order.
    pub lines: Vec<LineRef>,
    /// Bytes of input consumed for this chunk (skipped lines included).
    pub bytes_read: u64,
}

impl Chunk {
    /// The raw text of a line (empty for a line that was too long).
    pub fn text(&self, line: &LineRef) -> &[u8] {
        &self.data[line.start as usize..line.end as usize]
    }

    /// Number of instance lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the chunk holds no instance line (only skipped ones).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Splits any reader into chunks of instance lines.
pub struct ChunkReader<R> {
    src: BufReader<R>,
    shard: Shard,
    max_line: usize,
    /// Lines finished so far.
    line_no: u64,
    /// Instance lines seen so far (of every shard).
    instance_no: u64,
    eof: bool,
}

impl<R: Read> ChunkReader<R> {
    /// A reader of `src` keeping the instances of `shard`, with lines of at
    /// most [`DEFAULT_MAX_LINE`] bytes.
    pub fn new(src: R, shard: Shard) -> ChunkReader<R> {
        ChunkReader {
            src: BufReader::with_capacity(1 << 20, src),
            shard,
            max_line: DEFAULT_MAX_LINE,
            line_no: 0,
            instance_no: 0,
            eof: false,
        }
    }

    /// Sets the longest line kept (bytes).
    pub fn max_line(mut self, max: usize) -> ChunkReader<R> {
        self.max_line = max.max(1);
        self
    }

    /// Physical lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.line_no
    }

    /// Reads up to `max_lines` instance lines (of this shard) or about
    /// `max_bytes` of kept text, whichever comes first. `None` at the end of
    /// the input.
    pub fn next_chunk(&mut self, max_lines: usize, max_bytes: usize) -> io::Result<Option<Chunk>> {
        if self.eof {
            return Ok(None);
        }
        let mut chunk = Chunk {
            data: Vec::with_capacity(max_bytes.min(1 << 22)),
            lines: Vec::with_capacity(max_lines.min(1 << 16)),
            bytes_read: 0,
        };
        let max_lines = max_lines.max(1);
        while chunk.lines.len() < max_lines && chunk.data.len() < max_bytes {
            // Do not wait for more input while holding lines to answer: a
            // person typing, or a slow producer, gets each answer at once.
            if !chunk.lines.is_empty() && self.src.buffer().is_empty() {
                break;
            }
            if !self.read_line(&mut chunk)? {
                self.eof = true;
                break;
            }
        }
        if self.eof && chunk.bytes_read == 0 {
            return Ok(None);
        }
        Ok(Some(chunk))
    }

    /// Reads one physical line into the chunk (kept or not). False at the
    /// end of the input.
    fn read_line(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        let start = chunk.data.len();
        let mut len = 0usize;
        let mut too_long = false;
        let mut saw_any = false;
        // The first byte other than whitespace past the kept part of a
        // line too long to keep: a line blank in its first `max_line`
        // bytes is not blank for that (it is an instance, and too long).
        let mut first_dropped: Option<u8> = None;
        loop {
            let avail = match self.src.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if !saw_any {
                    return Ok(false);
                }
                break;
            }
            saw_any = true;
            let (part, used, done) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            len += part.len();
            if !too_long {
                if len > self.max_line {
                    too_long = true;
                    // Keep the first bytes, enough to tell a comment.
                    let keep = (self.max_line - (len - part.len())).min(part.len());
                    chunk.data.extend_from_slice(&part[..keep]);
                    first_dropped = first_non_space(&part[keep..]);
                } else {
                    chunk.data.extend_from_slice(part);
                }
            } else if first_dropped.is_none() {
                first_dropped = first_non_space(part);
            }
            self.src.consume(used);
            chunk.bytes_read += used as u64;
            if done {
                break;
            }
        }
        self.line_no += 1;
        let text = &chunk.data[start..];
        let text = if self.line_no == 1 {
            text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text)
        } else {
            text
        };
        let first = first_non_space(text).or(first_dropped);
        let keep = match first {
            None | Some(b'#') => None,
            Some(_) => {
                let index = self.instance_no;
                self.instance_no += 1;
                self.shard.owns(index).then_some(index)
            }
        };
        match keep {
            Some(index) => {
                let line_start = chunk.data.len() - text.len();
                if too_long {
                    chunk.data.truncate(start);
                }
                let end = chunk.data.len();
                chunk.lines.push(LineRef {
                    start: if too_long { end } else { line_start } as u32,
                    end: end as u32,
                    line: self.line_no,
                    index,
                    too_long,
                });
            }
            None => chunk.data.truncate(start),
        }
        Ok(true)
    }
}

/// The first byte of `bytes` that is not ASCII whitespace.
fn first_non_space(bytes: &[u8]) -> Option<u8> {
    bytes.iter().copied().find(|b| !b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8], shard: Shard, max_lines: usize) -> Vec<(u64, u64, String, bool)> {
        let mut r = ChunkReader::new(input, shard).max_line(20);
        let mut out = Vec::new();
        let mut total = 0;
        while let Some(c) = r.next_chunk(max_lines, 1 << 20).unwrap() {
            assert!(c.len() <= max_lines);
            total += c.bytes_read;
            for l in &c.lines {
                let text = String::from_utf8(c.text(l).to_vec()).unwrap();
                out.push((l.line, l.index, text, l.too_long));
            }
        }
        assert_eq!(total, input.len() as u64);
        out
    }

    #[test]
    fn numbers_lines_and_skips_blanks_and_comments() {
        let input = b"\xEF\xBB\xBF1 2 3 0\n\n# comment\n   \r\n  # indented\nx\r\n0 1 2 3";
        for max_lines in [1, 2, 100] {
            let got = read_all(input, Shard::ALL, max_lines);
            assert_eq!(
                got,
                vec![
                    (1, 0, "1 2 3 0".to_string(), false),
                    (6, 1, "x\r".to_string(), false),
                    (7, 2, "0 1 2 3".to_string(), false),
                ]
            );
        }
    }

    #[test]
    fn long_lines_are_flagged_not_kept() {
        let long = "9 ".repeat(100);
        let input = format!("1 2 3 0\n{long}\n#{long}\n0 1 2 3\n");
        let got = read_all(input.as_bytes(), Shard::ALL, 100);
        assert_eq!(got.len(), 3);
        assert_eq!(got[1], (2, 1, String::new(), true));
        assert_eq!(got[2].0, 4);
        // Blank in its first 20 bytes, an instance after them: still an
        // instance line (too long), not a blank one (found by fuzzing).
        let spaced = format!("{}1 2 3 0\n{}# comment\n", " ".repeat(30), "\t".repeat(30));
        let got = read_all(spaced.as_bytes(), Shard::ALL, 100);
        assert_eq!(got, vec![(1, 0, String::new(), true)]);
    }

    #[test]
    fn shards_keep_line_numbers() {
        let input = b"a\n\nb\nc\n#\nd\ne\n";
        let shard = Shard { index: 1, count: 2 };
        let got = read_all(input, shard, 100);
        let lines: Vec<(u64, u64)> = got.iter().map(|g| (g.0, g.1)).collect();
        assert_eq!(lines, vec![(3, 1), (6, 3)]);
    }

    #[test]
    fn empty_input_has_no_chunks() {
        let mut r = ChunkReader::new(&b""[..], Shard::ALL);
        assert!(r.next_chunk(10, 100).unwrap().is_none());
        // only skipped lines: one chunk with no instances, then nothing
        let mut r = ChunkReader::new(&b"\n# x\n"[..], Shard::ALL);
        let c = r.next_chunk(10, 100).unwrap().unwrap();
        assert!(c.is_empty());
        assert!(r.next_chunk(10, 100).unwrap().is_none());
    }
}
