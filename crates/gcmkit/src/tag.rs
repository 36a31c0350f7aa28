//! Authentication tags of 4 to 16 bytes, compared in constant time.

use crate::error::Error;
use subtle::ConstantTimeEq;

/// An authentication tag (up to 16 bytes). `as_ref()` gives its bytes.
#[derive(Clone, Copy)]
pub struct Tag {
    bytes: [u8; 16],
    len: u8,
}

impl Tag {
    /// The first `len` bytes of a full 16-byte tag (`len` must be at most 16).
    pub(crate) fn truncate(full: [u8; 16], len: usize) -> Self {
        let mut bytes = full;
        let len = len.min(16);
        bytes[len..].fill(0);
        Tag {
            bytes,
            len: len as u8,
        }
    }

    /// Builds a tag from bytes (1 to 16 of them).
    pub fn from_slice(tag: &[u8]) -> Result<Self, Error> {
        if tag.is_empty() || tag.len() > 16 {
            return Err(Error::InvalidTagLength {
                got: tag.len(),
                expected: "1 to 16",
            });
        }
        let mut bytes = [0u8; 16];
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
        // The outcome is public (accept or reject); the comparison itself is constant time.
        other.len() == self.len()
            && crate::engine::ct::declassify(bool::from(self.as_ref().ct_eq(other)))
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
