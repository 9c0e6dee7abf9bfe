//! The common line, read without building boards: plain numbers separated
//! by spaces, tabs, commas or semicolons, with at most one `|`.
//!
//! This is only a shortcut. It accepts a line only when [`Scan`] would read
//! it as the same start and goal — anything else (digit strings, rows,
//! brackets, goal names, errors of any kind) is left to the general reader,
//! which gives the answer or the error message. The property test below
//! checks the agreement on random and near-miss lines.
//!
//! [`Scan`]: npuzzle::Scan

use npuzzle::{Board, Shape};

const MAX_SIDE: usize = Board::MAX_SIDE;

const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// Start and goal tiles of a simple line.
pub struct Simple {
    pub shape: Shape,
    pub start: [u8; MAX_CELLS],
    pub goal: [u8; MAX_CELLS],
    /// The line gave its goal.
    pub has_goal: bool,
    values: [u16; 2 * MAX_CELLS],
}

impl Default for Simple {
    fn default() -> Self {
        Simple {
            shape: Shape::new(2, 2),
            start: [0; MAX_CELLS],
            goal: [0; MAX_CELLS],
            has_goal: false,
            values: [0; 2 * MAX_CELLS],
        }
    }
}

/// What one side of the `|` held.
#[derive(Clone, Copy)]
struct Part {
    /// Range in `values`.
    from: usize,
    to: usize,
}

impl Simple {
    /// Reads `text`; false when the line is not simple (or not valid).
    pub fn read(&mut self, text: &[u8], size: Option<Shape>) -> bool {
        let mut parts = [Part { from: 0, to: 0 }; 2];
        let mut part = 0;
        let mut count = 0usize;
        // Per part: longest token and total digits (to rule out digit strings).
        let mut longest = [0usize; 2];
        let mut digits = [0usize; 2];
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            if b.is_ascii_digit() {
                let mut v: u32 = 0;
                let begin = i;
                while i < text.len() && text[i].is_ascii_digit() {
                    v = (v * 10 + u32::from(text[i] - b'0')).min(1 << 16);
                    i += 1;
                }
                // `01` is a digit string to the general reader.
                let leading_zero = text[begin] == b'0' && i - begin > 1;
                if count == self.values.len() || v >= MAX_CELLS as u32 || leading_zero {
                    return false;
                }
                self.values[count] = v as u16;
                count += 1;
                longest[part] = longest[part].max(i - begin);
                digits[part] += i - begin;
                continue;
            }
            match b {
                b' ' | b'\t' | b'\r' | b',' | b';' => {}
                b'|' if part == 0 => {
                    parts[0].to = count;
                    part = 1;
                    parts[1].from = count;
                }
                _ => return false,
            }
            i += 1;
        }
        parts[part].to = count;
        let used = &parts[..=part];
        // A short part with multi-digit tokens may be read as digit strings.
        if used
            .iter()
            .enumerate()
            .any(|(k, p)| p.to - p.from < 2 || (longest[k] >= 2 && digits[k] <= 10))
        {
            return false;
        }
        self.has_goal = part == 1;
        let t = parts[0].to - parts[0].from;
        let (start_len, shape) = if self.has_goal {
            let Some(shape) = board_shape(t, size) else {
                return false;
            };
            // The goal is read without the size given; a flat one takes the start's shape.
            let g = parts[1].to - parts[1].from;
            if g != shape.cells() || square(g).is_some_and(|k| Shape::new(k, k) != shape) {
                return false;
            }
            (t, shape)
        } else {
            match size {
                Some(s) if t == s.cells() => (t, s),
                Some(s) if t == 2 * s.cells() => {
                    self.has_goal = true;
                    (t / 2, s)
                }
                Some(_) => return false,
                None => match board_shape(t, None) {
                    Some(s) => (t, s),
                    None if t % 2 == 0 => match board_shape(t / 2, None) {
                        Some(s) => {
                            self.has_goal = true;
                            (t / 2, s)
                        }
                        None => return false,
                    },
                    None => return false,
                },
            }
        };
        self.shape = shape;
        let n = shape.cells();
        let (s, g) = self.values[..count].split_at(start_len);
        copy_permutation(s, &mut self.start[..n])
            && (!self.has_goal || copy_permutation(g, &mut self.goal[..n]))
    }
}

/// The shape a flat list of `count` numbers takes (the size given, or a
/// square).
fn board_shape(count: usize, size: Option<Shape>) -> Option<Shape> {
    match size {
        Some(s) => (s.cells() == count).then_some(s),
        None => square(count).map(|k| Shape::new(k, k)),
    }
}

fn square(n: usize) -> Option<usize> {
    (2..=MAX_SIDE).find(|k| k * k == n)
}

