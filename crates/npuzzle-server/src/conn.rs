//! Connections: accepting at most a bounded number at once, timing out
//! clients that send or read too slowly, and shutting down with a deadline.
//!
//! `axum::serve` has no header timeout, connection cap or shutdown
//! deadline, so connections are served here with hyper's HTTP/1 connection
//! builder, whose header read timeout closes a half-sent request head (and
//! an idle kept-alive connection).
//! Bodies are timed by the extractor that reads them; responses by
//! [`StallGuard`].

use super::Limiter;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Sleep;

/// Descriptors kept free for everything but client connections (the
/// listener, the runtime, cache files, a few spares), and at least this
/// share of the limit.
const FD_MARGIN: u64 = 64;
const FD_MARGIN_SHARE: u64 = 10;

/// The soft limit on open files (`ulimit -n`) from `/proc/self/limits`.
fn open_files_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    // "Max open files   <soft>   <hard>   files"
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Connections allowed at once: `wanted`, but below the descriptor limit
/// with a margin, and at least one.
pub(crate) fn connection_cap(wanted: usize) -> usize {
    let below_fd_limit = open_files_limit().map_or(usize::MAX, |soft| {
        let margin = FD_MARGIN.max(soft / FD_MARGIN_SHARE);
        usize::try_from(soft.saturating_sub(margin)).unwrap_or(usize::MAX)
    });
    wanted.min(below_fd_limit).max(1)
}

/// Open connections, against their cap (shared with `/api/health`).
#[derive(Clone, Debug)]
pub(crate) struct Connections {
    permits: Arc<Semaphore>,
    cap: usize,
    open: Arc<AtomicUsize>,
}

impl Connections {
    pub(crate) fn new(cap: usize) -> Connections {
        Connections {
            permits: Arc::new(Semaphore::new(cap)),
            cap,
            open: Arc::default(),
        }
    }

    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    pub(crate) fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }
}

/// Counts one open connection while it lives.
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Open {
        count.fetch_add(1, Ordering::Relaxed);
        Open(count.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How connections are served.
pub(crate) struct Timeouts {
    pub(crate) header: Duration,
    pub(crate) write: Duration,
    pub(crate) shutdown_grace: Duration,
}

/// Accepts connections on `listener` (at most the cap at once; further
/// clients wait in the kernel's listen queue) until `shutdown` completes.
/// Then it stops accepting, cancels every running search, lets open
/// requests finish for at most the shutdown grace, and closes whatever is
/// still open.
pub(crate) async fn serve<F>(
    listener: TcpListener,
    router: Router,
    conns: Connections,
    limiter: Limiter,
    timeouts: Timeouts,
    shutdown: F,
) -> io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(timeouts.header);
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            biased;
            () = &mut shutdown => break,
            // Reap finished connections as they end.
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            a = accept(&listener, &conns.permits) => a,
        };
        let (stream, permit) = match accepted {
            Ok(a) => a,
            // The client gave up before we took it: nothing to do.
            Err(e) if is_connection_error(&e) => continue,
            // Out of descriptors or buffers (other processes count too):
            // wait for some to come back rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Answers are small; send each at once.
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(StallGuard::new(stream, timeouts.write));
        let service = TowerToHyperService::new(router.clone());
        let conn = http.serve_connection(io, service);
        let mut stopping = stopping.clone();
        let open = Open::new(&conns.open);
        tasks.spawn(async move {
            let _slot = (permit, open);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stopping.wait_for(|s| *s) => {}
            }
            // Finish the request in progress, then close.
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(listener);
    limiter.close();
    let _ = stop.send(true);
    let drained = tokio::time::timeout(timeouts.shutdown_grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        // Slow clients: close their connections.
        tasks.shutdown().await;
    }
    Ok(())
}

/// The next connection, once a slot is free.
async fn accept(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
) -> io::Result<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    let permit = permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| io::Error::other("the connection slots were closed"))?;
    let (stream, _) = listener.accept().await?;
    Ok((stream, permit))
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A stream whose writes fail once they have made no progress for a time
/// limit: a client that stops reading its answer cannot hold its
/// connection (and a slot) forever. Reads are not timed here (the header
/// read timeout and the body extractor time them).
pub(crate) struct StallGuard<S> {
    inner: S,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> StallGuard<S> {
    pub(crate) fn new(inner: S, limit: Duration) -> StallGuard<S> {
        StallGuard {
            inner,
            limit,
            stalled: None,
        }
    }

    /// Passes on a finished write; times an unfinished one.
    fn timed<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if r.is_ready() {
            self.stalled = None;
            return r;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if timer.as_mut().poll(cx).is_ready() {
            self.stalled = None;
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of its answer within the write timeout",
            )));
        }
        Poll::Pending
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for StallGuard<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for StallGuard<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write(cx, buf);
        me.timed(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write_vectored(cx, bufs);
        me.timed(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_flush(cx);
        me.timed(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_shutdown(cx);
        me.timed(cx, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn the_cap_stays_below_the_descriptor_limit() {
        assert_eq!(connection_cap(0), 1);
        assert!(connection_cap(5) <= 5);
        if let Some(soft) = open_files_limit() {
            assert!((connection_cap(usize::MAX) as u64) < soft);
        }
    }

    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_limit() {
        // A duplex pipe with a small buffer that nobody reads.
        let (a, _b) = tokio::io::duplex(64);
        let mut s = StallGuard::new(a, Duration::from_millis(100));
        let t = std::time::Instant::now();
        let e = s.write_all(&[0u8; 4096]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(t.elapsed() < Duration::from_secs(5));
    }
}
