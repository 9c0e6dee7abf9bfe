//! Driving Debian's chromium through chromedriver (WebDriver, fantoccini)
//! for the browser end-to-end tests.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Stops chromedriver (and so its browsers) when the test ends, however it
/// ends; then removes the folder that served as their home and caches.
pub struct Driver(Child, #[allow(dead_code)] tempfile::TempDir);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a port of its own choosing and waits until it
/// says it listens.
///
/// Picking a free port first and handing it over would race: two tests
/// starting at once can be handed the same port, and one of them then
/// talks to the other's driver. `--port=0` lets the system choose, and the
/// driver's own "started successfully on port N" line says which, once it
/// is ready.
pub async fn start_driver() -> (Driver, String) {
    // The browser writes caches of its own (dconf, fonts): into a folder of
    // the test's, never the user's.
    let home = tempfile::tempdir().expect("a temporary home for the browser");
    let mut child = Command::new(CHROMEDRIVER)
        .arg("--port=0")
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let stdout = child.stdout.take().expect("chromedriver's stdout");
    let driver = Driver(child, home);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut sent = false;
        // Keep reading after the port is known, so the pipe never fills.
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if !sent {
                if let Some(port) = line
                    .split("started successfully on port ")
                    .nth(1)
                    .and_then(|rest| rest.trim_end_matches('.').trim().parse::<u16>().ok())
                {
                    let _ = tx.send(port);
                    sent = true;
                }
            }
        }
    });
    let port = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(20)))
        .await
        .expect("the waiting thread")
        .expect("chromedriver said which port it listens on within 20 s");
    (driver, format!("http://127.0.0.1:{port}"))
}

pub async fn browser(driver_url: &str, profile: &Path, width: u32, height: u32) -> Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "prefs": { "intl.accept_languages": "en-US,en" },
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                // The page picks its language from the browser's: English
                // unless a test asks otherwise.
                "--lang=en-US",
                "--force-device-scale-factor=1",
                format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!("json! of an object literal is an object")
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(driver_url)
        .await
        .expect("a browser session")
}

/// Records uncaught script errors from now on; [`no_script_errors`] reads them.
pub async fn watch_script_errors(c: &Client) {
    c.execute(
        "window.__errors = []; \
         window.addEventListener('error', (e) => window.__errors.push(String(e.message))); \
         window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));",
        vec![],
    )
    .await
    .expect("install the error watcher");
}

pub async fn no_script_errors(c: &Client) {
    let errors = c.execute("return window.__errors;", vec![]).await.unwrap();
    assert_eq!(errors, json!([]), "uncaught errors in the page");
}

/// Polls `f` until it gives `Some`, for at most 15 s. On timeout the panic
/// message says what the page shows (its error line, status, answer, both
/// text boxes and the board), so a failure names its cause.
pub async fn until<T, F, Fut>(c: &Client, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let t = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        if t.elapsed() >= Duration::from_secs(15) {
            panic!(
                "timed out waiting for {what}; the page shows: {}",
                page_state(c).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the page shows, in one line, for failure messages.
pub async fn page_state(c: &Client) -> String {
    let v = c
        .execute(
            r#"
            const q = (s) => document.querySelector(s);
            const t = (s) => (q(s) ? q(s).textContent.trim() : null);
            const v = (s) => (q(s) ? q(s).value : null);
            return {
              error: t('#error'),
              status: t('#status-text'),
              moves: t('#moves'),
              start_text: v('#start-text'),
              goal_text: v('#goal-text'),
              goal_kind: v('#goal-kind'),
              board: q('#board') ? q('#board').dataset.tiles : null,
              goal_board: q('#goal-board') ? q('#goal-board').dataset.tiles : null,
              errors: window.__errors || [],
            };
            "#,
            vec![],
        )
        .await;
    match v {
        Ok(v) => v.to_string(),
        Err(e) => format!("(could not read the page: {e})"),
    }
}

pub async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

pub async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Replaces a text box's contents with `value` in one step and fires the
/// `input` event the page listens to.
///
/// Clearing and then typing key by key is not atomic: an answer to an
/// earlier request can rewrite the box in between (the page refills the
/// goal box from the parsed start), and the typed text is then appended to
/// the refilled one. Setting the value from a script cannot interleave.
pub async fn type_into(c: &Client, css: &str, value: &str) {
    let got = c
        .execute(
            "const e = document.querySelector(arguments[0]); \
             e.focus(); \
             e.value = arguments[1]; \
             e.dispatchEvent(new Event('input', { bubbles: true })); \
             return e.value;",
            vec![json!(css), json!(value)],
        )
        .await
        .unwrap_or_else(|e| panic!("set {css}: {e}"));
    assert_eq!(got, json!(value), "{css} holds what was set");
}

/// Scrolls to the top of the page and waits until it is there: a smooth
/// scroll the page started (the comparison scrolls into view) would
/// otherwise carry on and cut the top off a screenshot.
pub async fn scroll_to_top(c: &Client) {
    let t = Instant::now();
    loop {
        let y = c
            .execute(
                "window.scrollTo({ top: 0, left: 0, behavior: 'instant' }); \
                 return new Promise((done) => \
                   requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY))));",
                vec![],
            )
            .await
            .expect("scroll");
        if y.as_f64() == Some(0.0) {
            tokio::time::sleep(Duration::from_millis(150)).await;
            let again = c.execute("return window.scrollY;", vec![]).await.unwrap();
            if again.as_f64() == Some(0.0) {
                return;
            }
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the page did not stay at the top (scrollY {y})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The tiles of the main board as the page *shows* them: every tile's
/// on-screen position, read back in reading order (after the slide ends).
pub async fn shown_board(c: &Client) -> Vec<u8> {
    tokio::time::sleep(Duration::from_millis(450)).await;
    let v = c
        .execute(
            r#"
            const board = document.getElementById('board');
            const box = board.getBoundingClientRect();
            const rows = Number(getComputedStyle(board).getPropertyValue('--rows'));
            const cols = Number(getComputedStyle(board).getPropertyValue('--cols'));
            const cw = board.clientWidth / cols, ch = board.clientHeight / rows;
            const cells = new Array(rows * cols).fill(0);
            for (const t of board.querySelectorAll('.tile')) {
              const r = t.getBoundingClientRect();
              const col = Math.round((r.left - box.left - board.clientLeft) / cw);
              const row = Math.round((r.top - box.top - board.clientTop) / ch);
              cells[row * cols + col] = Number(t.dataset.tile);
            }
            return cells;
            "#,
            vec![],
        )
        .await
        .expect("read the board");
    serde_json::from_value(v).expect("tiles")
}

pub fn screenshot_dir() -> PathBuf {
    match std::env::var_os("NPUZZLE_SCREENSHOTS") {
        Some(d) => Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(d),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e"),
    }
}