/// Copies `values` into `out` when they are a permutation of `0..out.len()`.
fn copy_permutation(values: &[u16], out: &mut [u8]) -> bool {
    if values.len() != out.len() {
        return false;
    }
    let n = out.len();
    let mut seen = [0u64; MAX_CELLS / 64];
    for (slot, &v) in out.iter_mut().zip(values) {
        let v = usize::from(v);
        if v >= n || seen[v / 64] & (1 << (v % 64)) != 0 {
            return false;
        }
        seen[v / 64] |= 1 << (v % 64);
        *slot = v as u8;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::Scan;
    use proptest::prelude::*;

    /// When the shortcut reads a line, the general reader reads the same.
    fn agrees(text: &str, size: Option<Shape>) -> Result<bool, TestCaseError> {
        let mut simple = Simple::default();
        if !simple.read(text.as_bytes(), size) {
            return Ok(false);
        }
        let (s, g) = Scan::new().start_and_goal(text, size).map_err(|e| {
            TestCaseError::fail(format!("{text:?}: shortcut read it, Scan says {e}"))
        })?;
        let n = simple.shape.cells();
        prop_assert_eq!(s.shape(), simple.shape, "{:?}", text);
        prop_assert_eq!(s.tiles(), &simple.start[..n], "{:?}", text);
        prop_assert_eq!(g.is_some(), simple.has_goal, "{:?}", text);
        if let Some(g) = g {
            prop_assert_eq!(g.tiles(), &simple.goal[..n], "{:?}", text);
        }
        Ok(true)
    }

    #[test]
    fn reads_the_common_forms() {
        for (text, size) in [
            ("8 7 2 0 4 6 1 3 5 | 2 8 1 7 4 5 3 0 6", None),
            ("1,2,3,4,5,6,7,8,0", None),
            ("2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2", None),
            ("1 2 3 4 5 6 7 0", Some(Shape::new(2, 4))),
            ("1 2 3 4 5 6 0 7 1 2 3 4 5 6 7 0", Some(Shape::new(2, 4))),
            ("1 2 3 4 5 6 0 7|1 2 3 4 5 6 7 0", Some(Shape::new(2, 4))),
            ("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", None),
        ] {
            assert!(agrees(text, size).unwrap(), "{text}");
        }
        for (text, size) in [
            ("283164705", None),
            ("1 2 3 4 5 6 7 8 8", None),
            ("1 2 3 4 5 6 7 0", None),
            ("1 2 3/4 5 6/7 8 0", None),
            ("1 2 3 4 5 6 7 8 0 | spiral", None),
            ("10 11 12 13", None),
            ("1 2 3 4 5 6 7 8 0 | 1 2 3 0", None),
            (
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 | 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                Some(Shape::new(2, 8)),
            ),
        ] {
            assert!(!agrees(text, size).unwrap(), "{text}");
        }
    }

    /// Every line of the `batch_lines` fuzz target's committed corpus (a
    /// selector byte, then the batch), under every size that target gives:
    /// the fuzzer reaches this reader through the `fuzzing` feature, this
    /// keeps what it found checked without it.
    #[test]
    fn shortcut_agrees_on_the_fuzz_corpus() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fuzz/corpus/batch_lines");
        let sizes = [
            None,
            Some(Shape::new(2, 2)),
            Some(Shape::new(3, 3)),
            Some(Shape::new(2, 4)),
            Some(Shape::new(4, 4)),
            Some(Shape::new(3, 2)),
            Some(Shape::new(5, 5)),
            Some(Shape::new(16, 16)),
        ];
        let mut lines = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let batch = bytes.get(1..).unwrap_or_default();
            for line in batch.split(|&b| b == b'\n') {
                let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                let Ok(text) = std::str::from_utf8(line) else {
                    continue;
                };
                for size in sizes {
                    agrees(text, size).unwrap();
                }
                lines += 1;
            }
        }
        assert!(lines >= 20, "{} holds {lines} lines", dir.display());
    }

    fn perm_bad_roll(seed: u64) -> bool {
        seed.is_multiple_of(4)
    }

    fn line_strategy() -> impl Strategy<Value = (String, Option<Shape>)> {
        let shape = prop_oneof![
            Just(Shape::new(2, 2)),
            Just(Shape::new(3, 3)),
            Just(Shape::new(2, 4)),
            Just(Shape::new(4, 4)),
            Just(Shape::new(2, 3)),
        ];
        (
            shape,
            any::<u64>(),
            0usize..5,
            any::<bool>(),
            prop::sample::select(vec![" ", ",", ", ", "\t", ";", "  "]),
        )
            .prop_map(|(shape, seed, form, with_size, sep)| {
                let n = shape.cells();
                let mut rng = seed;
                let mut next = || {
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (rng >> 33) as usize
                };
                let mut perm = |bad: bool| {
                    let mut v: Vec<usize> = (0..n).collect();
                    for i in (1..n).rev() {
                        v.swap(i, next() % (i + 1));
                    }
                    if bad {
                        let i = next() % n;
                        v[i] = next() % (n + 2);
                    }
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(sep)
                };
                let bad = perm_bad_roll(seed);
                let extra = (seed >> 40) as usize % 20;
                let text = match form {
                    0 => perm(bad),
                    1 => format!("{} | {}", perm(false), perm(bad)),
                    2 => format!("{}{sep}{}", perm(bad), perm(false)),
                    3 => format!("{}|{}", perm(bad), perm(bad)),
                    _ => format!("{} {extra}", perm(false)),
                };
                (text, with_size.then_some(shape))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn shortcut_agrees_with_scan((text, size) in line_strategy()) {
            agrees(&text, size)?;
        }
    }
}
