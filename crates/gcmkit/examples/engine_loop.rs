//! One engine's AES-GCM calls alone in a process: for counting a small message's
//! instructions under callgrind (the aesni engine runs under valgrind; VAES and AVX-512
//! do not), old build against new.
//!
//! `engine_loop ENGINE seal|open SIZE N [KEY_BYTES]`: N seals, or N opens of one sealed
//! message (each after a copy of the ciphertext into the buffer), of SIZE bytes with a
//! 96-bit nonce and no AAD, on ENGINE (an `Engine::name`), AES-128 unless KEY_BYTES is 24
//! or 32. Instructions per call: the difference of two runs' totals over the difference
//! of their N, e.g.
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null engine_loop aesni seal 16 1000
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null engine_loop aesni seal 16 11000
//! ```

use gcmkit::{AeadMode, AesGcm, Engine};

fn main() -> Result<(), gcmkit::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: Option<usize>| {
        args.get(i)
            .map(|s| s.parse::<usize>().ok())
            .unwrap_or(default)
    };
    let (Some(engine), Some(op), Some(size), Some(n), Some(key_len)) = (
        args.first(),
        args.get(1),
        number(2, None),
        number(3, None),
        number(4, Some(16)),
    ) else {
        usage()
    };
    let open = match op.as_str() {
        "seal" => false,
        "open" => true,
        _ => usage(),
    };
    let gcm = AesGcm::with_engine(&vec![1u8; key_len], Engine::from_name(engine)?)?;
    let nonce = [0u8; 12];
    let mut buf = vec![7u8; size];
    let tag = gcm.encrypt_in_place_detached(&nonce, b"", &mut buf)?;
    let sealed = buf.clone();
    for _ in 0..n {
        if open {
            buf.copy_from_slice(&sealed);
            gcm.decrypt_in_place_detached(&nonce, b"", &mut buf, tag.as_ref())?;
        } else {
            std::hint::black_box(gcm.encrypt_in_place_detached(&nonce, b"", &mut buf)?);
        }
    }
    Ok(())
}

fn usage() -> ! {
    eprintln!("usage: engine_loop ENGINE seal|open SIZE N [KEY_BYTES]");
    std::process::exit(2);
}
