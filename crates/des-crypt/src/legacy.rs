//! The legacy interfaces: `setkey`/`encrypt` (POSIX, bit arrays) and FreeSec's
//! `des_setkey`/`des_cipher`, as safe Rust types holding the state C keeps in statics.

use crate::Error;
use des::__crypt::Key;

/// POSIX `setkey(3)`/`encrypt(3)`: DES on 64-element bit arrays (one bit per byte,
/// most significant bit first; only the low bit of each element counts).
///
/// | C | Rust |
/// |---|---|
/// | `setkey(key)` | [`Encrypt::setkey`]`(&key)` (or [`Encrypt::new`]) |
/// | `encrypt(block, 0)` | [`Encrypt::encrypt`]`(&mut block, false)` |
/// | `encrypt(block, 1)` | [`Encrypt::encrypt`]`(&mut block, true)` (decrypt) |
///
/// As in libxcrypt's `encrypt_r`, the salt is zero: plain DES. The key's parity bits
/// (every eighth element) are ignored.
///
/// ```
/// use des_crypt::Encrypt;
/// let mut key = [0u8; 64];
/// key[0] = 1;
/// let e = Encrypt::new(&key);
/// let mut block = [0u8; 64];
/// e.encrypt(&mut block, false);
/// e.encrypt(&mut block, true);
/// assert_eq!(block, [0u8; 64]);
/// ```
#[derive(Clone)]
pub struct Encrypt {
    key: Key,
}

/// Packs 64 bit-bytes (MSB first) into 8 bytes.
fn pack(bits: &[u8; 64]) -> [u8; 8] {
    core::array::from_fn(|i| (0..8).fold(0u8, |c, j| c << 1 | (bits[8 * i + j] & 1)))
}

impl Encrypt {
    /// `setkey(key)` on a fresh state.
    pub fn new(key: &[u8; 64]) -> Self {
        Encrypt {
            key: Key::new(&pack(key)),
        }
    }

    /// `setkey(key)`: replaces the key.
    pub fn setkey(&mut self, key: &[u8; 64]) {
        self.key = Key::new(&pack(key));
    }

    /// `encrypt(block, edflag)`: one DES encryption (`decrypt == false`) or decryption
    /// of `block` in place; each element of the result is 0 or 1.
    pub fn encrypt(&self, block: &mut [u8; 64], decrypt: bool) {
        let out = self.key.crypt(pack(block), 0, 1, decrypt);
        for (i, b) in block.iter_mut().enumerate() {
            *b = (out[i / 8] >> (7 - i % 8)) & 1;
        }
    }
}

impl core::fmt::Debug for Encrypt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Encrypt { .. }")
    }
}

/// FreeSec's `des_setkey(key)` / `des_cipher(in, out, salt, count)`: DES on 8-byte
/// blocks with the `crypt(3)` salt and an iteration count.
///
/// | C | Rust |
/// |---|---|
/// | `des_setkey(key)` (returns 0) | [`DesCipher::new`]`(&key)` / [`DesCipher::des_setkey`] |
/// | `des_cipher(in, out, salt, count)` returning 0 | `out = `[`DesCipher::des_cipher`]`(&in, salt, count)?` |
/// | `des_cipher(…, 0)` returning 1 | `Err(`[`Error::ZeroCount`]`)` |
///
/// `salt`: its low 24 bits, bit `k` swapping E outputs `k` and `k + 24`, as `crypt(3)`
/// does; `count > 0` encrypts `count` times, `count < 0` decrypts `-count` times.
/// The key bytes are used as given (`crypt` shifts each password byte left first).
///
/// ```
/// use des_crypt::DesCipher;
/// // Traditional crypt by hand: key "test" shifted, salt "ab" = 0b100111_100110.
/// let key = b"test\0\0\0\0".map(|c| c << 1);
/// let c = DesCipher::new(&key);
/// let out = c.des_cipher(&[0; 8], (39 << 6) | 38, 25).unwrap();
/// assert_eq!(c.des_cipher(&out, (39 << 6) | 38, -25).unwrap(), [0; 8]);
/// ```
#[derive(Clone)]
pub struct DesCipher {
    key: Key,
}

impl DesCipher {
    /// `des_setkey(key)` on a fresh state.
    pub fn new(key: &[u8; 8]) -> Self {
        DesCipher { key: Key::new(key) }
    }

    /// `des_setkey(key)`: replaces the key.
    pub fn des_setkey(&mut self, key: &[u8; 8]) {
        self.key = Key::new(key);
    }

    /// `des_cipher(input, out, salt, count)`: the output block, or
    /// [`Error::ZeroCount`] for `count == 0`.
    pub fn des_cipher(&self, input: &[u8; 8], salt: u32, count: i32) -> Result<[u8; 8], Error> {
        if count == 0 {
            return Err(Error::ZeroCount);
        }
        Ok(self
            .key
            .crypt(*input, salt & 0xFF_FFFF, count.unsigned_abs(), count < 0))
    }
}

impl core::fmt::Debug for DesCipher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("DesCipher { .. }")
    }
}
