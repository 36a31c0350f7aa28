use crate::temp::temp_name;
use crate::*;
use rustix::fs::{FileType, Mode, OFlags, RenameFlags};
use std::fs::File;
use std::io::Read;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[path = "../tests/common/test_dir.rs"]
mod test_dir;
use test_dir::{names, TestDir};

/// `remove_temp_files` empties the process-wide registry: the tests take turns.
static SERIAL: Mutex<()> = Mutex::new(());

std::thread_local! {
    /// Run between the probe of a FIFO or device and its reopen for writing: where an
    /// attacker's swap at the name would have to land.
    pub(crate) static BETWEEN_PROBE_AND_OPEN: core::cell::RefCell<Option<Box<dyn FnMut()>>> =
        const { core::cell::RefCell::new(None) };
}

fn mkfifo(p: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        p,
        FileType::Fifo,
        Mode::from_raw_mode(0o666),
        0,
    )
    .unwrap();
}

/// The attacker's end of a FIFO: open read-write and non-blocking, so writers never
/// block and what they wrote can be drained.
fn fifo_reader(p: &Path) -> File {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(OFlags::NONBLOCK.bits() as i32)
        .open(p)
        .unwrap()
}

fn drain(f: &mut File) -> Vec<u8> {
    let mut v = Vec::new();
    let mut b = [0u8; 4096];
    loop {
        match f.read(&mut b) {
            Ok(0) => return v,
            Ok(n) => v.extend_from_slice(&b[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return v,
            Err(e) => panic!("{e}"),
        }
    }
}

/// The attacker of these tests is `nobody`; only root can give files away. `root(name)`
/// gates the tests that need it: a failure under `CI=true` when not root, else a skip
/// listed after libtest's summary (see the module).
#[path = "../tests/common/root_only.rs"]
mod root_only;
use root_only::{root, NOBODY};

fn give(p: &Path, uid: u32) {
    std::os::unix::fs::lchown(p, Some(uid), Some(uid)).unwrap();
}

/// A shared directory like /tmp (1777).
fn sticky(d: &Path) -> PathBuf {
    let s = d.join("sticky");
    std::fs::create_dir(&s).unwrap();
    std::fs::set_permissions(&s, std::fs::Permissions::from_mode(0o1777)).unwrap();
    s
}

fn errno(e: &io::Error) -> Option<i32> {
    path_error(e).and_then(|p| p.raw_os_error())
}

#[test]
fn nothing_appears_before_commit_and_mode_is_0600() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("commit");
    let dst = d.join("out");
    let mut o = Output::create(&dst, Overwrite::Never).unwrap();
    o.file().write_all(b"secret").unwrap();
    assert!(!dst.exists());
    o.commit().unwrap();
    assert_eq!(std::fs::read(&dst).unwrap(), b"secret");
    let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(names(&d), ["out"]);
}

#[test]
fn drop_without_commit_leaves_nothing() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("drop");
    let dst = d.join("out");
    let mut o = Output::create(&dst, Overwrite::Never).unwrap();
    o.file().write_all(b"partial").unwrap();
    drop(o);
    assert!(names(&d).is_empty());
}

#[test]
fn never_refuses_existing_and_late_arrivals() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("noclobber");
    let dst = d.join("out");
    std::fs::write(&dst, b"keep").unwrap();
    assert_eq!(
        Output::create(&dst, Overwrite::Never).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
    std::fs::remove_file(&dst).unwrap();
    let mut o = Output::create(&dst, Overwrite::Never).unwrap();
    o.file().write_all(b"new").unwrap();
    std::fs::write(&dst, b"appeared meanwhile").unwrap();
    assert_eq!(o.commit().unwrap_err().kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(&dst).unwrap(), b"appeared meanwhile");
    assert_eq!(names(&d), ["out"], "temporary file removed");
}

#[test]
fn replace_replaces_atomically_keeping_mode() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("replace");
    let dst = d.join("out");
    std::fs::write(&dst, b"old").unwrap();
    std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut o = Output::create(&dst, Overwrite::Replace).unwrap();
    o.file().write_all(b"new").unwrap();
    assert_eq!(std::fs::read(&dst).unwrap(), b"old");
    o.commit().unwrap();
    assert_eq!(std::fs::read(&dst).unwrap(), b"new");
    let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o644, "the replaced file's mode is kept");
    // A private output (a key file) is 0600 whatever it replaces.
    let mut o = Output::create_private(&dst, Overwrite::Replace).unwrap();
    o.file().write_all(b"key").unwrap();
    o.commit().unwrap();
    let mode = std::fs::metadata(&dst).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o600);
    assert_eq!(names(&d), ["out"]);
}

