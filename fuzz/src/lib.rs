//! What the fuzz targets share: a reader that turns the fuzzer's bytes into choices,
//! and the checks that drive one of our types and the RustCrypto release's beside it
//! through the public traits. Every check panics on a difference, which libFuzzer
//! reports as a crash with the input that shows it.

use cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit,
    KeyInit, KeyIvInit, StreamCipher, StreamCipherSeek,
    array::{Array, ArraySize},
    block_padding::{AnsiX923, Iso7816, Iso10126, NoPadding, Pkcs7, ZeroPadding},
};

/// Longest message a case builds (keeps every execution well under a millisecond).
pub const MAX_DATA: usize = 1 << 14;

/// The fuzzer's bytes, read front to back; reads past the end give zeros.
pub struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self(data)
    }

    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(core::array::from_fn(|_| self.byte()))
    }

    /// Up to `n` bytes (fewer when the input runs out).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }

    /// A length byte (taken modulo `max + 1`), then that many bytes.
    pub fn prefixed(&mut self, max: u8) -> &'a [u8] {
        let n = usize::from(self.byte()) % (usize::from(max) + 1);
        self.bytes(n)
    }

    /// A key or IV: `exact` bytes when the selector's top bit is set, otherwise any
    /// length 0..=127, so both the valid and the invalid lengths are reached.
    pub fn sized(&mut self, exact: usize) -> &'a [u8] {
        let sel = self.byte();
        self.bytes(if sel & 0x80 != 0 {
            exact
        } else {
            usize::from(sel)
        })
    }

    /// Everything left, at most [`MAX_DATA`] bytes.
    pub fn rest(&mut self) -> &'a [u8] {
        self.bytes(MAX_DATA)
    }
}

/// `data` split at `cuts` (sorted, within bounds).
pub fn pieces<'d>(data: &'d [u8], cuts: &[usize]) -> Vec<&'d [u8]> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for &c in cuts.iter().chain([&data.len()]) {
        out.push(&data[start..c]);
        start = c;
    }
    out
}

/// A copy of `data` placed `mis` bytes past a 16-byte boundary.
pub struct Misaligned {
    buf: Vec<u8>,
    at: usize,
    len: usize,
}

impl Misaligned {
    pub fn new(data: &[u8], mis: usize) -> Self {
        let mut buf = vec![0u8; data.len() + 32];
        let at = (16 - buf.as_ptr() as usize % 16 + mis % 16) % 16;
        buf[at..at + data.len()].copy_from_slice(data);
        Self {
            buf,
            at,
            len: data.len(),
        }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.at..self.at + self.len]
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.at..self.at + self.len]
    }

    /// The buffer as blocks of `N` bytes (its length is a multiple of `N`).
    pub fn blocks_mut<N: ArraySize>(&mut self) -> &mut [Array<u8, N>] {
        let (blocks, tail) = Array::slice_as_chunks_mut(self.bytes_mut());
        assert!(tail.is_empty(), "whole blocks");
        blocks
    }
}

fn to_blocks<N: ArraySize>(data: &[u8]) -> Vec<Array<u8, N>> {
    data.chunks_exact(N::USIZE)
        .map(|c| Array::try_from(c).expect("whole blocks"))
        .collect()
}

/// How a case is run: buffer misalignment, call splits (read before the data, so
/// as raw numbers, placed by [`Layout::cuts`]) and which pieces go buffer to buffer.
pub struct Layout {
    mis: usize,
    raw_cuts: Vec<u16>,
    b2b: u8,
}

impl Layout {
    pub fn read(inp: &mut Input<'_>) -> Self {
        let n = inp.byte() % 6;
        Self {
            mis: usize::from(inp.byte()),
            b2b: inp.byte(),
            raw_cuts: (0..n).map(|_| inp.u16()).collect(),
        }
    }

