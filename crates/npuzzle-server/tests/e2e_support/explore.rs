//! The Explore view in a real browser: stepping and playing one search,
//! a race of two, and the page in Chinese (with the language switch
//! remembered across visits).

use super::browser::*;
use fantoccini::{Client, Locator};
use npuzzle_server::{self as server, Config};
use serde_json::json;
use std::path::PathBuf;

/// A server in process on a free port, stopped when dropped.
pub struct Served {
    pub base: String,
    _stop: tokio::sync::oneshot::Sender<()>,
    _cache: tempfile::TempDir,
}

pub async fn serve() -> Served {
    let cache = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = Config {
        pdb_dir: Some(cache.path().to_path_buf()),
        ..Config::default()
    };
    tokio::spawn(server::serve(listener, config, async {
        let _ = stopped.await;
    }));
    Served {
        base,
        _stop: stop,
        _cache: cache,
    }
}

fn shots() -> PathBuf {
    let d = screenshot_dir();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A counter of the pane of `algo` (`expanded`, `open`, …).
async fn counter(c: &Client, algo: &str, which: &str) -> String {
    text(
        c,
        &format!("[data-testid=pane-{algo}] [data-testid=ex-{which}]"),
    )
    .await
}

async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    c.find(Locator::Css(css))
        .await
        .ok()?
        .attr(name)
        .await
        .ok()?
}

/// Picks the example whose value starts with `start`, the algorithms and
/// the heuristic, and runs; waits for the panes.
async fn run(c: &Client, start: &str, algos: &[&str], heuristic: &str) {
    c.execute(
        r#"
        const [start, algos, h] = arguments;
        const ex = document.getElementById('ex-example');
        ex.value = [...ex.options].find((o) => o.value.startsWith(start)).value;
        ex.dispatchEvent(new Event('change'));
        document.querySelectorAll('.ex-algos input').forEach((i) => { i.checked = algos.includes(i.value); });
        document.getElementById('ex-heuristic').value = h;
        "#,
        vec![json!(start), json!(algos), json!(heuristic)],
    )
    .await
    .unwrap();
    click(c, "#ex-run").await;
    until(c, "the panes", || async {
        let n = c
            .find_all(Locator::Css("#ex-panes .pane"))
            .await
            .ok()?
            .len();
        (n == algos.len()).then_some(())
    })
    .await;
    for a in algos {
        let err = text(c, &format!("[data-testid=pane-{a}] .pane-error")).await;
        assert!(err.is_empty(), "{a}: {err}");
    }
}

async fn set_speed(c: &Client, value: u32) {
    c.execute(
        "const s = document.getElementById('ex-speed'); s.value = arguments[0]; \
         s.dispatchEvent(new Event('input'));",
        vec![json!(value)],
    )
    .await
    .unwrap();
}

async fn until_finished(c: &Client) {
    until(c, "every search finished", || async {
        (attr(c, "#ex-panes", "data-finished").await.as_deref() == Some("yes")).then_some(())
    })
    .await;
}

/// The moves a finished pane reports.
async fn moves(c: &Client, algo: &str) -> String {
    attr(
        c,
        &format!("[data-testid=pane-{algo}] .done-text"),
        "data-moves",
    )
    .await
    .unwrap_or_default()
}

