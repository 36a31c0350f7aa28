//! Memory safety of the kernels' tails: inputs and outputs placed flush against an
//! unmapped page, at the end and at the start, for every length 0..=1024 and a sample
//! above, on every engine. Any read or write past the buffer faults (SIGSEGV).

mod common;
use common::engines;
use gcmkit::AeadMode;
use gcmkit::{AesGcm, AesGcmSiv, Gmac};

/// Maps `pages` readable pages between two inaccessible guard pages.
struct Guarded {
    base: *mut u8,
    len: usize,
    page: usize,
}

impl Guarded {
    fn new(bytes: usize) -> Guarded {
        // SAFETY: plain libc calls on memory this struct owns; results are checked.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE) as usize;
            let inner = bytes.div_ceil(page).max(1) * page;
            let len = inner + 2 * page;
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(p, libc::MAP_FAILED);
            let base = p as *mut u8;
            assert_eq!(
                libc::mprotect(
                    base.add(page) as *mut libc::c_void,
                    inner,
                    libc::PROT_READ | libc::PROT_WRITE
                ),
                0
            );
            Guarded { base, len, page }
        }
    }

    /// `n` bytes ending exactly at the upper guard page.
    fn at_end(&mut self, n: usize) -> &mut [u8] {
        // SAFETY: [len - page - n, len - page) lies inside the accessible middle region.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(self.len - self.page - n), n) }
    }

    /// `n` bytes starting exactly at the end of the lower guard page.
    fn at_start(&mut self, n: usize) -> &mut [u8] {
        // SAFETY: [page, page + n) lies inside the accessible middle region (n <= inner).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(self.page), n) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping created in `new`.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len) };
    }
}

fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=1024).collect();
    v.extend([1500, 2047, 4096 + 15, 8191, 16384 + 1, 65536 + 7]);
    v
}

#[test]
fn kernels_never_touch_bytes_outside_the_buffer() {
    let mut g = Guarded::new(70_000);
    // A second guarded region: the out-of-place kernels' destination.
    let mut d = Guarded::new(70_100);
    for e in engines() {
        let gcm = AesGcm::with_engine(&[1; 16], e).unwrap();
        let siv = AesGcmSiv::with_engine(&[2; 32], e).unwrap();
        let mac = Gmac::with_engine(&[3; 16], e).unwrap();
        for n in lengths() {
            for start in [false, true] {
                let buf = if start { g.at_start(n) } else { g.at_end(n) };
                buf.fill(0x5a);
                let tag = gcm
                    .encrypt_in_place_detached(&[7; 12], b"aad", buf)
                    .unwrap();
                gcm.decrypt_in_place_detached(&[7; 12], b"aad", buf, tag.as_ref())
                    .unwrap();
                let tag = gcm.encrypt_in_place_detached(&[7; 13], &[], buf).unwrap();
                gcm.decrypt_in_place_detached(&[7; 13], &[], buf, tag.as_ref())
                    .unwrap();
                let tag = siv.encrypt_in_place_detached(&[7; 12], b"", buf).unwrap();
                siv.decrypt_in_place_detached(&[7; 12], b"", buf, tag.as_ref())
                    .unwrap();
                assert!(buf.iter().all(|&b| b == 0x5a), "{e:?} len {n}");
                // The AAD / MAC input against the guard page as well.
                let t = mac.compute(&[1; 12], buf).unwrap();
                mac.verify(&[1; 12], buf, t.as_ref()).unwrap();
                let t = gcm
                    .encrypt_in_place_detached(&[7; 12], buf, &mut [])
                    .unwrap();
                assert_eq!(t.len(), 16);
                // Out of place (one pass from source to destination), both flush against
                // unmapped pages: encrypt_into, then decrypt_into back over the source.
                let src = if start { g.at_start(n) } else { g.at_end(n) };
                src.fill(0x5a);
                let dst = if start {
                    d.at_end(n + 16)
                } else {
                    d.at_start(n + 16)
                };
                gcm.encrypt_into(&[7; 12], src, b"aad", dst).unwrap();
                src.fill(0);
                gcm.decrypt_into(&[7; 12], dst, b"aad", src).unwrap();
                assert!(src.iter().all(|&b| b == 0x5a), "{e:?} into, len {n}");
            }
        }
    }
}
