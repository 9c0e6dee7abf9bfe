//! Forming a cluster of processes before timely starts: the hostfile, the
//! connections, and the agreement on what was asked.
//!
//! Process `i` listens on its address and connects to every process below
//! it, as timely does, but over a protocol of its own, so that nothing
//! reaches timely before every process has agreed:
//!
//! 1. Each connection opens with a hello both ways: a magic, the sender's
//!    process number, and its [`Terms`] (the program's version and every
//!    option the processes must share). A process that sees terms unlike
//!    its own refuses the run.
//! 2. Once a process holds a connection to every peer and found no
//!    difference, it sends `Y` on each; a process that refuses sends `D`
//!    and its message, one that gave up waiting sends `T` and its message,
//!    and whoever receives either says the same and passes it on.
//! 3. A process hands its connections to timely only when every peer has
//!    said `Y`: then every process has agreed with every other, and none
//!    can be refusing.
//!
//! Waiting is bounded by the run's cancel flag (`--timeout`) and by a
//! limit of its own.

use crate::{Progress, SpaceError};
use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// At most this many processes (each one a connection and two timely
/// threads in every other process).
pub const MAX_PROCESSES: usize = 1024;

/// How long a process waits for its peers when nothing shorter is asked.
pub const DEFAULT_CONNECT_LIMIT: Duration = Duration::from_secs(600);

const MAGIC: &[u8; 8] = b"NPZCLUS1";
/// Bounds what a peer can make this process allocate.
const MAX_MESSAGE: usize = 1 << 16;
/// A hello is a few hundred bytes, sent at once after connecting: a
/// connection that does not deliver one in this time is not a peer.
const HELLO_WAIT: Duration = Duration::from_secs(10);
const CONNECT_WAIT: Duration = Duration::from_millis(500);
const RETRY: Duration = Duration::from_millis(200);
const POLL: Duration = Duration::from_millis(20);
/// How often `--report` says who is still awaited.
const REPORT_EVERY: Duration = Duration::from_secs(5);

/// The addresses of a hostfile: one `host:port` a line, in process order,
/// `processes` of them, all different. Blank lines and lines starting with
/// `#` are skipped; anything else is refused naming its line.
pub fn parse_hostfile(text: &str, processes: usize) -> Result<Vec<String>, SpaceError> {
    let mut addresses: Vec<(String, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| SpaceError::BadCluster(format!("line {n}: {why}"));
        check_address(line).map_err(|why| bad(format!("'{line}' {why}")))?;
        if let Some((_, m)) = addresses.iter().find(|(a, _)| a.eq_ignore_ascii_case(line)) {
            return Err(bad(format!("{line} is already on line {m}")));
        }
        if addresses.len() == processes {
            return Err(bad(format!(
                "one address more than the {processes} processes"
            )));
        }
        addresses.push((line.to_string(), n));
    }
    if addresses.len() < processes {
        return Err(SpaceError::BadCluster(format!(
            "{} address{} for {processes} processes",
            addresses.len(),
            if addresses.len() == 1 { "" } else { "es" }
        )));
    }
    Ok(addresses.into_iter().map(|(a, _)| a).collect())
}

/// Whether `line` reads as `host:port`.
fn check_address(line: &str) -> Result<(), &'static str> {
    if line.chars().any(char::is_whitespace) {
        return Err("is not one host:port (it has spaces)");
    }
    let Some((host, port)) = line.rsplit_once(':') else {
        return Err("is not host:port");
    };
    if host.is_empty() || host == "[]" {
        return Err("has no host");
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 => Ok(()),
        _ => Err("has no port from 1 to 65535"),
    }
}

/// What a process was asked, as `(what, value)` pairs in a fixed order:
/// every process of a run must hold the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Terms(pub Vec<(String, String)>);

impl Terms {
    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(&self.0).unwrap_or_default()
    }

    /// Terms from a peer; what cannot be read stands as a version this
    /// program does not know (the first term compared).
    fn decode(bytes: &[u8]) -> Terms {
        serde_json::from_slice(bytes).map_or_else(
            |_| {
                Terms(vec![(
                    "npuzzle version".into(),
                    "one that this npuzzle cannot read".into(),
                )])
            },
            Terms,
        )
    }

    /// The first difference between process `a`'s terms and process
    /// `b`'s, said the same way on both.
    fn difference(a: (usize, &Terms), b: (usize, &Terms)) -> Option<String> {
        let ((lo, tlo), (hi, thi)) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        let value = |t: &Terms, k: &str| {
            t.0.iter()
                .find(|(key, _)| key == k)
                .map_or_else(|| "nothing".to_string(), |(_, v)| v.clone())
        };
        let keys = tlo.0.iter().chain(thi.0.iter()).map(|(k, _)| k.as_str());
        for k in keys {
            let (v, w) = (value(tlo, k), value(thi, k));
            if v != w {
                return Some(format!(
                    "processes {lo} and {hi} disagree on {k}: {v} and {w} (every process needs \
                     the same arguments but --process)"
                ));
            }
        }
        None
    }
}