    /// Sorted cut points within `0..=len`.
    pub fn cuts(&self, len: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .raw_cuts
            .iter()
            .map(|&c| usize::from(c) % (len + 1))
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether piece `k` goes buffer-to-buffer rather than in place.
    fn b2b(&self, k: usize) -> bool {
        self.b2b >> (k % 8) & 1 != 0
    }
}

/// Runs `f` over `data` (whole blocks) in the pieces of `layout`: in place, or from a
/// copy into the buffer, as `layout` says per piece. Returns the result.
fn blockwise<N: ArraySize>(
    data: &[u8],
    layout: &Layout,
    mut f: impl FnMut(Option<&[Array<u8, N>]>, &mut [Array<u8, N>]),
) -> Vec<u8> {
    let mut buf = Misaligned::new(data, layout.mis);
    let src = Misaligned::new(data, layout.mis / 16);
    let (src, _) = Array::<u8, N>::slice_as_chunks(src.bytes());
    let blocks = buf.blocks_mut::<N>();
    let mut start = 0;
    let cuts = layout.cuts(blocks.len());
    for (k, &end) in cuts.iter().chain([&blocks.len()]).enumerate() {
        if layout.b2b(k) {
            f(Some(&src[start..end]), &mut blocks[start..end]);
        } else {
            f(None, &mut blocks[start..end]);
        }
        start = end;
    }
    buf.bytes().to_vec()
}

/// A block cipher keyed from the input: ours accepts exactly the keys the release
/// accepts; for an accepted key, every backend this CPU runs (`with`, given the backend
/// names) encrypts and decrypts the data like the release, in pieces, misaligned, in
/// place and buffer to buffer.
pub fn block_cipher<O, T>(inp: &mut Input<'_>, backends: &[&str], with: impl Fn(&str, &[u8]) -> O)
where
    O: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt,
    T: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt,
{
    let key = inp.sized(O::key_size());
    let (ours, theirs) = (O::new_from_slice(key), T::new_from_slice(key));
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{}-byte key", key.len());
    let (Ok(ours), Ok(theirs)) = (ours, theirs) else {
        return;
    };
    let layout = Layout::read(inp);
    let bs = O::block_size();
    let data = inp.rest();
    let data = &data[..data.len() / bs * bs];
    let mut expect = to_blocks::<T::BlockSize>(data);
    theirs.encrypt_blocks(&mut expect);
    let expect = expect.concat();
    check_ecb(&ours, data, &expect, &layout, "dispatched");
    for &name in backends {
        check_ecb(&with(name, key), data, &expect, &layout, name);
    }
}

/// Same trait, other types: ECB over `data` equals `expect`, and decrypts back.
pub fn check_ecb<C: BlockCipherEncrypt + BlockCipherDecrypt>(
    c: &C,
    data: &[u8],
    expect: &[u8],
    layout: &Layout,
    name: &str,
) {
    let got = blockwise::<C::BlockSize>(data, layout, |src, dst| match src {
        Some(src) => c.encrypt_blocks_b2b(src, dst).unwrap(),
        None if dst.len() == 1 => c.encrypt_block(&mut dst[0]),
        None => c.encrypt_blocks(dst),
    });
    assert!(got == expect, "{name}: encryption of {} bytes", data.len());
    let back = blockwise::<C::BlockSize>(&got, layout, |src, dst| match src {
        Some(src) => c.decrypt_blocks_b2b(src, dst).unwrap(),
        None => c.decrypt_blocks(dst),
    });
    assert!(back == data, "{name}: decryption of {} bytes", data.len());
}

/// A CTR (or other seekable stream) of ours built around `inner`, against the
/// release's built with `new_from_slices`, through a script of applies and seeks read
/// from the input. Positions, seek errors and end-of-keystream errors must agree.
pub fn stream_script<O, T>(inp: &mut Input<'_>, ours: &mut O, theirs: &mut T)
where
    O: StreamCipher + StreamCipherSeek,
    T: StreamCipher + StreamCipherSeek,
{
    for _ in 0..(inp.byte() % 8) + 1 {
        let op = inp.byte();
        if op & 3 == 0 {
            // Seek: anywhere, or close to the end of a 32/64-bit counter space.
            let pos = match op >> 2 & 3 {
                0 => inp.u64(),
                1 => (1u64 << 36) - u64::from(inp.u16()),
                2 => (1u64 << 35) - u64::from(inp.u16()),
                _ => u64::from(inp.u16()),
            };
            let (a, b) = (ours.try_seek(pos), theirs.try_seek(pos));
            assert_eq!(a.is_ok(), b.is_ok(), "seek to {pos}");
            if a.is_err() {
                return;
            }
        } else {
            let len = usize::from(inp.u16()) % 4096;
            let data = Misaligned::new(inp.bytes(len), usize::from(op >> 4));
            let mut expect = data.bytes().to_vec();
            let b = theirs.try_apply_keystream(&mut expect);
            let mut got = data.bytes().to_vec();
            let a = if op & 4 != 0 {
                let mut out = Misaligned::new(&vec![0; got.len()], usize::from(op));
                let r = ours.try_apply_keystream_b2b(data.bytes(), out.bytes_mut());
                got.copy_from_slice(out.bytes());
                r.map_err(|_| ())
            } else {
                ours.try_apply_keystream(&mut got).map_err(|_| ())
            };
            assert_eq!(a.is_ok(), b.is_ok(), "apply of {len} bytes");
            if a.is_err() {
                return;
            }
            assert!(got == expect, "keystream over {len} bytes");
        }
        let (a, b) = (
            ours.try_current_pos::<u128>(),
            theirs.try_current_pos::<u128>(),
        );
        assert_eq!(a.ok(), b.ok(), "position");
    }
}

/// A CTR flavor: ours and the release's (`O`, `T`) keyed with the same key and IV
/// lengths accept the same lengths; when accepted, a script runs on the dispatched
/// cipher and on each backend's (`inner(name, key)`, put in a CTR by `wrap`).
pub fn ctr<O, T, C>(
    inp: &mut Input<'_>,
    backends: &[&str],
    inner: impl Fn(&str, &[u8]) -> C,
    wrap: impl Fn(C, &[u8]) -> O,
) where
    O: KeyIvInit + StreamCipher + StreamCipherSeek,
    T: KeyIvInit + StreamCipher + StreamCipherSeek,
{
    let key = inp.sized(O::key_size());
    let iv = inp.sized(O::iv_size());
    let (ours, theirs) = (O::new_from_slices(key, iv), T::new_from_slices(key, iv));
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok(),
        "{}-byte key, {}-byte IV",
        key.len(),
        iv.len()
    );
    let (Ok(mut ours), Ok(mut theirs)) = (ours, theirs) else {
        return;
    };
    let script = *inp;
    stream_script(inp, &mut ours, &mut theirs);
    for &name in backends {
        let mut inp = script;
        let mut ours = wrap(inner(name, key), iv);
        let mut theirs = T::new_from_slices(key, iv).unwrap();
        stream_script(&mut inp, &mut ours, &mut theirs);
    }
}

impl Clone for Input<'_> {
    fn clone(&self) -> Self {
        *self
    }
}
impl Copy for Input<'_> {}

/// CBC: ours (`OE`, `OD`) and the release's (`TE`, `TD`) accept the same key and IV
/// lengths; when accepted, whole blocks in pieces (dispatched cipher and every
/// backend's) and every padding of `block-padding` (including decryption of the
/// input's bytes as a possibly corrupt ciphertext) agree.
pub fn cbc<OE, OD, TE, TD>(
    inp: &mut Input<'_>,
    backends: &[&str],
    inner: impl Fn(&str, &[u8]) -> OE::Inner,
) where
    OE: KeyIvInit + InnerIvInit + BlockModeEncrypt,
    OD: KeyIvInit<IvSize = OE::IvSize>
        + InnerIvInit<Inner = OE::Inner>
        + BlockModeDecrypt<BlockSize = OE::BlockSize>,
    TE: KeyIvInit + BlockModeEncrypt,
    TD: KeyIvInit + BlockModeDecrypt,
{
    let key = inp.sized(OE::key_size());
    let iv = inp.sized(OE::iv_size());
    let ok = [
        OE::new_from_slices(key, iv).is_ok(),
        OD::new_from_slices(key, iv).is_ok(),
    ];
    let peer = [
        TE::new_from_slices(key, iv).is_ok(),
        TD::new_from_slices(key, iv).is_ok(),
    ];
    assert_eq!(ok, peer, "{}-byte key, {}-byte IV", key.len(), iv.len());
    if !ok[0] {
        return;
    }
    let padding = inp.byte();
    let layout = Layout::read(inp);
    let data = inp.rest();
    let bs = OE::block_size();
    let whole = &data[..data.len() / bs * bs];
    let te = || TE::new_from_slices(key, iv).unwrap();
    let td = || TD::new_from_slices(key, iv).unwrap();
    let mut expect = to_blocks::<TE::BlockSize>(whole);
    te().encrypt_blocks(&mut expect);
    let expect = expect.concat();

    let mut runs: Vec<(&str, OE, OD)> = vec![(
        "dispatched",
        OE::new_from_slices(key, iv).unwrap(),
        OD::new_from_slices(key, iv).unwrap(),
    )];
    for &name in backends {
        let iv = iv.try_into().unwrap();
        runs.push((
            name,
            OE::inner_iv_init(inner(name, key), iv),
            OD::inner_iv_init(inner(name, key), iv),
        ));
    }
    for (name, mut enc, mut dec) in runs {
        let got = blockwise::<OE::BlockSize>(whole, &layout, |src, dst| match src {
            Some(src) => enc.encrypt_blocks_b2b(src, dst).unwrap(),
            None => enc.encrypt_blocks(dst),
        });
        assert!(
            got == expect,
            "{name}: CBC encryption of {} bytes",
            whole.len()
        );
        let back = blockwise::<OE::BlockSize>(&got, &layout, |src, dst| match src {
            Some(src) => dec.decrypt_blocks_b2b(src, dst).unwrap(),
            None => dec.decrypt_blocks(dst),
        });
        assert!(
            back == whole,
            "{name}: CBC decryption of {} bytes",
            whole.len()
        );
    }

    // One-shot padded calls of the dispatched types (the same bulk paths, plus the
    // padding code) on the raw input.
    let (e, d) = (
        || OE::new_from_slices(key, iv).unwrap(),
        || OD::new_from_slices(key, iv).unwrap(),
    );
    macro_rules! padded {
        ($($p:ty),*) => {{
            let mut k = 0;
            $(
                if usize::from(padding) % 6 == k {
                    let a = e().encrypt_padded_vec::<$p>(data);
                    assert!(a == te().encrypt_padded_vec::<$p>(data), "padded encryption");
                    let a = d().decrypt_padded_vec::<$p>(&a);
                    let b = td().decrypt_padded_vec::<$p>(&te().encrypt_padded_vec::<$p>(data));
                    assert_eq!(a.is_ok(), b.is_ok());
                    assert!(a.ok() == b.ok(), "padded round trip");
                    let a = d().decrypt_padded_vec::<$p>(data);
                    let b = td().decrypt_padded_vec::<$p>(data);
                    assert_eq!(a.is_ok(), b.is_ok(), "unpadding of the raw input");
                    assert!(a.ok() == b.ok(), "decryption of the raw input");
                }
                k += 1;
            )*
            let _ = k;
        }};
    }
    // `encrypt_padded_vec` with NoPadding on a partial block panics in both (documented
    // by `cipher`), so NoPadding gets whole blocks only.
    if padding % 6 == 5 {
        let a = e().encrypt_padded_vec::<NoPadding>(whole);
        assert!(a == te().encrypt_padded_vec::<NoPadding>(whole));
        return;
    }
    padded!(Pkcs7, Iso7816, AnsiX923, ZeroPadding, Iso10126);
}

/// Digests: ours and the release's over the data in update pieces, with a clone
/// finalised at one of the cuts, and `finalize_reset` reused.
pub fn digest<O, T>(inp: &mut Input<'_>)
where
    O: digest::Digest + Clone + digest::FixedOutputReset,
    T: digest::Digest + Clone,
{
    let fork = inp.byte();
    let step = usize::from(inp.byte());
    let layout = Layout::read(inp);
    let data = inp.rest();
    // Random cuts, or (selector > 0) a cut every `step` bytes as well.
    let mut cuts = layout.cuts(data.len());
    if step != 0 {
        cuts.extend((step..data.len()).step_by(step));
        cuts.sort_unstable();
    }
    let data = Misaligned::new(data, layout.mis);
    let data = data.bytes();
    let expect = T::digest(data);
    let (mut ours, mut theirs) = (O::new(), T::new());
    let parts = pieces(data, &cuts);
    let fork_at = usize::from(fork) % parts.len();
    let mut forked = None;
    for (k, p) in parts.iter().enumerate() {
        digest::Digest::update(&mut ours, p);
        digest::Digest::update(&mut theirs, p);
        if k == fork_at {
            forked = Some((ours.clone(), theirs.clone()));
        }
    }
    let got = digest::Digest::finalize_reset(&mut ours);
    assert!(
        got[..] == expect[..],
        "{} bytes in {} pieces",
        data.len(),
        parts.len()
    );
    let (o, t) = forked.unwrap();
    assert!(
        o.finalize()[..] == t.finalize()[..],
        "clone after piece {fork_at}"
    );
    // After the reset: the empty message, then the data again in one piece.
    digest::Digest::update(&mut ours, data);
    assert!(ours.finalize()[..] == expect[..], "after finalize_reset");
}