/// Issue #27 finding 8: root replacing another user's file keeps its owner and mode
/// (it became root:root 0600).
#[test]
fn replace_keeps_the_owner_where_the_caller_may() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !root("gcmkit-fs tests::replace_keeps_the_owner_where_the_caller_may") {
        return;
    }
    let d = TestDir::new("owner");
    let dst = d.join("theirs");
    std::fs::write(&dst, b"old").unwrap();
    std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o640)).unwrap();
    give(&dst, NOBODY);
    let mut o = Output::create(&dst, Overwrite::Replace).unwrap();
    o.file().write_all(b"new").unwrap();
    o.commit().unwrap();
    let m = std::fs::metadata(&dst).unwrap();
    use std::os::unix::fs::MetadataExt;
    assert_eq!(
        (m.uid(), m.gid(), m.mode() & 0o7777),
        (NOBODY, NOBODY, 0o640)
    );
    assert_eq!(std::fs::read(&dst).unwrap(), b"new");
    assert_eq!(names(&d), ["theirs"]);
}

#[test]
fn temp_names_are_random_and_never_follow_links() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("names");
    let dst = d.join("out");
    let a = d.join(temp_name(dst.file_name().unwrap()).unwrap());
    let b = d.join(temp_name(dst.file_name().unwrap()).unwrap());
    assert_ne!(a, b);
    // Creation is exclusive: a symlink planted at the chosen name is not followed.
    let victim = d.join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    std::os::unix::fs::symlink(&victim, &a).unwrap();
    let e = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&a)
        .unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
}

#[test]
fn long_names_fit() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("long");
    let dst = d.join("x".repeat(250));
    let mut o = Output::create(&dst, Overwrite::Never).unwrap();
    o.file().write_all(b"ok").unwrap();
    o.commit().unwrap();
    assert_eq!(std::fs::read(&dst).unwrap(), b"ok");
}

/// A FIFO's open blocks until its other end opens. A signal that interrupts it (here
/// SIGUSR1, its handler installed without `SA_RESTART`, sent until the open gives up)
/// reaches the caller's `on_interrupt`, whose error ends the open: both for a source
/// and for a FIFO output. With `std`'s open the retry is silent and the open waits on.
#[test]
fn a_signal_during_a_fifo_open_reaches_the_caller() {
    extern "C" fn nothing(_: libc::c_int) {}
    // SAFETY: a handler that does nothing is async-signal-safe; sa_flags without
    // SA_RESTART makes the blocked open return EINTR.
    unsafe {
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = nothing as extern "C" fn(libc::c_int) as usize;
        assert_eq!(
            libc::sigaction(libc::SIGUSR1, &sa, core::ptr::null_mut()),
            0
        );
    }
    let d = TestDir::new("fifo-signal");
    let fifo = d.join("pipe");
    mkfifo(&fifo);
    for output in [false, true] {
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = calls.clone();
        // SAFETY: pthread_self has no preconditions.
        let me = unsafe { libc::pthread_self() } as usize;
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = done.clone();
        let kicker = std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(20));
                // SAFETY: `me` is the test thread, alive until `done` is set.
                unsafe { libc::pthread_kill(me as libc::pthread_t, libc::SIGUSR1) };
            }
        });
        let mut hook = || {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Err(io::Error::other("stopped by the caller"))
        };
        let e = if output {
            Output::create_interruptible(&fifo, Overwrite::Never, &mut hook).map(|_| ())
        } else {
            open_source(&fifo, &mut hook).map(|_| ())
        };
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        kicker.join().unwrap();
        let e = e.unwrap_err();
        assert_eq!(e.to_string(), "stopped by the caller", "output: {output}");
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}

#[test]
fn fifo_and_devices_are_written_not_replaced() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("fifo");
    let fifo = d.join("pipe");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut s = Vec::new();
            File::open(&fifo).unwrap().read_to_end(&mut s).unwrap();
            s
        })
    };
    let mut o = Output::create(&fifo, Overwrite::Never).unwrap();
    assert!(o.is_direct());
    o.file().write_all(b"through the pipe").unwrap();
    o.commit().unwrap();
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    let mut null = Output::create(Path::new("/dev/null"), Overwrite::Replace).unwrap();
    assert!(null.is_direct());
    null.file().write_all(b"x").unwrap();
    null.commit().unwrap();
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn symlinks_to_files_only_with_replace() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("symlink");
    let target = d.join("target");
    std::fs::write(&target, b"old").unwrap();
    let link = d.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_eq!(
        Output::create(&link, Overwrite::Never).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
    let mut o = Output::create(&link, Overwrite::Replace).unwrap();
    o.file().write_all(b"new").unwrap();
    o.commit().unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"new");
}