/// A connection as it was made: the peer's number and terms.
struct Joined {
    process: usize,
    /// The process the connector meant to reach (`None`: accepted).
    meant: Option<usize>,
    stream: TcpStream,
    terms: Terms,
}

enum Event {
    Joined(Joined),
    Fatal(SpaceError),
}

/// What waiting for the peers needs.
pub(super) struct Meeting<'a> {
    pub me: usize,
    pub addresses: &'a [String],
    pub terms: &'a Terms,
    pub limit: Option<Duration>,
    pub cancel: &'a AtomicBool,
    pub progress: &'a dyn Progress,
}

/// Connects to every peer and agrees with all of them; returns the
/// connections in process order (`None` for this process), ready for
/// timely.
pub(super) fn meet(m: &Meeting<'_>) -> Result<Vec<Option<TcpStream>>, SpaceError> {
    let me = m.me;
    let listener = TcpListener::bind(m.addresses[me].as_str())
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|source| SpaceError::Listen {
            process: me,
            address: m.addresses[me].clone(),
            source,
        })?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let hello = Hello {
        process: me,
        terms: m.terms.encode(),
    };
    spawn_acceptor(listener, hello.clone(), Arc::clone(&stop), tx.clone());
    spawn_connector(m.addresses, hello, Arc::clone(&stop), tx);
    let result = gather(m, &rx);
    stop.store(true, Ordering::Relaxed);
    result
}

/// One peer's connection while the processes agree.
struct Peer {
    stream: TcpStream,
    /// The peer said `Y`.
    ready: bool,
}

impl Meeting<'_> {
    fn name(&self, p: usize) -> String {
        format!("process {p} ({})", self.addresses[p])
    }

    fn lost(&self, p: usize, cause: String) -> SpaceError {
        SpaceError::LostPeer {
            process: p,
            address: self.addresses[p].clone(),
            cause,
            saved: None,
        }
    }
}

fn gather(m: &Meeting<'_>, rx: &Receiver<Event>) -> Result<Vec<Option<TcpStream>>, SpaceError> {
    let (me, n) = (m.me, m.addresses.len());
    let mut peers: Vec<Option<Peer>> = (0..n).map(|_| None).collect();
    let t0 = Instant::now();
    let mut reported: Option<Instant> = None;
    let mut said_yes = false;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(Event::Joined(j)) => take(m, &mut peers, j)?,
            Ok(Event::Fatal(e)) => {
                let _ = refuse(&mut peers, b'D', format!("process {me}: {e}"));
                return Err(e);
            }
            Err(_) => {}
        }
        listen(m, &mut peers)?;
        let absent: Vec<usize> = (0..n).filter(|&p| p != me && peers[p].is_none()).collect();
        if !said_yes && absent.is_empty() {
            for (p, peer) in peers.iter_mut().enumerate() {
                if let Some(peer) = peer {
                    verdict(&mut peer.stream, b'Y', "").map_err(|e| m.lost(p, e.to_string()))?;
                }
            }
            said_yes = true;
        }
        let waiting: Vec<String> = (0..n)
            .filter(|&p| p != me && !peers[p].as_ref().is_some_and(|peer| peer.ready))
            .map(|p| m.name(p))
            .collect();
        if said_yes && waiting.is_empty() {
            break;
        }
        let out_of_time = m.limit.is_some_and(|l| t0.elapsed() >= l);
        if m.cancel.load(Ordering::Relaxed) || out_of_time {
            let secs = t0.elapsed().as_secs_f64();
            let msg = if absent.is_empty() {
                format!(
                    "process {me} stopped after waiting {secs:.1} s for its peers to agree; not \
                     ready: {}",
                    waiting.join(", ")
                )
            } else {
                let absent: Vec<String> = absent.into_iter().map(|p| m.name(p)).collect();
                format!(
                    "process {me} stopped after waiting {secs:.1} s for its peers; never came: {}",
                    absent.join(", ")
                )
            };
            return Err(refuse(&mut peers, b'T', msg));
        }
        if reported.is_none_or(|r| r.elapsed() >= REPORT_EVERY) {
            reported = Some(Instant::now());
            m.progress
                .connecting(&format!("waiting for {}", waiting.join(", ")));
        }
    }
    Ok(peers
        .into_iter()
        .map(|p| {
            p.map(|peer| {
                let s = peer.stream;
                // timely reads and writes blocking, without time limits.
                let _ = s.set_nonblocking(false);
                let _ = s.set_read_timeout(None);
                let _ = s.set_write_timeout(None);
                s
            })
        })
        .collect())
}

