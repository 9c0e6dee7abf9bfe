//! Helpers shared by the targets' checks.

use npuzzle::board::Shape;

/// Shapes a target picks from its selector byte: none (the text decides),
/// and a few the parsers treat specially (square, wide, tall, largest).
pub const SIZES: [Option<(usize, usize)>; 8] = [
    None,
    Some((2, 2)),
    Some((3, 3)),
    Some((2, 4)),
    Some((4, 4)),
    Some((3, 2)),
    Some((5, 5)),
    Some((16, 16)),
];

/// The size chosen by `selector`.
pub fn size(selector: u8) -> Option<Shape> {
    SIZES[usize::from(selector) % SIZES.len()].map(|(r, c)| Shape::new(r, c))
}

/// Splits the fuzzer's bytes into a selector byte and the rest.
pub fn split(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&s, rest)) => (s, rest),
        None => (0, data),
    }
}

/// A message shown to a user must not carry raw control characters (a
/// terminal would act on them).
pub fn assert_printable(what: &str, message: &str, input: &impl std::fmt::Debug) {
    assert!(
        !message.chars().any(char::is_control),
        "{what}: control character in {message:?} (input {input:?})"
    );
}

/// A message of the library must also stay short whatever the input (it
/// quotes the user's text cut short).
pub fn assert_short(what: &str, message: &str, input: &impl std::fmt::Debug) {
    assert_printable(what, message, input);
    assert!(
        message.len() <= 1024,
        "{what}: a {}-byte message (input {input:?})",
        message.len()
    );
}
