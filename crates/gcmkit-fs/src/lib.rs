//! gcmkit's one file-output layer, used by its CLI and its Python package, and the file
//! functions of its chunked format ([`encrypt_file`], [`decrypt_file`]). Output files hold data users cannot get back, and the directories
//! they go to may be shared with other users (`/tmp`), so one rule decides every output:
//!
//! - The destination's directory is opened once, walked one component at a time without
//!   following links (a link on the way gets the symlink rule below); every later step (the probe, the
//!   temporary file, the rename, the cleanup) works in the directory that descriptor holds,
//!   so swapping a directory on the path mid-run can neither redirect nor strand anything.
//! - The final name is opened once, without following a symlink (`O_PATH | O_NOFOLLOW`: no
//!   side effect, no blocking, not even a device's open), and what that descriptor is
//!   (`fstat`) decides. A FIFO or character device is then written through that same
//!   descriptor (reopened by `/proc/self/fd`), so the thing written is the thing checked,
//!   whatever is swapped in at that name meanwhile.
//! - A regular-file destination is written through a temporary file in that directory with
//!   a random name, created exclusively (`O_EXCL | O_NOFOLLOW`) with mode 0600, and moved
//!   into place only by [`Output::commit`]: with [`Overwrite::Never`] by a no-clobber
//!   rename (`renameat2(RENAME_NOREPLACE)`, or `link` + `unlink` where the filesystem lacks
//!   it), so a file that appeared meanwhile is never replaced; with [`Overwrite::Replace`] by
//!   an atomic rename over it.
//! - A replaced file keeps its owner, group and permission bits (set-id bits dropped):
//!   root gives the new file the old one's owner; another user may replace only their own
//!   files (the new file would otherwise change hands) and is refused otherwise.
//!   [`Output::create_private`] (key files) makes the result 0600 whatever it replaces.
//! - Shared directories (sticky, and group- or world-writable, like `/tmp`): an existing
//!   regular file, FIFO or device there that belongs to neither the caller nor the
//!   directory's owner is refused, as the kernel's `protected_regular=2` and
//!   `protected_fifos=2` intend, whether or not they are on.
//! - Symlinks, at the final name or anywhere on the path, are followed only when they
//!   belong to the caller or to root (so `/dev/stdout` and `/dev/fd/N` work), never another
//!   user's, in any directory (stricter than `protected_symlinks`). A followed link to a FIFO or device is written in place; to a
//!   regular file the same rules apply to the target in its own directory (replaced only
//!   with [`Overwrite::Replace`]; the link stays); at most [`MAX_LINKS`] links deep.
//! - Directories, sockets and block devices are refused.
//! - An `Output` dropped without `commit` removes its temporary file; every temporary file
//!   of the process is listed in a registry that [`remove_temp_files`] empties, so a
//!   signal handler (the CLI's, Python's) can clean up before the process dies.
//!
//! Errors name the path (escaped: see [`escaped`]) and keep the OS error number: each is an
//! [`std::io::Error`] wrapping a [`PathError`].
//!
//! Linux only (`O_PATH`, `renameat2`, `/proc/self/fd`): on other systems the crate is
//! empty. The cryptography is in the `gcmkit` crate, which carries no file-system policy.
//!
//! Files by job: `error` (the [`PathError`] every error carries, [`escaped`] names),
//! `walk` (the destination's directory, opened one component at a time under the symlink
//! rule), `open` (opens that a signal may interrupt), `temp` (temporary names and the
//! process's registry of them), `output` (the rules: probe, replace, commit), `files`
//! (file to file in the chunked format), `keyfile` (the one key-file format of every front
//! end: [`read_key_file`], [`parse_key`]).

#![cfg(target_os = "linux")]
#![deny(unsafe_code)]

mod error;
mod files;
mod keyfile;
mod open;
mod output;
mod temp;
mod walk;

#[cfg(test)]
#[allow(unsafe_code)] // the tests make FIFOs and catch a signal through libc
mod tests;

pub use error::{escaped, path_error, PathError};
pub use files::{decrypt_file, encrypt_file};
pub use keyfile::{
    parse_key, read_key_file, KeyFile, KeyFileError, KeyFormatError, KEY_FILE_FORMAT, KEY_FILE_MAX,
};
pub use open::{open_source, OnInterrupt};
pub use output::{Output, Overwrite, MAX_LINKS};
pub use temp::remove_temp_files;