#[test]
fn directories_are_refused() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("isdir");
    assert!(Output::create(&d, Overwrite::Replace).is_err());
    assert!(Output::create(Path::new("."), Overwrite::Replace).is_err());
}

#[test]
fn registry_cleanup_removes_pending() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("registry");
    let mut o = Output::create(&d.join("out"), Overwrite::Never).unwrap();
    o.file().write_all(b"x").unwrap();
    assert_eq!(names(&d).len(), 1);
    assert!(remove_temp_files() >= 1);
    assert!(names(&d).is_empty());
    drop(o);
}

/// Issue #27 findings 3 and 4: in a sticky world-writable directory another user's
/// symlink is not followed (even with Replace), another user's FIFO gets nothing, and
/// another user's file is not replaced; the caller's own FIFO there is written.
#[test]
fn shared_directories_refuse_other_users_links_fifos_and_files() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !root("gcmkit-fs tests::shared_directories_refuse_other_users_links_fifos_and_files") {
        return;
    }
    let d = TestDir::new("shared");
    let s = sticky(&d);
    let victim = d.join("victim2");
    std::fs::write(&victim, b"root's file").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = s.join("report.txt");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    give(&link, NOBODY);
    for how in [Overwrite::Never, Overwrite::Replace] {
        let e = Output::create(&link, how).unwrap_err();
        assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"root's file");
    std::fs::remove_file(&link).unwrap();

    let fifo = s.join("report.txt");
    mkfifo(&fifo);
    give(&fifo, NOBODY);
    let mut attacker = fifo_reader(&fifo);
    let e = Output::create(&fifo, Overwrite::Never).unwrap_err();
    assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
    assert!(drain(&mut attacker).is_empty());
    std::fs::remove_file(&fifo).unwrap();

    let theirs = s.join("theirs");
    std::fs::write(&theirs, b"theirs").unwrap();
    give(&theirs, NOBODY);
    let e = Output::create(&theirs, Overwrite::Replace).unwrap_err();
    assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
    assert_eq!(std::fs::read(&theirs).unwrap(), b"theirs");

    // A directory link of another user on the way is refused too (root's /etc-like
    // directory reached through nobody's link in the shared directory).
    let etc = d.join("etc");
    std::fs::create_dir(&etc).unwrap();
    std::fs::write(etc.join("passwd"), b"root's").unwrap();
    std::os::unix::fs::symlink(&etc, s.join("evil")).unwrap();
    give(&s.join("evil"), NOBODY);
    let e = Output::create(&s.join("evil/passwd"), Overwrite::Replace).unwrap_err();
    assert_eq!(errno(&e), Some(libc::EACCES), "{e}");
    assert_eq!(std::fs::read(etc.join("passwd")).unwrap(), b"root's");
    std::fs::remove_file(s.join("evil")).unwrap();
    // The caller's own directory link is followed.
    std::os::unix::fs::symlink(&etc, s.join("mylink")).unwrap();
    let mut o = Output::create(&s.join("mylink/new"), Overwrite::Never).unwrap();
    o.file().write_all(b"ok").unwrap();
    o.commit().unwrap();
    assert_eq!(std::fs::read(etc.join("new")).unwrap(), b"ok");
    std::fs::remove_file(s.join("mylink")).unwrap();

    let mine = s.join("mine");
    mkfifo(&mine);
    let mut reader = fifo_reader(&mine);
    let mut o = Output::create(&mine, Overwrite::Never).unwrap();
    assert!(o.is_direct());
    o.file().write_all(b"ok").unwrap();
    o.commit().unwrap();
    assert_eq!(drain(&mut reader), b"ok");
    let mut names = names(&s);
    names.sort();
    assert_eq!(names, ["mine", "theirs"], "no temporary file left");
}

