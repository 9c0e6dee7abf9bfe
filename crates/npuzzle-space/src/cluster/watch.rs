//! What a run knows of its peers' health, and how a lost peer becomes one
//! error instead of a cascade of panics.
//!
//! timely's communication threads panic when a connection breaks ("timely
//! communication error: reading data: socket closed"); the panic poisons
//! the queues between them and the workers, whose next call into timely
//! panics in turn, and the guard that joins the threads panics once more.
//! Here every thread of a run (its workers, and the send and receive
//! threads through [`PeerStream`]) carries the run's [`Watch`]; a panic
//! hook records the first failure there and keeps the consequences quiet,
//! the workers stop when they see it, and the caller reports it as one
//! [`SpaceError::LostPeer`].

use crate::SpaceError;
use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::Instant;
use timely::communication::allocator::zero_copy::stream::Stream;

/// The first thing that went wrong in a run, if anything did.
#[derive(Clone, Debug)]
enum Failure {
    /// The connection to process `peer` broke.
    Lost { peer: usize, cause: String },
    /// A thread of this process panicked on its own.
    Panic(String),
}

/// One run's health, shared by its threads.
#[derive(Debug)]
pub(super) struct Watch {
    /// Every process's address, for the message.
    addresses: Vec<String>,
    failed: AtomicBool,
    first: Mutex<Option<(Failure, Instant)>>,
    /// The last level this process checkpointed (`u32::MAX`: none).
    saved: AtomicU32,
}

impl Watch {
    pub(super) fn new(addresses: Vec<String>) -> Watch {
        Watch {
            addresses,
            failed: AtomicBool::new(false),
            first: Mutex::new(None),
            saved: AtomicU32::new(u32::MAX),
        }
    }

    /// Whether the run has failed (workers stop when it has).
    pub(super) fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// How long ago the run failed, if it has.
    pub(super) fn failed_at(&self) -> Option<Instant> {
        self.lock().as_ref().map(|&(_, t)| t)
    }

    pub(super) fn saved(&self, level: u32) {
        self.saved.store(level, Ordering::Release);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(Failure, Instant)>> {
        self.first.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `failure` if it is the first.
    fn record(&self, failure: Failure) {
        let mut first = self.lock();
        if first.is_none() {
            *first = Some((failure, Instant::now()));
            self.failed.store(true, Ordering::Release);
        }
    }

    /// The run's failure as the error to report.
    pub(super) fn error(&self) -> Option<SpaceError> {
        let (failure, _) = self.lock().clone()?;
        Some(match failure {
            Failure::Lost { peer, cause } => SpaceError::LostPeer {
                process: peer,
                address: self.addresses.get(peer).cloned().unwrap_or_default(),
                cause,
                saved: Some(self.saved.load(Ordering::Acquire)).filter(|&l| l != u32::MAX),
            },
            Failure::Panic(msg) => SpaceError::Cluster(format!("a worker panicked: {msg}")),
        })
    }

    /// A thread of the run panicked with `msg`; `peer` is the process its
    /// connection leads to, for a communication thread. Returns whether
    /// the panic is accounted for (and so not to be printed).
    fn on_panic(&self, peer: Option<usize>, msg: &str) -> bool {
        match peer {
            // A communication thread panics only when its connection broke
            // (or after a failure already recorded poisoned its queues).
            Some(peer) => {
                let what = msg
                    .strip_prefix("timely communication error: ")
                    .unwrap_or(msg);
                let cause = format!("its connection broke ({what})");
                self.record(Failure::Lost { peer, cause });
                true
            }
            // A worker's panic after a failure is its consequence; before
            // one, it is a defect, printed as usual and reported.
            None if self.failed() => true,
            None => {
                self.record(Failure::Panic(msg.to_string()));
                false
            }
        }
    }
}

thread_local! {
    /// The run this thread belongs to, and the peer of a communication
    /// thread.
    static RUN: RefCell<Option<(Arc<Watch>, Option<usize>)>> = const { RefCell::new(None) };
}

/// Makes this thread part of the run watched by `watch` (a worker or a
/// helper thread: `peer` is `None`).
pub(super) fn enter(watch: &Arc<Watch>, peer: Option<usize>) {
    install_hook();
    RUN.with(|r| *r.borrow_mut() = Some((Arc::clone(watch), peer)));
}

/// Installs, once per process, a panic hook that hands the panics of a
/// run's threads to its [`Watch`] and every other panic to the hook that
/// was there before.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let claimed = RUN
                .try_with(|r| {
                    r.try_borrow()
                        .ok()
                        .and_then(|r| r.as_ref().map(|(w, peer)| w.on_panic(*peer, &msg)))
                })
                .ok()
                .flatten()
                .unwrap_or(false);
            if !claimed {
                previous(info);
            }
        }));
    });
}

/// A connection to one peer as timely's send and receive threads use it:
/// the first call on a thread makes that thread part of the run, so that
/// its panic is recognised as the loss of this peer.
pub(super) struct PeerStream {
    tcp: TcpStream,
    peer: usize,
    watch: Arc<Watch>,
    entered: bool,
}

impl PeerStream {
    pub(super) fn new(tcp: TcpStream, peer: usize, watch: &Arc<Watch>) -> PeerStream {
        PeerStream {
            tcp,
            peer,
            watch: Arc::clone(watch),
            entered: false,
        }
    }

    fn enter(&mut self) {
        if !self.entered {
            enter(&self.watch, Some(self.peer));
            self.entered = true;
        }
    }
}

impl Read for PeerStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.enter();
        self.tcp.read(buf)
    }
}

impl Write for PeerStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.enter();
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.enter();
        self.tcp.flush()
    }
}

impl Stream for PeerStream {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(PeerStream {
            tcp: self.tcp.try_clone()?,
            peer: self.peer,
            watch: Arc::clone(&self.watch),
            entered: false,
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.tcp.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.tcp.shutdown(how)
    }
}
