//! The published distance distributions, read from
//! `data/distance_distributions.md` (never retyped into a test).

#![allow(dead_code)]

use std::path::Path;

fn read(name: &str) -> String {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn file() -> String {
    read("distance_distributions.md")
}

/// The full list under the heading `### RxC` (blank in a corner), or
/// `None` when the file has no complete list for that size.
pub fn distribution(size: &str) -> Option<Vec<u64>> {
    list_in(&file(), size)
}

/// The published distribution in the multi-tile metric under `### RxC`
/// of `data/mtm_distributions.md` (blank in a corner), if any.
pub fn mtm_distribution(size: &str) -> Option<Vec<u64>> {
    list_in(&read("mtm_distributions.md"), size)
}

fn list_in(text: &str, size: &str) -> Option<Vec<u64>> {
    let start = text.find(&format!("\n### {size}\n"))?;
    let section = &text[start + 1..];
    // a partial list is marked as such in its heading
    let heading = section.lines().next()?;
    if heading.contains("partial") {
        return None;
    }
    let open = section.find("```")?;
    let body = &section[open + 3..];
    let close = body.find("```")?;
    let numbers = body[..close]
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("### {size}: {e}"));
    Some(numbers)
}

/// `(radius, positions at the radius)` for the 8-puzzle with the blank
/// `where_` ("centre" or "mid-side"), from the sentence on other blank
/// starts: "blank in centre A089474, max 30 with 148 positions".
pub fn other_blank_start(where_: &str) -> (u32, u64) {
    let text = file();
    let key = format!("blank {where_}");
    let at = text
        .find(&key)
        .unwrap_or_else(|| panic!("no '{key}' in the distributions file"));
    let rest = &text[at..];
    let max = rest.find("max ").expect("max") + 4;
    let words: Vec<&str> = rest[max..].split_whitespace().take(3).collect();
    // "30", "with", "148"
    let radius = words[0].parse().expect("radius");
    let count = words[2]
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .expect("count");
    (radius, count)
}
