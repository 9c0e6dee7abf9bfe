//! End to end in a real headless browser: Debian's `chromium` driven through
//! `chromedriver` (WebDriver, via fantoccini) against an in-process server on
//! 127.0.0.1.
//!
//! This file has its own harness (`harness = false`, libtest-mimic) so that a
//! skip is visible under a plain `cargo test`: where no browser is installed
//! it prints why on its own line and reports every test as ignored, unless
//! `NPUZZLE_E2E_REQUIRE=1` (CI sets it after installing the browser), which
//! makes a missing browser a failure. Screenshots go to `target/tmp/e2e/`,
//! or to the folder named by `NPUZZLE_SCREENSHOTS`
//! (`NPUZZLE_SCREENSHOTS=docs cargo test --test e2e` refreshes the README's
//! `docs/screenshot.png` and the Explore view's `docs/screenshot-explore.png`,
//! `docs/screenshot-explore-en.png`, the Play tab's
//! `docs/screenshot-play.png`). The Explore trials are in
//! `e2e_support/explore.rs`, the Play trials in `e2e_support/play.rs`.

#[path = "e2e_support/browser.rs"]
mod browser;
#[path = "e2e_support/explore.rs"]
mod explore;
#[path = "e2e_support/play.rs"]
mod play;

use browser::*;
use fantoccini::Locator;
use libtest_mimic::{Arguments, Failed, Trial};
use npuzzle_server::{self as server, Config};
use std::future::Future;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    let skip = !missing.is_empty();
    if skip {
        let why = format!(
            "{} not installed (apt-get install -y chromium chromium-driver)",
            missing.join(" and ")
        );
        if std::env::var("NPUZZLE_E2E_REQUIRE").is_ok_and(|v| v == "1") {
            eprintln!("error: NPUZZLE_E2E_REQUIRE=1 but {why}");
            return ExitCode::FAILURE;
        }
        println!("SKIPPED browser end-to-end tests: {why}");
    }
    let trials = vec![
        Trial::test("solve_and_play_back_in_a_real_browser", || {
            in_runtime(solve_and_play_back_in_a_real_browser())
        })
        .with_ignored_flag(skip),
        Trial::test("sizes_goals_shuffle_and_clicks", || {
            in_runtime(sizes_goals_shuffle_and_clicks())
        })
        .with_ignored_flag(skip),
        Trial::test("explore_step_and_play_on_astar", || {
            in_runtime(explore::explore_step_and_play_on_astar())
        })
        .with_ignored_flag(skip),
        Trial::test("explore_race_of_bfs_and_idastar", || {
            in_runtime(explore::race_of_bfs_and_idastar())
        })
        .with_ignored_flag(skip),
        Trial::test("the_page_in_chinese_and_the_switch", || {
            in_runtime(explore::the_page_in_chinese())
        })
        .with_ignored_flag(skip),
        Trial::test("play_by_clicks_keys_and_hints", || {
            in_runtime(play::play_in_english())
        })
        .with_ignored_flag(skip),
        Trial::test("play_in_chinese_on_a_phone", || {
            in_runtime(play::play_in_chinese_on_a_phone())
        })
        .with_ignored_flag(skip),
    ];
    libtest_mimic::run(&args, trials).exit_code()
}

/// Runs one browser test on its own runtime (a panic fails the trial).
fn in_runtime(test: impl Future<Output = ()>) -> Result<(), Failed> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failed::from(format!("tokio runtime: {e}")))?
        .block_on(test);
    Ok(())
}

/// A server configuration whose pattern-database cache is `dir`.
fn test_config(dir: &Path) -> Config {
    Config {
        pdb_dir: Some(dir.to_path_buf()),
        ..Config::default()
    }
}

