//! The page: hand-written HTML, CSS and JavaScript compiled into the binary
//! (no CDN, no network, no build step).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_CSS: &str = include_str!("assets/app.css");
const APP_JS: &str = include_str!("assets/app.js");
const I18N_JS: &str = include_str!("assets/i18n.js");
const BOARDS_JS: &str = include_str!("assets/boards.js");
const COMPARE_JS: &str = include_str!("assets/compare.js");
const TRACE_VIEWS_JS: &str = include_str!("assets/trace-views.js");
const TRACE_PANE_JS: &str = include_str!("assets/trace-pane.js");
const EXPLORE_JS: &str = include_str!("assets/explore.js");
const PLAY_JS: &str = include_str!("assets/play.js");

/// Everything comes from this origin; no inline script or style.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    r
}

pub async fn index() -> Response {
    asset(INDEX_HTML, "text/html; charset=utf-8")
}

pub async fn css() -> Response {
    asset(APP_CSS, "text/css; charset=utf-8")
}

/// The page's scripts, by name (`/app.js`, `/explore.js`, …).
pub fn script(name: &str) -> Option<&'static str> {
    Some(match name {
        "app.js" => APP_JS,
        "i18n.js" => I18N_JS,
        "boards.js" => BOARDS_JS,
        "compare.js" => COMPARE_JS,
        "trace-views.js" => TRACE_VIEWS_JS,
        "trace-pane.js" => TRACE_PANE_JS,
        "explore.js" => EXPLORE_JS,
        "play.js" => PLAY_JS,
        _ => return None,
    })
}

pub async fn js(uri: axum::http::Uri) -> Response {
    match script(uri.path().trim_start_matches('/')) {
        Some(body) => asset(body, "text/javascript; charset=utf-8"),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

pub async fn favicon() -> StatusCode {
    StatusCode::NO_CONTENT
}