/// Issue #27 finding 1, deterministically: a FIFO the caller may write is swapped for
/// a symlink to a victim file at the worst moment (after the probe, before the open),
/// 10,000 times. The write always reaches the FIFO that was checked, never the victim.
#[test]
fn a_fifo_swapped_for_a_symlink_after_the_probe_is_still_the_fifo_written() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("swap-hook");
    let victim = d.join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    let out = d.join("report.txt");
    mkfifo(&out);
    let mut reader = fifo_reader(&out);
    std::os::unix::fs::symlink(&victim, d.join("evil")).unwrap();
    let dirfd = std::rc::Rc::new(
        rustix::fs::openat(rustix::fs::CWD, &*d, OFlags::PATH, Mode::empty()).unwrap(),
    );
    let exchange = move || {
        rustix::fs::renameat_with(
            &*dirfd,
            "report.txt",
            &*dirfd,
            "evil",
            RenameFlags::EXCHANGE,
        )
        .unwrap()
    };
    let swaps = std::rc::Rc::new(core::cell::Cell::new(0u32));
    for _ in 0..10_000 {
        let (ex, n) = (exchange.clone(), swaps.clone());
        BETWEEN_PROBE_AND_OPEN.with(|h| {
            *h.borrow_mut() = Some(Box::new(move || {
                ex();
                n.set(n.get() + 1);
            }))
        });
        let o = Output::create(&out, Overwrite::Never);
        BETWEEN_PROBE_AND_OPEN.with(|h| *h.borrow_mut() = None);
        let mut o = o.unwrap();
        assert!(o.is_direct());
        o.file().write_all(b"plaintext").unwrap();
        o.commit().unwrap();
        assert_eq!(drain(&mut reader), b"plaintext");
        exchange();
    }
    assert_eq!(swaps.get(), 10_000, "the hook ran at every attempt");
    assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
}

/// Issue #27 finding 1 as reported: `nobody` swaps a FIFO with a symlink to root's file
/// in a sticky directory, in a loop, while root opens the name 10,000 times. Before,
/// root's file held the plaintext within about 20 attempts.
#[test]
fn the_fifo_symlink_race_is_never_won() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !root("gcmkit-fs tests::the_fifo_symlink_race_is_never_won") {
        return;
    }
    let d = TestDir::new("race");
    let s = sticky(&d);
    let victim = d.join("victim");
    std::fs::write(&victim, b"root's file").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = s.join("report.txt");
    mkfifo(&out);
    give(&out, NOBODY);
    let mut reader = fifo_reader(&out);
    let evil = s.join("evil");
    std::os::unix::fs::symlink(&victim, &evil).unwrap();
    give(&evil, NOBODY);
    let stop = Arc::new(core::sync::atomic::AtomicBool::new(false));
    let attacker = {
        let (stop, s) = (stop.clone(), s.clone());
        std::thread::spawn(move || {
            let dirfd =
                rustix::fs::openat(rustix::fs::CWD, &s, OFlags::PATH, Mode::empty()).unwrap();
            let mut swaps = 0u64;
            while !stop.load(core::sync::atomic::Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    &dirfd,
                    "report.txt",
                    &dirfd,
                    "evil",
                    RenameFlags::EXCHANGE,
                )
                .unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let mut written = 0;
    for _ in 0..10_000 {
        if let Ok(mut o) = Output::create(&out, Overwrite::Never) {
            o.file().write_all(b"plaintext").unwrap();
            o.commit().unwrap();
            written += 1;
        }
        drain(&mut reader);
    }
    stop.store(true, core::sync::atomic::Ordering::Relaxed);
    let swaps = attacker.join().unwrap();
    assert!(swaps > 100, "the attacker ran ({swaps} swaps)");
    assert_eq!(std::fs::read(&victim).unwrap(), b"root's file");
    assert_eq!(written, 0, "the attacker's FIFO and link are both refused");
}

/// The directory is opened once: renaming it away mid-run and putting another in its
/// place neither strands the temporary file nor sends the output to the newcomer.
#[test]
fn a_parent_directory_swapped_mid_run_strands_nothing() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("parent-swap");
    std::fs::create_dir(d.join("sub")).unwrap();
    let mut o = Output::create(&d.join("sub/out"), Overwrite::Never).unwrap();
    o.file().write_all(b"data").unwrap();
    std::fs::rename(d.join("sub"), d.join("moved")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    drop(o);
    assert!(names(&d.join("moved")).is_empty(), "temporary file removed");
    assert!(names(&d.join("sub")).is_empty());
    let mut o = Output::create(&d.join("moved/out"), Overwrite::Never).unwrap();
    o.file().write_all(b"data").unwrap();
    std::fs::rename(d.join("moved"), d.join("moved2")).unwrap();
    o.commit().unwrap();
    assert_eq!(names(&d.join("moved2")), ["out"]);
}

#[test]
fn errors_name_the_path_escaped_with_errno() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = TestDir::new("errors");
    let e = Output::create(&d.join("nodir/x\x1b[31m"), Overwrite::Never).unwrap_err();
    let p = path_error(&e).unwrap();
    assert_eq!(p.raw_os_error(), Some(libc::ENOENT));
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    assert!(p.path().ends_with("nodir/x\x1b[31m"));
    let msg = std::format!("{e}");
    assert!(
        !msg.contains('\x1b') && msg.contains("x\\u{1b}[31m"),
        "{msg}"
    );
}