/// A new connection joins the run, or the run is refused.
fn take(m: &Meeting<'_>, peers: &mut [Option<Peer>], j: Joined) -> Result<(), SpaceError> {
    let mut stream = j.stream;
    if let Err(why) = admit(m, peers, j.process, j.meant, &j.terms) {
        let _ = verdict(&mut stream, b'D', &why);
        return Err(refuse(peers, b'D', why));
    }
    let _ = stream.set_nonblocking(true);
    m.progress
        .connecting(&format!("{} connected", m.name(j.process)));
    peers[j.process] = Some(Peer {
        stream,
        ready: false,
    });
    Ok(())
}

/// Reads what the peers not yet ready have said: `Y` (ready), or a
/// refusal to pass on.
fn listen(m: &Meeting<'_>, peers: &mut [Option<Peer>]) -> Result<(), SpaceError> {
    for p in 0..peers.len() {
        let Some(peer) = peers[p].as_mut().filter(|peer| !peer.ready) else {
            continue;
        };
        let mut byte = [0u8];
        match peer.stream.read(&mut byte) {
            Ok(1) if byte[0] == b'Y' => peer.ready = true,
            Ok(1) if byte[0] == b'D' || byte[0] == b'T' => {
                let msg = read_message(&mut peer.stream).unwrap_or_else(|_| {
                    format!("{} refused the run (its message was lost)", m.name(p))
                });
                return Err(refuse(peers, byte[0], msg));
            }
            Ok(1) => {
                let msg = format!("{} sent what this npuzzle does not understand", m.name(p));
                return Err(refuse(peers, b'D', msg));
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(m.lost(p, e.to_string())),
            Ok(_) => {
                return Err(m.lost(p, "its connection closed before the search began".into()));
            }
        }
    }
    Ok(())
}

/// Why a new connection cannot join the run, if it cannot.
fn admit(
    m: &Meeting<'_>,
    peers: &[Option<Peer>],
    process: usize,
    meant: Option<usize>,
    terms: &Terms,
) -> Result<(), String> {
    let (me, n) = (m.me, m.addresses.len());
    if let Some(why) = Terms::difference((me, m.terms), (process, terms)) {
        return Err(why);
    }
    // Same terms, so the same process count and addresses.
    match meant {
        Some(j) if j != process => Err(format!(
            "the address {} of process {j} is answered by process {process}",
            m.addresses[j]
        )),
        _ if process == me => Err(format!(
            "two processes were given --process {me} (one at {})",
            m.addresses[me]
        )),
        None if process < me || process >= n => Err(format!(
            "process {process} connected to the address of process {me}, {}, which it should not \
             (two hostfile lines lead to one listener?)",
            m.addresses[me]
        )),
        _ if peers[process].is_some() => {
            Err(format!("two processes were given --process {process}"))
        }
        _ => Ok(()),
    }
}

/// Tells every connected peer that this process stops (`D`: refused, `T`:
/// gave up waiting) and why; returns the error to report here.
fn refuse(peers: &mut [Option<Peer>], kind: u8, msg: String) -> SpaceError {
    for peer in peers.iter_mut().flatten() {
        let _ = verdict(&mut peer.stream, kind, &msg);
    }
    if kind == b'T' {
        SpaceError::NotConnected(msg)
    } else {
        SpaceError::Disagree(msg)
    }
}

/// Sends `kind` (and, but for `Y`, `msg`) on a connection.
fn verdict(stream: &mut TcpStream, kind: u8, msg: &str) -> io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_write_timeout(Some(HELLO_WAIT))?;
    let mut bytes = vec![kind];
    if kind != b'Y' {
        let msg = &msg.as_bytes()[..msg.len().min(MAX_MESSAGE)];
        bytes.extend_from_slice(&(msg.len() as u32).to_le_bytes());
        bytes.extend_from_slice(msg);
    }
    stream.write_all(&bytes)?;
    stream.set_nonblocking(true)
}

