//! Driving Debian's chromium through chromedriver (WebDriver, fantoccini)
//! for the browser end-to-end tests.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Stops chromedriver (and so its browsers) when the test ends, however it ends.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

pub async fn start_driver() -> (Driver, String) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let url = format!("http://127.0.0.1:{port}");
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (driver, url)
}

pub async fn browser(driver_url: &str, profile: &Path, width: u32, height: u32) -> Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
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
                "--force-device-scale-factor=1",
                format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    let caps = match caps {
        Value::Object(m) => m,
        _ => unreachable!(),
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

/// Polls `f` until it gives `Some`, for at most 15 s.
pub async fn until<T, F, Fut>(what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let t = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
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

pub async fn type_into(c: &Client, css: &str, value: &str) {
    let e = c.find(Locator::Css(css)).await.expect(css);
    e.clear().await.expect("clear");
    e.send_keys(value).await.expect("type");
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
        Some(d) => Path::new(env!("CARGO_MANIFEST_DIR")).join(d),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e"),
    }
}
