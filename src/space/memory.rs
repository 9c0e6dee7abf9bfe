//! What a search needs and what the machine has.

use crate::board::Shape;
use std::fmt;

/// Bytes the two-bit array of a shape needs: `(R·C)!/2` positions of two
/// bits, `(R·C)!/8` bytes (rounded up to whole words); saturates at
/// `u128::MAX` for shapes whose factorial does not fit.
pub fn bytes_needed(shape: Shape) -> u128 {
    let mut f: u128 = 1;
    for k in 2..=shape.cells() as u128 {
        f = match f.checked_mul(k) {
            Some(x) => x,
            None => return u128::MAX,
        };
    }
    // n!/2 entries, 32 per 8-byte word
    (f / 2).div_ceil(32) * 8
}

/// The number of positions reachable from a goal, `(R·C)!/2`, or `None`
/// when it does not fit a `u128`.
pub fn positions(shape: Shape) -> Option<u128> {
    (2..=shape.cells() as u128)
        .try_fold(1u128, |f, k| f.checked_mul(k))
        .map(|f| f / 2)
}

/// The default memory limit: what the kernel says it can give without
/// swapping (`MemAvailable` in /proc/meminfo) minus a margin of 5% of the
/// machine's memory (at least 256 MiB) for the rest of the process and the
/// system. `None` where /proc/meminfo cannot be read.
pub fn default_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        kb.checked_mul(1024)
    };
    let total = field("MemTotal:")?;
    let available = field("MemAvailable:").unwrap_or(total);
    let margin = (total / 20).max(256 << 20);
    Some(available.saturating_sub(margin))
}

/// A byte count shown in decimal units (`59.9 MB`, `10.9 GB`, `2.6 TB`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u128);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == u128::MAX {
            return write!(f, "more than 10^38 bytes");
        }
        let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB"];
        let mut v = self.0 as f64;
        let mut u = 0;
        while v >= 1000.0 && u + 1 < units.len() {
            v /= 1000.0;
            u += 1;
        }
        if u == 0 {
            write!(f, "{} bytes", self.0)
        } else if u == units.len() - 1 && v >= 1000.0 {
            write!(f, "{:.1e} bytes", self.0 as f64)
        } else {
            write!(f, "{v:.1} {}", units[u])
        }
    }
}

/// Parses a byte count: a number with an optional unit, `K`/`M`/`G`/`T`
/// or `KiB`… for powers of 1024, `kB`/`MB`/`GB`/`TB` for powers of 1000
/// (`8G`, `500MB`, `1.5GiB`, `123456`).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a byte count (e.g. 8G, 500MB, 123456)"))?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024f64.powi(2),
        "g" | "gib" => 1024f64.powi(3),
        "t" | "tib" => 1024f64.powi(4),
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        other => {
            return Err(format!(
                "'{other}' in '{text}' is not a unit: use K, M, G, T (powers of 1024) or kB, MB, GB, TB"
            ))
        }
    };
    let bytes = value * scale;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("'{text}' is too large"));
    }
    Ok(bytes.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_the_literature() {
        assert_eq!(bytes_needed(Shape::new(3, 4)), 59_875_200);
        assert_eq!(Bytes(bytes_needed(Shape::new(3, 4))).to_string(), "59.9 MB");
        assert_eq!(Bytes(bytes_needed(Shape::new(2, 7))).to_string(), "10.9 GB");
        assert_eq!(
            Bytes(bytes_needed(Shape::new(3, 5))).to_string(),
            "163.5 GB"
        );
        assert_eq!(Bytes(bytes_needed(Shape::new(4, 4))).to_string(), "2.6 TB");
        assert_eq!(bytes_needed(Shape::new(2, 2)), 8);
        assert_eq!(positions(Shape::new(2, 7)), Some(43_589_145_600));
        assert_eq!(bytes_needed(Shape::new(16, 16)), u128::MAX);
        assert_eq!(positions(Shape::new(16, 16)), None);
    }

    #[test]
    fn byte_counts_parse() {
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("8GB"), Ok(8_000_000_000));
        assert_eq!(parse_bytes("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_bytes("123456"), Ok(123456));
        assert_eq!(parse_bytes(" 500m "), Ok(500 << 20));
        assert!(parse_bytes("8X").is_err());
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("1e30").is_err());
    }
}