pub async fn explore_step_and_play_on_astar() {
    let srv = serve().await;
    let (_driver, url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&url, profile.path(), 1200, 1400).await;
    c.goto(&srv.base).await.unwrap();
    watch_script_errors(&c).await;
    click(&c, "#tab-explore").await;
    assert!(c
        .find(Locator::Css("#explore-view"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());
    run(&c, "2 8 3 1 6 4 7 0 5", &["astar"], "manhattan").await;
    assert_eq!(counter(&c, "astar", "expanded").await, "0");
    // One step: the start expanded, shown as the current board.
    click(&c, "#ex-step").await;
    assert_eq!(counter(&c, "astar", "expanded").await, "1");
    let cur = attr(&c, "[data-testid=pane-astar] .cur .mini", "data-tiles").await;
    assert_eq!(cur.as_deref(), Some("2 8 3 1 6 4 7 0 5"));
    assert!(counter(&c, "astar", "depth").await.starts_with("0 (h 5"));
    click(&c, "#ex-step").await;
    assert_eq!(counter(&c, "astar", "expanded").await, "2");
    let nodes = attr(&c, "[data-testid=pane-astar] svg.tree", "data-nodes").await;
    assert!(
        nodes.and_then(|n| n.parse::<u32>().ok()) >= Some(2),
        "the tree holds the nodes expanded"
    );
    // Play at 2 nodes a second to the end (slow enough to see it play).
    set_speed(&c, 1).await;
    assert_eq!(text(&c, "#ex-speed-label").await, "2 nodes/s");
    click(&c, "#ex-play").await;
    assert_eq!(text(&c, "#ex-play").await, "Pause");
    until_finished(&c).await;
    assert_eq!(text(&c, "#ex-play").await, "Play");
    assert_eq!(moves(&c, "astar").await, "5");
    let path = text(&c, "[data-testid=pane-astar] [data-testid=ex-path]").await;
    assert_eq!(path.len(), 5, "{path}");
    let solution = c
        .find_all(Locator::Css(
            "[data-testid=pane-astar] svg.tree circle.solution",
        ))
        .await
        .unwrap()
        .len();
    assert!(solution >= 1, "the answer's nodes marked in the tree");
    // The answer replayed on the pane's board, move by move, to the goal.
    click(&c, "[data-testid=pane-astar] .replay").await;
    until(&c, "the replay's end", || async {
        let cap = text(&c, "[data-testid=pane-astar] figcaption").await;
        (cap == "move 5 of 5").then_some(())
    })
    .await;
    let cur = attr(&c, "[data-testid=pane-astar] .cur .mini", "data-tiles").await;
    assert_eq!(cur.as_deref(), Some("1 2 3 8 0 4 7 6 5"));
    // Restart: back to nothing expanded.
    click(&c, "#ex-restart").await;
    assert_eq!(counter(&c, "astar", "expanded").await, "0");
    // A search that cannot be watched says why, in its pane.
    c.execute(
        "document.querySelectorAll('.ex-algos input').forEach((i) => { i.checked = false; });",
        vec![],
    )
    .await
    .unwrap();
    click(&c, "#ex-run").await;
    assert!(!text(&c, "#ex-error").await.is_empty());

    // Four at once, to the end: bidirectional BFS shows where its two
    // searches met; the optimal ones agree, greedy may take more.
    let four = ["bibfs", "astar", "greedy", "dfid"];
    run(&c, "2 8 3 1 6 4 7 0 5", &four, "manhattan").await;
    click(&c, "#ex-end").await;
    until_finished(&c).await;
    for a in ["bibfs", "astar", "dfid"] {
        assert_eq!(moves(&c, a).await, "5", "{a}");
    }
    let greedy: u32 = moves(&c, "greedy").await.parse().unwrap();
    assert!(greedy >= 5);
    let meet = attr(&c, "[data-testid=pane-bibfs] .meet .mini", "data-tiles").await;
    assert!(meet.is_some(), "the meeting board");
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e/explore-four.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    // Phone width: one column, nothing wider than the screen.
    c.set_window_size(390, 1400).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow.as_i64(), Some(0), "no horizontal scrolling");
    no_script_errors(&c).await;
    c.close().await.unwrap();
}

/// BFS and IDA* race on one board: the same answer in both panes.
async fn race(c: &Client) -> String {
    run(c, "2 6 4 1 3 7 0 5 8", &["bfs", "idastar"], "manhattan").await;
    set_speed(c, 11).await;
    click(c, "#ex-play").await;
    until_finished(c).await;
    let (bfs, ida) = (moves(c, "bfs").await, moves(c, "idastar").await);
    assert!(!bfs.is_empty());
    assert_eq!(bfs, ida, "both find the fewest moves");
    bfs
}

pub async fn race_of_bfs_and_idastar() {
    let srv = serve().await;
    let (_driver, url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&url, profile.path(), 1200, 1500).await;
    c.goto(&format!("{}#explore", srv.base)).await.unwrap();
    watch_script_errors(&c).await;
    let m = race(&c).await;
    let start = [2, 6, 4, 1, 3, 7, 0, 5, 8];
    let goal = [8, 1, 5, 7, 3, 6, 4, 0, 2];
    let want = npuzzle_testkit::api::bfs_moves(3, 3, &start, &goal).unwrap();
    assert_eq!(m, want.to_string());
    // BFS visits far more than the events kept: said, and the counters
    // show the search's totals.
    let capped = text(&c, "[data-testid=pane-bfs] [data-testid=ex-capped]").await;
    assert!(capped.starts_with("Recorded 20,000 of "), "{capped}");
    let expanded: u64 = counter(&c, "bfs", "expanded")
        .await
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(expanded > 20_000, "{expanded}");
    let bars = c
        .find_all(Locator::Css("[data-testid=pane-idastar] .chart-main .col"))
        .await
        .unwrap()
        .len();
    assert!(bars >= 2, "IDA*'s iterations charted");
    scroll_to_top(&c).await;
    std::fs::write(
        shots().join("screenshot-explore-en.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    no_script_errors(&c).await;
    c.close().await.unwrap();
}

pub async fn the_page_in_chinese() {
    let srv = serve().await;
    let (_driver, url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&url, profile.path(), 1200, 1500).await;
    c.goto(&format!("{}?lang=zh", srv.base)).await.unwrap();
    watch_script_errors(&c).await;
    assert_eq!(c.title().await.unwrap(), "npuzzle：滑块拼图求解器");
    assert_eq!(text(&c, "#solve").await, "求解");
    assert_eq!(text(&c, "#tab-explore").await, "探索搜索过程");
    assert_eq!(text(&c, "#board-caption").await, "初始状态");
    let lang = c
        .execute("return document.documentElement.lang;", vec![])
        .await
        .unwrap();
    assert_eq!(lang, json!("zh-CN"));
    // A solve, in Chinese.
    type_into(&c, "#start-text", "2 8 3 1 6 4 7 0 5").await;
    type_into(&c, "#goal-text", "1 2 3 8 0 4 7 6 5").await;
    click(&c, "#solve").await;
    until(&c, "the answer", || async {
        (text(&c, "#moves").await == "5").then_some(())
    })
    .await;
    assert_eq!(text(&c, "#moves-unit").await, "步（最少步数）");
    assert!(text(&c, "#standing")
        .await
        .starts_with("这个 8 数码局面需要 5 步"));
    // For a look at the Chinese Solve tab (not one of the docs' pictures).
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join("solve-zh.png"), c.screenshot().await.unwrap()).unwrap();
    // The switch: English at once (the answer too), and in the address.
    c.find(Locator::Css("#lang"))
        .await
        .unwrap()
        .select_by_value("en")
        .await
        .unwrap();
    until(&c, "the page in English", || async {
        (text(&c, "#solve").await == "Solve").then_some(())
    })
    .await;
    assert_eq!(text(&c, "#moves-unit").await, "moves (the fewest)");
    assert!(c.current_url().await.unwrap().as_str().contains("lang=en"));
    // Remembered: a visit without ?lang= is in English too …
    c.goto(&srv.base).await.unwrap();
    assert_eq!(text(&c, "#solve").await, "Solve");
    // … and after switching back, in Chinese.
    c.find(Locator::Css("#lang"))
        .await
        .unwrap()
        .select_by_value("zh")
        .await
        .unwrap();
    until(&c, "the page in Chinese", || async {
        (text(&c, "#solve").await == "求解").then_some(())
    })
    .await;
    // The address is unchanged: load it again.
    c.refresh().await.unwrap();
    watch_script_errors(&c).await;
    assert_eq!(text(&c, "#solve").await, "求解");
    click(&c, "#tab-explore").await;
    assert_eq!(text(&c, "#ex-run").await, "运行");
    race(&c).await;
    let done = text(&c, "[data-testid=pane-idastar] .done-text").await;
    assert!(done.starts_with("完成："), "{done}");
    assert!(!counter(&c, "bfs", "expanded").await.is_empty());
    let dt = text(&c, "[data-testid=pane-bfs] .counters dt").await;
    assert_eq!(dt, "已扩展");
    scroll_to_top(&c).await;
    std::fs::write(
        shots().join("screenshot-explore.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    no_script_errors(&c).await;
    c.close().await.unwrap();
}
