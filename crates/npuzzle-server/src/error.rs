//! Errors as the API answers them: a status and `{"error": "..."}` holding
//! the same one-line message the command line prints.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use npuzzle::{BoardError, InputError};
use npuzzle::{ErrorKind, SearchError};
use std::time::Duration;

/// A failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// An error answered with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: escape_controls(message.into()),
        }
    }

    /// 400: the request names a bad board, goal, size, algorithm, ….
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 503: every heavy slot stayed busy for the whole queue wait.
    pub fn busy(slots: usize, waited: Duration) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy: {slots} search{} already running, none finished within {:.1} s; try again shortly",
                if slots == 1 { " is" } else { "es are" },
                waited.as_secs_f64()
            ),
        )
    }

    /// 503: the server is shutting down.
    pub fn shutting_down() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down; try again shortly",
        )
    }

    /// 408: the client took longer than `limit` to send its body.
    pub fn body_timeout(limit: Duration) -> ApiError {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                limit.as_secs_f64()
            ),
        )
    }

    /// 503: a request still unanswered when its time budget (plus a grace
    /// for writing the answer) has run out.
    pub fn too_long(limit: Duration) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the request did not finish within {} s, its time budget",
                limit.as_secs_f64()
            ),
        )
    }

    /// 500: a bug (a search panicked).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// The HTTP status answered.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The one-line message answered as `{"error": message}`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// `message` with its control characters escaped (`\u{7f}`): a message
/// can quote what the client sent (serde names an unknown field as it was
/// written), and it must reach no log or terminal raw.
fn escape_controls(message: String) -> String {
    if !message.chars().any(char::is_control) {
        return message;
    }
    let mut out = String::with_capacity(message.len() + 8);
    for c in message.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The message with its causes, as the command line prints it (`{:#}` of
/// anyhow: `outer: cause: cause`).
/// An error and its causes as one line, a cause whose text the message
/// already holds said once (many errors quote what the system said and
/// keep it as their source too).
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(cause) = src {
        let text = cause.to_string();
        if !s.contains(&text) {
            s.push_str(": ");
            s.push_str(&text);
        }
        src = cause.source();
    }
    s
}

impl From<InputError> for ApiError {
    fn from(e: InputError) -> ApiError {
        ApiError::bad_request(chain(&e))
    }
}

impl From<BoardError> for ApiError {
    fn from(e: BoardError) -> ApiError {
        ApiError::bad_request(chain(&e))
    }
}

impl From<SearchError> for ApiError {
    fn from(e: SearchError) -> ApiError {
        let status = match e.kind() {
            ErrorKind::BadInput => StatusCode::BAD_REQUEST,
            // Well-formed, but more than this server will spend on it.
            ErrorKind::Budget => StatusCode::UNPROCESSABLE_ENTITY,
            // The client is gone, or the server is shutting down.
            ErrorKind::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
            // The machine failed us (threads, a cache): not the client's fault.
            ErrorKind::Environment => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, chain(&e))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response();
        // A client too slow to send its body has the rest of it in flight:
        // the connection cannot carry another request.
        if self.status == StatusCode::REQUEST_TIMEOUT {
            res.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::chain;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read x: {0}")]
    struct Quoting(#[source] std::io::Error);

    #[test]
    fn a_cause_the_message_quotes_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        assert_eq!(chain(&Quoting(io)), "cannot read x: no such file");
    }
}
