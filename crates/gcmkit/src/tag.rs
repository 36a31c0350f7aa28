//! Authentication tags, compared in constant time: 4 to 16 bytes for the GCM family,
//! 48 for DNDK-GCM with key commitment (the GCM tag followed by the 32-byte commitment).

use crate::error::Error;

/// Largest tag: DNDK-GCM's 16-byte GCM tag followed by its 32-byte key commitment.
pub const MAX_TAG_LEN: usize = 48;

/// An authentication tag (up to [`MAX_TAG_LEN`] bytes). `as_ref()` gives its bytes.
///
/// ```
/// use gcmkit::{Error, Gmac, Tag};
/// let mac = Gmac::new(&[3u8; 16])?.with_tag_len(12)?;
/// let tag: Tag = mac.compute(&[4u8; 12], b"data")?;
/// assert_eq!(tag.len(), 12);
///
/// // Tags that arrive as bytes (from a wire format, say) round-trip through `from_slice`.
/// let received = Tag::from_slice(tag.as_ref())?;
/// assert_eq!(received, tag); // compared in constant time
/// assert!(tag.ct_eq_slice(received.as_ref()));
/// assert!(matches!(Tag::from_slice(&[]), Err(Error::InvalidTagLength { got: 0, .. })));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Tag {
    bytes: [u8; MAX_TAG_LEN],
    len: u8,
}

impl Tag {
    /// The first `len` bytes of a full 16-byte tag (`len` must be at most 16).
    #[inline]
    pub(crate) fn truncate(full: [u8; 16], len: usize) -> Self {
        let mut bytes = [0u8; MAX_TAG_LEN];
        let len = len.min(16);
        // A full tag (the usual length) is copied as one 16-byte block: the caller's copy of
        // the returned `Tag` then reloads each of its 16-byte pieces from one store (as
        // two 8-byte words, the reload waited for both to reach the cache; docs/tuning.md:
        // Tag::truncate).
        // Other lengths: all 16 bytes as one word, the ones past `len` cleared by a mask
        // (a copy of `len` bytes compiled to a `memcpy` call, a byte loop to 16 byte
        // moves; `len` is public).
        if len == 16 {
            bytes[..16].copy_from_slice(&full);
        } else {
            let keep = u128::MAX.checked_shr(8 * (16 - len) as u32).unwrap_or(0);
            bytes[..16].copy_from_slice(&(u128::from_le_bytes(full) & keep).to_le_bytes());
        }
        Tag {
            bytes,
            len: len as u8,
        }
    }

    /// The full GCM tag followed by a 32-byte key commitment (DNDK-GCM, KC_Choice = 1).
    pub(crate) fn with_commitment(gcm: [u8; 16], commitment: &[u8; 32]) -> Self {
        let mut bytes = [0u8; MAX_TAG_LEN];
        bytes[..16].copy_from_slice(&gcm);
        bytes[16..].copy_from_slice(commitment);
        Tag {
            bytes,
            len: MAX_TAG_LEN as u8,
        }
    }

    /// Builds a tag from bytes (1 to [`MAX_TAG_LEN`] of them).
    pub fn from_slice(tag: &[u8]) -> Result<Self, Error> {
        if tag.is_empty() || tag.len() > MAX_TAG_LEN {
            return Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "1 to 48",
            });
        }
        let mut bytes = [0u8; MAX_TAG_LEN];
        bytes[..tag.len()].copy_from_slice(tag);
        Ok(Tag {
            bytes,
            len: tag.len() as u8,
        })
    }

    /// Tag length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Constant-time comparison with `other` (lengths are public and must match).
    pub fn ct_eq_slice(&self, other: &[u8]) -> bool {
        // The outcome is public (accept or reject); the comparison itself is constant time:
        // every byte's difference ORed into one byte, no branch until that byte, which
        // passes through `black_box` (the compiler cannot see which values decide) and is
        // compared once. `subtle`'s slice `ct_eq` does the same per byte with a call to
        // its own `black_box` each time: about 230 instructions for a 16-byte tag, a
        // third of an AES-128-GCM decryption of 16 bytes (commit message, measured).
        if other.len() != self.len() {
            return false;
        }
        let mut diff = 0u8;
        for (a, b) in self.as_ref().iter().zip(other) {
            diff |= a ^ b;
        }
        crate::secret::ct::declassify(core::hint::black_box(diff) == 0)
    }
}

/// Whether `received` is the first `received.len()` bytes of the full 16-byte tag `full`,
/// in constant time (the length is public). A 16-byte tag is compared as one 128-bit
/// difference folded into one word, without building a [`Tag`] first; other lengths go
/// through [`Tag::ct_eq_slice`].
#[inline]
pub(crate) fn ct_eq_full(full: &[u8; 16], received: &[u8]) -> bool {
    match <&[u8; 16]>::try_from(received) {
        Ok(r) => {
            let d = u128::from_ne_bytes(*full) ^ u128::from_ne_bytes(*r);
            let d = (d as u64) | ((d >> 64) as u64);
            // As in `ct_eq_slice`: no branch until the one word, hidden from the compiler.
            crate::secret::ct::declassify(core::hint::black_box(d) == 0)
        }
        Err(_) => Tag::truncate(*full, received.len()).ct_eq_slice(received),
    }
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl PartialEq for Tag {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq_slice(other.as_ref())
    }
}
impl Eq for Tag {}

impl core::fmt::Debug for Tag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Tag(")?;
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}
