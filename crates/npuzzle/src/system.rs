//! What the machine allows: memory for the default byte budget, and byte
//! counts written and read the way people type them (`512M`, `8G`).
//!
//! The default budget is a share of the smallest of the memory the system
//! says is available, the process's address-space limit (`ulimit -v`) and
//! the control group's limit (containers), so that a search stops with a
//! message before the kernel or the allocator stops it without one.

use std::fmt;
use std::path::Path;

/// The share of the available memory one search may use by default: the
/// rest is for the process itself, the page cache and everyone else.
const DEFAULT_SHARE: f64 = 0.6;

/// Used when the system says nothing (not Linux, or no `/proc`).
const FALLBACK_BYTES: u64 = 4 << 30;

/// The memory one search may use by default, in bytes.
pub fn default_memory_budget() -> u64 {
    let limit = [available_memory(), address_space_limit(), cgroup_limit()]
        .into_iter()
        .flatten()
        .min();
    match limit {
        Some(bytes) => (bytes as f64 * DEFAULT_SHARE) as u64,
        None => FALLBACK_BYTES,
    }
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The soft address-space limit (`ulimit -v`) from `/proc/self/limits`.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    // "Max address space   <soft>   <hard>   bytes"
    line.split_whitespace().nth(3)?.parse().ok()
}

/// What the control group still allows (`memory.max − memory.current`).
fn cgroup_limit() -> Option<u64> {
    let dir = Path::new("/sys/fs/cgroup");
    let read = |f: &str| -> Option<u64> {
        std::fs::read_to_string(dir.join(f))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let max = read("memory.max")?;
    Some(max.saturating_sub(read("memory.current").unwrap_or(0)))
}

/// A number of bytes, shown with binary units (`1.5 GiB`); wide enough for
/// the memory a whole-space search of any board would need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u128);

impl Bytes {
    /// Reads a byte count as people write it: a number with an optional
    /// unit, `K`, `M`, `G`, `T` (or `KiB` … `TiB`) for powers of 1024,
    /// `kB`, `MB`, `GB`, `TB` for powers of 1000; case does not matter.
    /// The error says what was wrong, for the caller to show.
    ///
    /// ```
    /// use npuzzle::Bytes;
    ///
    /// assert_eq!(Bytes::parse("8G"), Ok(8 << 30));
    /// assert_eq!(Bytes::parse("500MB"), Ok(500_000_000));
    /// assert!(Bytes::parse("lots").is_err());
    /// assert_eq!(Bytes::from(3u64 << 29).to_string(), "1.5 GiB");
    /// ```
    pub fn parse(text: &str) -> Result<u64, String> {
        parse_bytes(text)
    }

    /// What one process may hold at most without swapping: the memory the
    /// kernel says it can give, less a margin for the rest of the process
    /// and the system; `None` where the system does not say (not Linux).
    /// The default memory budget ([`Budget::default`](crate::Budget)) is
    /// derived from it.
    ///
    /// ```
    /// use npuzzle::Bytes;
    ///
    /// if let Some(limit) = Bytes::machine_limit() {
    ///     println!("this process may hold {}", Bytes::from(limit));
    /// }
    /// ```
    pub fn machine_limit() -> Option<u64> {
        machine_memory_limit()
    }
}

impl From<u64> for Bytes {
    fn from(b: u64) -> Bytes {
        Bytes(u128::from(b))
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        if self.0 == u128::MAX {
            return f.write_str("more than 10^38 bytes");
        }
        let mut v = self.0 as f64;
        let mut u = 0;
        while v >= 1024.0 && u + 1 < UNITS.len() {
            v /= 1024.0;
            u += 1;
        }
        if u == 0 {
            write!(f, "{} bytes", self.0)
        } else if v >= 10_000.0 {
            write!(f, "{:.1e} bytes", self.0 as f64)
        } else if v >= 100.0 {
            write!(f, "{v:.0} {}", UNITS[u])
        } else {
            write!(f, "{v:.1} {}", UNITS[u])
        }
    }
}

/// Reads a byte count as people write it: a number with an optional unit,
/// `K`, `M`, `G`, `T` (or `KiB` … `TiB`) for powers of 1024, `kB`, `MB`,
/// `GB`, `TB` for powers of 1000 (`512M`, `8G`, `1.5GiB`, `500MB`,
/// `123456`); case does not matter.
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "'{}' is not a size; write it as bytes or with a unit, e.g. 512M or 8G",
            crate::board::printable(text)
        )
    };
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad())?;
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
        _ => return Err(bad()),
    };
    let bytes = value * scale;
    if !(bytes.is_finite() && bytes >= 1.0) || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes.round() as u64)
}

/// What one process may hold at most without swapping: the memory the
/// kernel says it can give (`MemAvailable`), less a margin of 5% of the
/// machine (at least 256 MiB) for the rest of the process and the system.
/// `None` where the system does not say (not Linux).
fn machine_memory_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        kib.checked_mul(1024)
    };
    let total = field("MemTotal:")?;
    let available = field("MemAvailable:").unwrap_or(total);
    let margin = (total / 20).max(256 << 20);
    Some(available.saturating_sub(margin))
}

/// Asks the kernel to back the memory of `v` (its whole capacity) with
/// huge pages where it can. Called on the big arrays that lookups and
/// builds read at random (pattern databases), before their pages are first
/// touched: with 4 KiB pages nearly every such read also misses the TLB.
/// (Measured: Korf's 100 with 7-8 searched in 0.287 s against 0.329 s
/// without, medians of seven alternating runs; the builds, bound by
/// computing more than by memory, gained nothing.) Only advice: the contents are the same either way, and nothing
/// happens where the kernel offers no huge pages or is not Linux.
pub fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        // whole pages inside the allocation only: madvise wants an aligned start
        let first = start.next_multiple_of(PAGE);
        if end >= first + (2 << 20) {
            advise(first, (end - first) / PAGE * PAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise(addr: usize, len: usize) {
    // SAFETY: the range is whole pages inside one live allocation of the
    // caller's; MADV_HUGEPAGE changes only how the kernel backs the pages,
    // never their contents, and a refusal (an error return) is harmless.
    unsafe {
        libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_people_write_them() {
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("8 GiB"), Ok(8 << 30));
        assert_eq!(parse_bytes("1.5gib"), Ok(3 << 29));
        assert_eq!(parse_bytes("500MB"), Ok(500_000_000));
        assert_eq!(parse_bytes("2t"), Ok(2 << 40));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("-1G").is_err());
        assert!(parse_bytes("4X").is_err());
    }

    #[test]
    fn byte_counts_print_with_units() {
        assert_eq!(Bytes(100).to_string(), "100 bytes");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(600 << 20).to_string(), "600 MiB");
        assert_eq!(Bytes(u128::MAX).to_string(), "more than 10^38 bytes");
    }

    #[test]
    fn the_default_budget_is_positive_and_below_the_machine() {
        let b = default_memory_budget();
        assert!(b > 0);
        if let Some(avail) = available_memory() {
            assert!(b <= avail);
        }
    }
}
