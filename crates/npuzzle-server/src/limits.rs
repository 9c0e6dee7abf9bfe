//! Running searches off the async threads, a bounded number at a time, each
//! with a cancel flag raised when its request is dropped (the client went
//! away, or its request's time ran out) or the server shuts down.

use super::ApiError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Admission control and cancellation for searches. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Limiter {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    heavy: Arc<Semaphore>,
    slots: usize,
    queue_wait: Duration,
    next_id: AtomicU64,
    /// The cancel flag of every search still running.
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    /// Searches whose request was dropped before they finished.
    abandoned: AtomicU64,
    /// Heavy requests turned away with 503.
    refused: AtomicU64,
    /// Set on shutdown: nothing new starts.
    closed: AtomicBool,
}

/// Counters for `/api/health`.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct LimiterStats {
    /// Searches running now.
    pub running: usize,
    /// Heavy searches allowed at once.
    pub heavy_slots: usize,
    /// Heavy slots free now.
    pub heavy_free: usize,
    /// Searches cancelled because their client went away.
    pub abandoned: u64,
    /// Requests refused with 503 because every heavy slot stayed busy.
    pub refused: u64,
}

impl Limiter {
    /// A limiter running at most `heavy_slots` heavy searches at once (at
    /// least 1), each waiting at most `queue_wait` for a slot.
    pub fn new(heavy_slots: usize, queue_wait: Duration) -> Limiter {
        let slots = heavy_slots.max(1);
        Limiter {
            inner: Arc::new(Inner {
                heavy: Arc::new(Semaphore::new(slots)),
                slots,
                queue_wait,
                next_id: AtomicU64::new(0),
                running: Mutex::new(HashMap::new()),
                abandoned: AtomicU64::new(0),
                refused: AtomicU64::new(0),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// The counters now.
    pub fn stats(&self) -> LimiterStats {
        LimiterStats {
            running: self.running().len(),
            heavy_slots: self.inner.slots,
            heavy_free: self.inner.heavy.available_permits(),
            abandoned: self.inner.abandoned.load(Ordering::Relaxed),
            refused: self.inner.refused.load(Ordering::Relaxed),
        }
    }

    /// Raises the cancel flag of every running search.
    pub fn cancel_all(&self) {
        for flag in self.running().values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Shutdown: cancels every running search, and every later one is
    /// refused with 503.
    pub fn close(&self) {
        // Under the map's lock, so that no search registers between the
        // flag and the cancelling.
        let running = self.running();
        self.inner.closed.store(true, Ordering::Relaxed);
        for flag in running.values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<AtomicBool>>> {
        // The map stays consistent even if a holder panicked.
        self.inner
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `work` on the blocking pool with a fresh cancel flag. A heavy
    /// job first takes one of the heavy slots, waiting at most the queue
    /// wait and never past `deadline` (else [`ApiError::busy`]); the slot
    /// is held until `work` returns, even if the request is dropped before.
    ///
    /// Dropping the returned future (the client disconnected) raises the
    /// flag, so the search stops at its next check.
    pub async fn run<T, F>(
        &self,
        heavy: bool,
        deadline: Option<Instant>,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    {
        if self.inner.closed.load(Ordering::Relaxed) {
            return Err(ApiError::shutting_down());
        }
        let permit = if heavy {
            let left = deadline.map_or(Duration::MAX, |d| {
                d.saturating_duration_since(Instant::now())
            });
            let wait = self.inner.queue_wait.min(left);
            match tokio::time::timeout(wait, self.inner.heavy.clone().acquire_owned()).await {
                Ok(Ok(p)) => Some(p),
                // Closed never happens (we never close it); treat as busy.
                Ok(Err(_)) | Err(_) => {
                    self.inner.refused.fetch_add(1, Ordering::Relaxed);
                    return Err(ApiError::busy(self.inner.slots, wait));
                }
            }
        } else {
            None
        };
        let Some(guard) = CancelGuard::register(self) else {
            return Err(ApiError::shutting_down());
        };
        let flag = guard.flag.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let out = work(flag);
            drop(permit);
            out
        });
        let out = handle.await;
        guard.finish();
        out.map_err(|e| ApiError::internal(format!("the search failed: {e}")))
    }
}

/// Registered while a search runs; raises its flag when dropped before the
/// search finished.
struct CancelGuard {
    limiter: Limiter,
    id: u64,
    flag: Arc<AtomicBool>,
    finished: bool,
}

impl CancelGuard {
    /// `None` once the limiter is closed.
    fn register(limiter: &Limiter) -> Option<CancelGuard> {
        let id = limiter.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let flag = Arc::new(AtomicBool::new(false));
        let mut running = limiter.running();
        if limiter.inner.closed.load(Ordering::Relaxed) {
            return None;
        }
        running.insert(id, flag.clone());
        Some(CancelGuard {
            limiter: limiter.clone(),
            id,
            flag,
            finished: false,
        })
    }

    fn finish(mut self) {
        self.finished = true;
    }
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        if !self.finished {
            self.flag.store(true, Ordering::Relaxed);
            self.limiter.inner.abandoned.fetch_add(1, Ordering::Relaxed);
        }
        self.limiter.running().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Work that spins until its flag is raised (or 10 s pass).
    fn spin(flag: &AtomicBool) -> bool {
        let t = Instant::now();
        while !flag.load(Ordering::Relaxed) {
            if t.elapsed() > Duration::from_secs(10) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_the_request_cancels_the_search() {
        let lim = Limiter::new(1, Duration::from_millis(50));
        let (tx, rx) = std::sync::mpsc::channel();
        let fut = lim.run(true, None, move |flag| tx.send(spin(&flag)).is_ok());
        // Poll it for a while, then drop it as hyper does on disconnect.
        let r = tokio::time::timeout(Duration::from_millis(100), fut).await;
        assert!(r.is_err(), "the spinning job should still be running");
        let stopped = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(5)))
            .await
            .unwrap();
        assert_eq!(stopped, Ok(true), "the job saw its cancel flag");
        let s = lim.stats();
        assert_eq!((s.running, s.abandoned), (0, 1));
        // The slot comes back once the job has returned.
        for _ in 0..100 {
            if lim.stats().heavy_free == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(lim.stats().heavy_free, 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn busy_slots_answer_503_and_light_jobs_pass() {
        let lim = Limiter::new(1, Duration::from_millis(50));
        let l2 = lim.clone();
        let hog = tokio::spawn(async move { l2.run(true, None, |f| spin(&f)).await });
        while lim.stats().running == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let e = lim.run(true, None, |_| ()).await.unwrap_err();
        assert_eq!(e.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.message().contains("busy"), "{}", e.message());
        // A light job does not need a slot.
        assert_eq!(lim.run(false, None, |_| 7).await.unwrap(), 7);
        assert_eq!(lim.stats().refused, 1);
        lim.cancel_all();
        assert!(hog.await.unwrap().unwrap());
        assert_eq!(lim.stats().abandoned, 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_queue_wait_ends_at_the_deadline() {
        let lim = Limiter::new(1, Duration::from_secs(30));
        let l2 = lim.clone();
        let hog = tokio::spawn(async move { l2.run(true, None, |f| spin(&f)).await });
        while lim.stats().running == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let t = Instant::now();
        let deadline = Some(t + Duration::from_millis(100));
        let e = lim.run(true, deadline, |_| ()).await.unwrap_err();
        assert_eq!(e.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        lim.close();
        assert!(
            hog.await.unwrap().unwrap(),
            "closing cancels the running search"
        );
        let e = lim.run(false, None, |_| ()).await.unwrap_err();
        assert!(e.message().contains("shutting down"), "{}", e.message());
    }
}