/// Reads the length and text of a `D` or `T` message.
fn read_message(stream: &mut TcpStream) -> io::Result<String> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(HELLO_WAIT))?;
    let mut len = [0u8; 4];
    stream.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_MESSAGE {
        return Err(io::Error::new(ErrorKind::InvalidData, "message too long"));
    }
    let mut text = vec![0u8; len];
    stream.read_exact(&mut text)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// The opening of a connection, both ways.
#[derive(Clone)]
struct Hello {
    process: usize,
    terms: Vec<u8>,
}

impl Hello {
    fn send(&self, stream: &mut TcpStream) -> io::Result<()> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(self.process as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.terms.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.terms);
        stream.write_all(&bytes)
    }

    fn receive(stream: &mut TcpStream) -> io::Result<(usize, Terms)> {
        let mut head = [0u8; 16];
        stream.read_exact(&mut head)?;
        if &head[..8] != MAGIC {
            return Err(io::Error::new(ErrorKind::InvalidData, "not an npuzzle"));
        }
        let word = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let (process, len) = (word(8) as usize, word(12) as usize);
        if len > MAX_MESSAGE {
            return Err(io::Error::new(ErrorKind::InvalidData, "hello too long"));
        }
        let mut terms = vec![0u8; len];
        stream.read_exact(&mut terms)?;
        Ok((process, Terms::decode(&terms)))
    }
}

fn prepare(stream: &TcpStream) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(HELLO_WAIT))?;
    stream.set_write_timeout(Some(HELLO_WAIT))
}

/// Accepts the processes above this one; each says who it is first.
fn spawn_acceptor(listener: TcpListener, hello: Hello, stop: Arc<AtomicBool>, tx: Sender<Event>) {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            let mut stream = match listener.accept() {
                Ok((s, _)) => s,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    std::thread::sleep(POLL);
                    continue;
                }
                Err(_) => continue,
            };
            // Whatever does not open with a hello is not a peer: dropped.
            let joined = stream
                .set_nonblocking(false)
                .and_then(|()| prepare(&stream))
                .and_then(|()| Hello::receive(&mut stream))
                .and_then(|(process, terms)| {
                    hello.send(&mut stream)?;
                    Ok((process, terms))
                });
            if let Ok((process, terms)) = joined {
                let event = Event::Joined(Joined {
                    process,
                    meant: None,
                    stream,
                    terms,
                });
                if tx.send(event).is_err() {
                    return;
                }
            }
        }
    });
}

/// Connects to every process below this one, again and again until each
/// answers.
fn spawn_connector(addresses: &[String], hello: Hello, stop: Arc<AtomicBool>, tx: Sender<Event>) {
    let mut resolved: Vec<(usize, String, Vec<SocketAddr>)> = Vec::new();
    for (j, a) in addresses.iter().enumerate().take(hello.process) {
        match a.to_socket_addrs() {
            Ok(addrs) => resolved.push((j, a.clone(), addrs.collect())),
            Err(e) => {
                let _ = tx.send(Event::Fatal(SpaceError::BadCluster(format!(
                    "cannot resolve {a}, the address of process {j}: {e}"
                ))));
                return;
            }
        }
    }
    std::thread::spawn(move || {
        while !resolved.is_empty() && !stop.load(Ordering::Relaxed) {
            let mut left = Vec::new();
            for (j, a, addrs) in resolved {
                match reach(&addrs, &hello) {
                    Some((stream, process, terms)) => {
                        let event = Event::Joined(Joined {
                            process,
                            meant: Some(j),
                            stream,
                            terms,
                        });
                        if tx.send(event).is_err() {
                            return;
                        }
                    }
                    None => left.push((j, a, addrs)),
                }
            }
            resolved = left;
            std::thread::sleep(RETRY);
        }
    });
}

/// One attempt at a peer: its connection, number and terms.
fn reach(addrs: &[SocketAddr], hello: &Hello) -> Option<(TcpStream, usize, Terms)> {
    addrs.iter().find_map(|addr| {
        let mut stream = TcpStream::connect_timeout(addr, CONNECT_WAIT).ok()?;
        prepare(&stream).ok()?;
        hello.send(&mut stream).ok()?;
        let (process, terms) = Hello::receive(&mut stream).ok()?;
        Some((stream, process, terms))
    })
}
