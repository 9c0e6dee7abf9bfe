//! Ctrl-C: the first press asks the running work to stop and say how far
//! it got (exit 3), a second one ends the process at once (exit 130).
//!
//! The handler is installed with `sigaction` directly rather than through
//! signal-hook: signal-hook's registry installs the OS handler before it
//! publishes its table of actions, so a Ctrl-C in between is dropped
//! silently, and a process that already shows SIGINT as caught may still
//! ignore it. Here the handler touches only statics that exist before it
//! is installed, so from the moment SIGINT is caught it is acted on.

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, OnceLock};

/// Exit status of a second Ctrl-C (128 + SIGINT, as a shell reports a
/// process that SIGINT killed).
#[cfg(unix)]
const EXIT_SECOND_CTRL_C: i32 = 130;

/// Whether Ctrl-C has been pressed (only ever raised by the handler).
static PRESSED: AtomicBool = AtomicBool::new(false);

/// The cancel flag handed out; kept here for the life of the process, so
/// that [`CANCEL_FLAG`] never dangles.
static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag the handler raises: null until [`ctrl_c`] has set it to the
/// inside of [`CANCEL`]'s `Arc`, which is never dropped.
static CANCEL_FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

/// The flag Ctrl-C raises, shared by every command that searches or
/// builds (a budget's cancel flag, or polled); a command may raise it for
/// reasons of its own (a timeout), which [`interrupted`] tells apart. The
/// first call installs the handler: from then on the first Ctrl-C raises
/// the flag, so that the work stops where it polls it and the command says
/// how far it got, and a second Ctrl-C ends the process at once, for work
/// that does not stop soon enough. Until the first call Ctrl-C kills as
/// usual (a command waiting for its input has nothing to report).
pub fn ctrl_c() -> Arc<AtomicBool> {
    let cancel = CANCEL.get_or_init(|| {
        let cancel = Arc::new(AtomicBool::new(false));
        CANCEL_FLAG.store(Arc::as_ptr(&cancel).cast_mut(), Ordering::SeqCst);
        if let Err(e) = install() {
            // Ctrl-C then kills as it always did: worth a word, not a stop.
            eprintln!("npuzzle: cannot catch Ctrl-C ({e}); it will end the program at once");
        }
        cancel
    });
    Arc::clone(cancel)
}

/// Whether Ctrl-C has been pressed since [`ctrl_c`] was first called.
pub fn interrupted() -> bool {
    PRESSED.load(Ordering::SeqCst)
}

#[cfg(unix)]
extern "C" fn on_sigint(_signal: libc::c_int) {
    if PRESSED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe; nothing is flushed, as a
        // process killed by the signal would not flush either.
        #[allow(unsafe_code)]
        unsafe {
            libc::_exit(EXIT_SECOND_CTRL_C)
        };
    }
    let flag = CANCEL_FLAG.load(Ordering::SeqCst);
    if !flag.is_null() {
        // SAFETY: the pointer is the inside of the `Arc` that `CANCEL`
        // holds for the life of the process; an atomic store is
        // async-signal-safe.
        #[allow(unsafe_code)]
        unsafe {
            (*flag).store(true, Ordering::SeqCst);
        };
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn install() -> std::io::Result<()> {
    // SAFETY: a zeroed `sigaction` is a valid empty one (no flags, empty
    // mask) on every unix libc; the handler does only what a signal handler
    // may (atomics on statics, `_exit`). SA_RESTART keeps a read of the
    // standard input going across a Ctrl-C, so that the work sees the flag
    // rather than an error.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn install() -> std::io::Result<()> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "only on unix",
    ))
}