async fn solve_and_play_back_in_a_real_browser() {
    // The server, in process, on a free port.
    let cache = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::serve(listener, test_config(cache.path()), async {
        let _ = stopped.await;
    }));

    let (_driver, driver_url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&driver_url, profile.path(), 1200, 1240).await;
    let shots = screenshot_dir();
    std::fs::create_dir_all(&shots).unwrap();

    c.goto(&base).await.expect("load the page");
    watch_script_errors(&c).await;
    assert_eq!(c.title().await.unwrap(), "npuzzle: sliding-tile solver");
    // The page draws a shuffled 3x3 start at once.
    until(&c, "the first board", || async {
        let t = shown_board(&c).await;
        (t.len() == 9).then_some(())
    })
    .await;

    // Enter the problem, solve.
    type_into(&c, "#start-text", "2 8 3 1 6 4 7 0 5").await;
    type_into(&c, "#goal-text", "1 2 3 8 0 4 7 6 5").await;
    click(&c, "#solve").await;
    let moves = until(&c, "the answer", || async {
        let r = c.find(Locator::Css("#result")).await.ok()?;
        r.is_displayed().await.ok()?.then_some(())?;
        Some(text(&c, "#moves").await)
    })
    .await;
    assert_eq!(moves, "5", "fewest moves shown");
    assert_eq!(text(&c, "#algorithm").await, "table");
    assert_eq!(text(&c, "#move-counter").await, "0 / 5");
    assert_eq!(text(&c, "#goal-kind option:checked").await, "custom");
    let path: String = text(&c, "#move-string").await.split_whitespace().collect();
    assert_eq!(path, "UULDR");
    assert_eq!(shown_board(&c).await, [2, 8, 3, 1, 6, 4, 7, 0, 5]);
    // Where the start stands among all 8-puzzle positions (goal blank in
    // the centre), counted from the complete table.
    let table = npuzzle::TableSet::global()
        .table(npuzzle::Shape::new(3, 3), 4)
        .unwrap();
    let fewer: u64 = table.histogram()[..5].iter().sum();
    let standing = text(&c, "#standing").await;
    assert!(
        standing.starts_with(&format!(
            "This 8-puzzle position needs 5 moves; only {fewer} of the 181,440 positions need fewer."
        )),
        "{standing}"
    );

    // Step through the playback, checking each board against the path.
    let mut expect = vec![2u8, 8, 3, 1, 6, 4, 7, 0, 5];
    for (i, d) in "UULDR".chars().enumerate() {
        click(&c, "#forward").await;
        let b = expect.iter().position(|&t| t == 0).unwrap();
        let to = match d {
            'U' => b - 3,
            'D' => b + 3,
            'L' => b - 1,
            _ => b + 1,
        };
        expect.swap(b, to);
        assert_eq!(text(&c, "#move-counter").await, format!("{} / 5", i + 1));
        assert_eq!(shown_board(&c).await, expect, "after move {}", i + 1);
        let left = 4 - i;
        let standing = text(&c, "#standing").await;
        let want = match left {
            0 => "position is the goal itself; no position needs fewer".to_string(),
            1 => "position needs 1 move;".to_string(),
            _ => format!("position needs {left} moves;"),
        };
        assert!(standing.contains(&want), "after move {}: {standing}", i + 1);
        assert_eq!(
            text(&c, "#move-string .m.current").await,
            d.to_string(),
            "highlighted move {}",
            i + 1
        );
    }
    assert_eq!(
        shown_board(&c).await,
        [1, 2, 3, 8, 0, 4, 7, 6, 5],
        "the board shown at the end is the goal"
    );
    assert!(
        !c.find(Locator::Css("#forward"))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap(),
        "no step past the end"
    );

    // Back two steps, then compare: the picture for the README.
    click(&c, "#back").await;
    click(&c, "#back").await;
    assert_eq!(text(&c, "#move-counter").await, "3 / 5");
    click(&c, "#compare").await;
    until(&c, "the comparison", || async {
        let n = c
            .find_all(Locator::Css("#compare-table tbody tr"))
            .await
            .ok()?
            .len();
        (n > 0).then_some(())
    })
    .await;
    assert!(text(&c, "#compare-agree").await.contains("5 moves"));
    let bars = c
        .find_all(Locator::Css("#compare-chart .track"))
        .await
        .unwrap();
    assert!(!bars.is_empty());
    scroll_to_top(&c).await;
    let png = c.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let desktop = shots.join("screenshot.png");
    std::fs::write(&desktop, png).unwrap();

    // Arrow keys move the blank (and leave the solution).
    c.execute(
        "window.scrollTo(0, 0); document.activeElement.blur();",
        vec![],
    )
    .await
    .unwrap();
    let before = shown_board(&c).await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    // At move 3 of UULDR the blank is in the top-left corner.
    body.send_keys("\u{E014}").await.unwrap(); // ArrowRight
    let after = shown_board(&c).await;
    let (b0, b1) = (
        before.iter().position(|&t| t == 0).unwrap(),
        after.iter().position(|&t| t == 0).unwrap(),
    );
    assert_eq!(
        b0 + 1,
        b1,
        "ArrowRight moved the blank right: {before:?} -> {after:?}"
    );
    assert!(!c
        .find(Locator::Css("#player"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());

    // An unreachable goal says so, with the parity reason.
    type_into(&c, "#start-text", "1 2 3 4 5 6 8 7 0").await;
    c.find(Locator::Css("#goal-kind"))
        .await
        .unwrap()
        .select_by_value("blank-last")
        .await
        .unwrap();
    click(&c, "#solve").await;
    let verdict = until(&c, "the unreachable verdict", || async {
        let m = text(&c, "#moves").await;
        (m == "Unreachable").then_some(m)
    })
    .await;
    assert_eq!(verdict, "Unreachable");
    let reason = text(&c, "#reason").await;
    assert!(
        reason.contains("parity") && reason.contains("inversions"),
        "{reason}"
    );
    std::fs::write(
        shots.join("screenshot-unreachable.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();

    // Bad input: the server's message, shown on the page.
    type_into(&c, "#start-text", "2 8 3 1 6 4 7 0 9").await;
    click(&c, "#solve").await;
    let err = until(&c, "the error", || async {
        let e = text(&c, "#error").await;
        (!e.is_empty() && !e.contains("cancelled")).then_some(e)
    })
    .await;
    assert!(err.starts_with("start board:"), "{err}");

    // A long solve shows a spinner and the time so far, and can be
    // cancelled: the page's fetch is slowed down here, since every board
    // the server solves today answers in milliseconds.
    c.execute(
        r#"
        const real = window.fetch;
        window.fetch = (url, opts) => new Promise((resolve, reject) => {
          const t = setTimeout(() => real(url, opts).then(resolve, reject), 60000);
          opts.signal?.addEventListener('abort', () => {
            clearTimeout(t);
            reject(new DOMException('aborted', 'AbortError'));
          });
        });
        window.realFetch = real;
        "#,
        vec![],
    )
    .await
    .unwrap();
    type_into(&c, "#start-text", "2 8 3 1 6 4 7 0 5").await;
    click(&c, "#solve").await;
    let progress = until(&c, "the progress line", || async {
        let s = text(&c, "#status-text").await;
        (s.starts_with("Solving") && !s.ends_with(" 0.0 s")).then_some(s)
    })
    .await;
    assert!(progress.ends_with(" s"), "{progress}");
    assert!(!c
        .find(Locator::Css("#solve"))
        .await
        .unwrap()
        .is_enabled()
        .await
        .unwrap());
    click(&c, "#cancel").await;
    let msg = until(&c, "the cancel message", || async {
        let e = text(&c, "#error").await;
        (!e.is_empty()).then_some(e)
    })
    .await;
    assert_eq!(msg, "Solving cancelled.");
    assert!(!c
        .find(Locator::Css("#status"))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap());
    c.execute("window.fetch = window.realFetch;", vec![])
        .await
        .unwrap();

    // Phone width: one column, nothing wider than the screen.
    c.set_window_size(390, 1400).await.unwrap();
    type_into(&c, "#start-text", "2 8 3 1 6 4 7 0 5").await;
    type_into(&c, "#goal-text", "1 2 3 8 0 4 7 6 5").await;
    click(&c, "#solve").await;
    until(&c, "the phone answer", || async {
        (text(&c, "#moves").await == "5").then_some(())
    })
    .await;
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        overflow.as_i64(),
        Some(0),
        "no horizontal scrolling at phone width"
    );
    scroll_to_top(&c).await;
    std::fs::write(
        shots.join("screenshot-phone.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();

    no_script_errors(&c).await;
    c.close().await.unwrap();
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    println!(
        "browser end-to-end test passed; screenshot: {}",
        desktop.display()
    );
}

/// Rectangular boards, named goals, shuffling, clicking tiles, typing a
/// board of another size, and the largest board the page offers.
async fn sizes_goals_shuffle_and_clicks() {
    let cache = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::serve(listener, test_config(cache.path()), async {
        let _ = stopped.await;
    }));
    let (_driver, driver_url) = start_driver().await;
    let profile = tempfile::tempdir().unwrap();
    let c = browser(&driver_url, profile.path(), 1200, 1240).await;
    let shots = screenshot_dir();
    std::fs::create_dir_all(&shots).unwrap();
    c.goto(&base).await.unwrap();
    watch_script_errors(&c).await;
    let board_attr = |css: &'static str| {
        let c = &c;
        async move {
            let t = c
                .find(Locator::Css(css))
                .await
                .unwrap()
                .attr("data-tiles")
                .await
                .unwrap()
                .unwrap_or_default();
            t.split(' ')
                .filter_map(|x| x.parse().ok())
                .collect::<Vec<u8>>()
        }
    };

    // 2x4 with the spiral goal.
    let select = |css: &'static str, value: &'static str| {
        let c = &c;
        async move {
            c.find(Locator::Css(css))
                .await
                .unwrap()
                .select_by_value(value)
                .await
                .unwrap();
        }
    };
    select("#size", "2x4").await;
    select("#goal-kind", "spiral").await;
    assert_eq!(board_attr("#goal-board").await, [1, 2, 3, 4, 0, 7, 6, 5]);
    let goal_text = c
        .find(Locator::Css("#goal-text"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(goal_text.as_deref(), Some("1 2 3 4\n0 7 6 5"));

    // Shuffle gives a reachable start; solve and jump to the end.
    click(&c, "#shuffle").await;
    let start = board_attr("#board").await;
    let mut sorted = start.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..8).collect::<Vec<u8>>());
    click(&c, "#solve").await;
    let moves = until(&c, "the 2x4 answer", || async {
        let m = text(&c, "#moves").await;
        m.parse::<u32>().ok()
    })
    .await;
    click(&c, "#last").await;
    assert_eq!(
        text(&c, "#move-counter").await,
        format!("{moves} / {moves}")
    );
    assert_eq!(shown_board(&c).await, [1, 2, 3, 4, 0, 7, 6, 5]);

    // Clicking a tile in line with the blank slides it (and those between).
    click(&c, "#reset").await;
    let before = board_attr("#board").await;
    let blank = before.iter().position(|&t| t == 0).unwrap();
    let target = if blank % 4 == 0 {
        blank + 3
    } else {
        blank - blank % 4
    };
    let tile = before[target];
    click(&c, &format!("#board .tile[data-tile=\"{tile}\"]")).await;
    let after = board_attr("#board").await;
    assert_eq!(after[target], 0, "{before:?} -> {after:?}");
    assert_eq!(
        after.iter().filter(|&&t| t != 0).count(),
        7,
        "still a board"
    );

    // A typed 4x4 board switches the size; the goal follows the named layout.
    type_into(&c, "#start-text", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").await;
    until(&c, "the 4x4 board", || async {
        (board_attr("#board").await.len() == 16).then_some(())
    })
    .await;
    assert_eq!(
        c.find(Locator::Css("#size"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("4x4")
    );
    assert_eq!(
        board_attr("#goal-board").await,
        [1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]
    );
    select("#goal-kind", "blank-last").await;
    // No pattern database to build: the answer comes at once.
    select("#heuristic", "linear-conflict").await;
    click(&c, "#solve").await;
    let answer = until(&c, "the 4x4 answer", || async {
        let m = text(&c, "#moves").await;
        let e = text(&c, "#error").await;
        let shown = c
            .find(Locator::Css("#result"))
            .await
            .ok()?
            .is_displayed()
            .await
            .ok()?;
        if shown && m == "1" {
            Some(Ok(()))
        } else if !e.is_empty() {
            Some(Err(e))
        } else {
            None
        }
    })
    .await;
    if let Err(e) = answer {
        // A build without IDA* refuses a 4x4 search with a clear message.
        assert!(e.contains("not supported"), "{e}");
        println!("note: 4x4 solve refused on this build: {e}");
    }

    // 7x7: beyond exact search, the fast solver answers (not the fewest)
    // and the page plays the answer back.
    select("#size", "7x7").await;
    assert_eq!(board_attr("#board").await.len(), 49);
    click(&c, "#shuffle").await;
    click(&c, "#solve").await;
    let unit = until(&c, "the 7x7 answer", || async {
        let u = text(&c, "#moves-unit").await;
        let e = text(&c, "#error").await;
        if u.contains("not proven the fewest") {
            Some(Ok(u))
        } else if !e.is_empty() {
            Some(Err(e))
        } else {
            None
        }
    })
    .await
    .expect("a 7x7 answer");
    assert!(unit.contains("at least"), "{unit}");
    let moves: usize = text(&c, "#moves").await.parse().unwrap();
    assert!(moves > 0);
    let steps = c
        .execute(
            "return document.querySelectorAll('#move-string .m').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(steps.as_u64(), Some(moves as u64));
    click(&c, "#last").await;
    let goal = board_attr("#goal-board").await;
    until(&c, "the played-back goal", || async {
        (board_attr("#board").await == goal).then_some(())
    })
    .await;

    // 5x5: readable, and a screenshot of it.
    select("#size", "5x5").await;
    assert_eq!(board_attr("#board").await.len(), 25);
    let font = c
        .execute(
            "return parseFloat(getComputedStyle(document.querySelector('#board .face')).fontSize);",
            vec![],
        )
        .await
        .unwrap();
    assert!(font.as_f64().unwrap() >= 16.0, "tile font {font}");
    std::fs::write(
        shots.join("screenshot-5x5.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();

    no_script_errors(&c).await;
    c.close().await.unwrap();
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
