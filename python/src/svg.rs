//! Pictures for Jupyter: a board as SVG (`Board._repr_svg_`), a path as a
//! strip of small boards (`Solution._repr_html_`), and the escaping both
//! use.
//!
//! The output is well-formed XML (an HTML strip too), so that tests can
//! parse it; the only text in it is numbers and the library's own names,
//! escaped all the same.

use npuzzle::Board;
use std::fmt::Write as _;

/// A cell's side in pixels for a board shown alone, and the most pixels
/// its wider side may take (a 16×16 board shrinks its cells to fit).
const CELL: f64 = 44.0;
const MAX_WIDTH: f64 = 480.0;

/// The same for the small boards of a strip.
pub const SMALL_CELL: f64 = 18.0;
pub const SMALL_MAX_WIDTH: f64 = 160.0;

/// Most boards a strip shows; the rest are counted.
const STRIP_MAX: usize = 60;

const FRAME: &str = "#4c566a";
const TILE: &str = "#eceff4";
const TILE_EDGE: &str = "#88909f";
const INK: &str = "#2e3440";

/// `s` with the five XML specials escaped (for text and attributes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The cell side for `board`: `cell`, smaller when the board would be
/// wider than `max_width`.
fn cell_side(board: &Board, cell: f64, max_width: f64) -> f64 {
    let side = board.rows().max(board.cols()) as f64;
    cell.min(max_width / side)
}

/// `board` as a standalone SVG picture: tiles as rounded squares with
/// their numbers (one `<text>` each), the blank left empty.
pub fn board_svg(board: &Board) -> String {
    board_svg_sized(board, cell_side(board, CELL, MAX_WIDTH))
}

/// [`board_svg`] with cells of `cell` pixels.
pub fn board_svg_sized(board: &Board, cell: f64) -> String {
    let (rows, cols) = (board.rows(), board.cols());
    let pad = (cell * 0.12).max(2.0);
    let (w, h) = (
        cols as f64 * cell + 2.0 * pad,
        rows as f64 * cell + 2.0 * pad,
    );
    let gap = (cell * 0.06).max(1.0);
    let tile = cell - 2.0 * gap;
    let mut s = String::with_capacity(160 * rows * cols + 400);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.1}" height="{h:.1}" viewBox="0 0 {w:.1} {h:.1}" role="img">"#
    );
    let _ = write!(
        s,
        "<title>{}×{} board {}</title>",
        rows,
        cols,
        escape(&board.to_row_string())
    );
    let _ = write!(
        s,
        r#"<rect width="{w:.1}" height="{h:.1}" rx="{:.1}" fill="{FRAME}"/>"#,
        pad * 1.5
    );
    for (i, &t) in board.tiles().iter().enumerate() {
        if t == 0 {
            continue;
        }
        let (r, c) = (i / cols, i % cols);
        let (x, y) = (pad + c as f64 * cell + gap, pad + r as f64 * cell + gap);
        // Three-digit tiles (boards of 100 cells or more) get a smaller font.
        let font = if t >= 100 { tile * 0.38 } else { tile * 0.5 };
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{tile:.1}" height="{tile:.1}" rx="{:.1}" fill="{TILE}" stroke="{TILE_EDGE}" stroke-width="{:.1}"/>"#,
            tile * 0.18,
            (cell * 0.03).max(0.5)
        );
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-weight="bold" font-size="{font:.1}" fill="{INK}">{t}</text>"#,
            x + tile / 2.0,
            y + tile / 2.0
        );
    }
    s.push_str("</svg>");
    s
}

/// One small board with a caption under it, for strips.
pub fn figure(board: &Board, caption: &str) -> String {
    let cell = cell_side(board, SMALL_CELL, SMALL_MAX_WIDTH);
    format!(
        r#"<figure style="margin:0;text-align:center">{}<figcaption style="font:12px monospace">{}</figcaption></figure>"#,
        board_svg_sized(board, cell),
        escape(caption)
    )
}

/// A row of figures that wraps.
pub fn row(figures: &str) -> String {
    format!(
        r#"<div style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end">{figures}</div>"#
    )
}

/// `boards` (the start first) along `path` (one letter per move) as a
/// strip of small boards captioned `start`, then each move's letter; at
/// most [`STRIP_MAX`] boards, then how many more.
pub fn strip(boards: &[Board], path: &str) -> String {
    let mut figures = String::new();
    let captions = std::iter::once("start".to_string()).chain(path.chars().map(String::from));
    for (board, caption) in boards.iter().zip(captions).take(STRIP_MAX) {
        figures.push_str(&figure(board, &caption));
    }
    if boards.len() > STRIP_MAX {
        let _ = write!(
            figures,
            r#"<div style="font:14px sans-serif;align-self:center">… {} more</div>"#,
            boards.len() - STRIP_MAX
        );
    }
    row(&figures)
}
