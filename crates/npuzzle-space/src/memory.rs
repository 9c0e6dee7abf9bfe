//! What a search needs and what the machine has.

use npuzzle::Shape;

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
        .try_fold(1u128, u128::checked_mul)
        .map(|f| f / 2)
}

pub use npuzzle::Bytes;

/// What one process may hold at most without swapping
/// ([`Bytes::machine_limit`]).
pub fn default_limit() -> Option<u64> {
    Bytes::machine_limit()
}

/// A byte count as people write it (`8G`, `500MB`; [`Bytes::parse`]).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    Bytes::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_the_literature() {
        assert_eq!(bytes_needed(Shape::new(3, 4)), 59_875_200);
        // (R·C)!/8 bytes: 59.9 MB, 10.9 GB, 163.5 GB and 2.6 TB in the
        // literature's decimal units
        assert_eq!(
            Bytes(bytes_needed(Shape::new(3, 4))).to_string(),
            "57.1 MiB"
        );
        assert_eq!(bytes_needed(Shape::new(2, 7)), 10_897_286_400);
        assert_eq!(
            Bytes(bytes_needed(Shape::new(2, 7))).to_string(),
            "10.1 GiB"
        );
        assert_eq!(bytes_needed(Shape::new(3, 5)), 163_459_296_000);
        assert_eq!(bytes_needed(Shape::new(4, 4)), 2_615_348_736_000);
        assert_eq!(Bytes(bytes_needed(Shape::new(4, 4))).to_string(), "2.4 TiB");
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
