//! The Play tab in a real browser: a board solved by clicks and arrow
//! keys, a hint in each metric checked against a plain breadth-first
//! search, the analysis at the end, in English and in Chinese, and on a
//! phone's width.

use super::browser::*;
use super::explore::serve;
use fantoccini::{Client, Locator};
use npuzzle::{parse_board, Board, Metric};
use npuzzle_testkit::reference::bfs_all_in;
use std::collections::HashMap;
use std::time::Duration;

const START: &str = "2 8 3/1 6 4/7 0 5";
const SPIRAL: &str = "1 2 3/8 0 4/7 6 5";
const ARROW_LEFT: &str = "\u{E012}";
const ARROW_UP: &str = "\u{E013}";
const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_DOWN: &str = "\u{E015}";

/// The Play board's tiles, as the page holds them.
async fn tiles(c: &Client) -> Vec<u8> {
    let v = c
        .execute(
            "return document.getElementById('pl-board').dataset.tiles;",
            vec![],
        )
        .await
        .unwrap();
    v.as_str()
        .unwrap_or_default()
        .split(' ')
        .filter_map(|t| t.parse().ok())
        .collect()
}

async fn counters(c: &Client) -> (String, String) {
    (text(c, "#pl-stm").await, text(c, "#pl-mtm").await)
}

/// Clicks tile `n` and waits for its slide to end.
async fn click_tile(c: &Client, n: u8) {
    click(c, &format!("#pl-board .tile[data-tile='{n}']")).await;
    tokio::time::sleep(Duration::from_millis(250)).await;
}

async fn key(c: &Client, k: &str) {
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys(k).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// Asks for a hint and checks it against `dist`: sliding the highlighted
/// tiles (the blank goes to the farthest of them) takes the board one
/// move of `metric` closer; in STM that is a single tile.
async fn check_hint(c: &Client, metric: Metric, dist: &HashMap<Vec<u8>, u32>) {
    let before = tiles(c).await;
    click(c, "#pl-hint").await;
    let cells: Vec<usize> = until(c, "a hint", || async {
        let v = c
            .execute(
                "return [...document.querySelectorAll('#pl-board .tile.hinted')].map((t) => Number(t.dataset.cell));",
                vec![],
            )
            .await
            .ok()?;
        let cells: Vec<usize> = serde_json::from_value(v).ok()?;
        (!cells.is_empty()).then_some(cells)
    })
    .await;
    if metric == Metric::Stm {
        assert_eq!(cells.len(), 1, "an STM hint is one tile");
    }
    let board = Board::from_tiles(3, 3, &before).unwrap();
    let blank = blank_of(&board);
    let far = *cells
        .iter()
        .max_by_key(|&&cell| (cell as i64 - blank as i64).abs())
        .unwrap();
    let (br, bc, fr, fc) = (blank / 3, blank % 3, far / 3, far % 3);
    use npuzzle::Dir;
    let (dir, n) = match (br == fr, bc == fc) {
        (true, false) => (
            if fc > bc { Dir::Right } else { Dir::Left },
            fc.abs_diff(bc),
        ),
        (false, true) => (if fr > br { Dir::Down } else { Dir::Up }, fr.abs_diff(br)),
        _ => panic!("the hinted tiles {cells:?} are in line with the blank {blank}"),
    };
    assert_eq!(
        cells.len(),
        n,
        "every tile between the blank and the farthest is hinted"
    );
    let mut after = board.clone();
    for _ in 0..n {
        assert!(after.apply(dir));
    }
    assert_eq!(
        dist[after.tiles()] + 1,
        dist[board.tiles()],
        "the hinted move ({metric}) brings the goal one move closer"
    );
    let said = text(c, "#pl-hint-text").await;
    assert!(said.contains(&dist[board.tiles()].to_string()), "{said}");
}

fn blank_of(b: &Board) -> usize {
    b.tiles().iter().position(|&t| t == 0).unwrap()
}

/// The example the tab opens on, played: one click sliding two tiles
/// (1 MTM, 2 STM), Undo, a detour by the arrow keys, a hint, the rest by
/// keys; then the analysis, checked against the breadth-first distances.
/// Returns the STM and MTM analysis lines.
async fn play_through(c: &Client) -> (String, String) {
    let stm = bfs_all_in(&parse_board(SPIRAL, None).unwrap(), Metric::Stm);
    let start = parse_board(START, None).unwrap();
    until(c, "the Play board", || async {
        (tiles(c).await == start.tiles()).then_some(())
    })
    .await;
    assert_eq!(counters(c).await, ("0".into(), "0".into()));
    // a key, undone
    key(c, ARROW_DOWN).await;
    assert_eq!(counters(c).await, ("1".into(), "1".into()));
    click(c, "#pl-undo").await;
    assert_eq!(tiles(c).await, start.tiles());
    assert_eq!(counters(c).await, ("0".into(), "0".into()));
    // tile 8 is two cells above the blank: one click slides 8 and 6 down
    click_tile(c, 8).await;
    assert_eq!(tiles(c).await, [2, 0, 3, 1, 8, 4, 7, 6, 5]);
    assert_eq!(counters(c).await, ("2".into(), "1".into()));
    // a detour: 3 slides left, then back right
    key(c, ARROW_LEFT).await;
    key(c, ARROW_RIGHT).await;
    assert_eq!(tiles(c).await, [2, 0, 3, 1, 8, 4, 7, 6, 5]);
    check_hint(c, Metric::Stm, &stm).await;
    // the rest: 2 right, 1 up, 8 left
    key(c, ARROW_RIGHT).await;
    assert!(
        text(c, "#pl-hint-text").await.is_empty(),
        "a move clears the hint"
    );
    key(c, ARROW_UP).await;
    key(c, ARROW_LEFT).await;
    assert_eq!(tiles(c).await, [1, 2, 3, 8, 0, 4, 7, 6, 5]);
    assert_eq!(counters(c).await, ("7".into(), "5".into()));
    until(c, "the analysis", || async {
        let r = c.find(Locator::Css("#pl-result")).await.ok()?;
        r.is_displayed().await.ok()?.then_some(())
    })
    .await;
    // blank UURLLDR: in STM the detour R L is the two wasted moves
    let optimal = stm[start.tiles()];
    assert_eq!(optimal, 5);
    let detours = c
        .execute(
            "return [...document.querySelectorAll('#pl-an-stm .m.detour')].map((m) => m.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(detours, serde_json::json!(["L", "R"]));
    // MTM: pushes D2 L R2 U L, counted against a BFS in pushes
    let mtm = bfs_all_in(&parse_board(SPIRAL, None).unwrap(), Metric::Mtm);
    let mtm_moves = c
        .execute(
            "return document.querySelectorAll('#pl-an-mtm .m').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(mtm_moves, serde_json::json!(5));
    let line = text(c, "#pl-an-mtm .an-line").await;
    assert!(line.contains(&format!(" {}", mtm[start.tiles()])), "{line}");
    (text(c, "#pl-an-stm .an-line").await, line)
}

pub async fn play_in_english() {
    let srv = serve().await;
    let (_driver, url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&url, profile.path(), 1100, 1000).await;
    c.goto(&srv.base).await.unwrap();
    watch_script_errors(&c).await;
    click(&c, "#tab-play").await;
    assert_eq!(text(&c, "#tab-play").await, "Play");
    assert!(c.current_url().await.unwrap().as_str().ends_with("#play"));
    let (stm, mtm) = play_through(&c).await;
    assert_eq!(stm, "STM: 7 moves, optimal 5; 2 wasted in 1 detour.");
    assert!(mtm.starts_with("MTM: 5 moves, optimal "), "{mtm}");
    assert_eq!(text(&c, "#pl-status").await, "Solved!");
    scroll_to_top(&c).await;
    let shots = screenshot_dir();
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(
        shots.join("screenshot-play.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    // Reset: the start again, counters and clock at zero
    click(&c, "#pl-reset").await;
    assert_eq!(tiles(&c).await, parse_board(START, None).unwrap().tiles());
    assert_eq!(counters(&c).await, ("0".into(), "0".into()));
    assert_eq!(text(&c, "#pl-time").await, "0:00.0");
    assert!(!c
        .find(Locator::Css("#pl-result"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());
    // a hint in pushes, and a random 4x4 drawn
    c.find(Locator::Css("#pl-metric"))
        .await
        .unwrap()
        .select_by_value("mtm")
        .await
        .unwrap();
    let mtm = bfs_all_in(&parse_board(SPIRAL, None).unwrap(), Metric::Mtm);
    check_hint(&c, Metric::Mtm, &mtm).await;
    c.find(Locator::Css("#pl-board-pick"))
        .await
        .unwrap()
        .select_by_value("random-4x4")
        .await
        .unwrap();
    until(&c, "a 4x4 board", || async {
        (tiles(&c).await.len() == 16).then_some(())
    })
    .await;
    no_script_errors(&c).await;
}

pub async fn play_in_chinese_on_a_phone() {
    let srv = serve().await;
    let (_driver, url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&url, profile.path(), 1100, 1000).await;
    c.set_window_size(390, 1400).await.unwrap();
    c.goto(&format!("{}?lang=zh#play", srv.base)).await.unwrap();
    watch_script_errors(&c).await;
    assert_eq!(text(&c, "#tab-play").await, "玩");
    assert_eq!(text(&c, "#pl-hint").await, "提示");
    // the board fits the phone's width
    let w = c
        .execute(
            "return document.getElementById('pl-board').getBoundingClientRect().right;",
            vec![],
        )
        .await
        .unwrap();
    assert!(w.as_f64().unwrap() <= 390.0, "board within the width: {w}");
    let (stm, mtm) = play_through(&c).await;
    assert_eq!(stm, "STM：7 步，最少 5 步；1 段绕路中浪费了 2 步。");
    assert!(mtm.starts_with("MTM：5 步，最少 "), "{mtm}");
    assert_eq!(text(&c, "#pl-status").await, "解开了！");
    assert!(text(&c, "#pl-summary").await.contains("解开"));
    let shots = screenshot_dir();
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(
        shots.join("screenshot-play-phone-zh.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    no_script_errors(&c).await;
}
