//! Seeded, reproducible differential runs against the RustCrypto crate.
//!
//! Each function takes our type and the peer's type (the RustCrypto crate as a
//! renamed dev-dependency, e.g. `rc_md5`) and drives both through the public traits
//! with the same random keys, IVs, lengths and call splits. Every case is derived
//! from `seed` and its index, and a failure names both, so any case can be rerun
//! alone with `TESTKIT_SEED` and `TESTKIT_CASES`.

use crate::rng::pieces;
use crate::{Rng, cases, seed};
use cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
    StreamCipher, StreamCipherSeek,
    array::{Array, ArraySize},
};
use digest::Digest;
use std::ops::RangeInclusive;

/// Runs `cases` cases (or `TESTKIT_CASES`), each with its own generator.
fn run(what: &str, n: usize, default_seed: u64, mut case: impl FnMut(&mut Rng)) {
    let seed = seed(default_seed);
    for i in 0..cases(n) {
        let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| case(&mut rng)));
        if let Err(e) = r {
            eprintln!("{what}: case {i} of seed {seed} failed (rerun: TESTKIT_SEED={seed})");
            std::panic::resume_unwind(e);
        }
    }
}

/// Digests: one-shot, split updates, and a clone taken mid-stream, byte for byte.
pub fn digest<O: Digest + Clone, T: Digest + Clone>(n: usize) {
    assert_eq!(<O as Digest>::output_size(), <T as Digest>::output_size());
    run("digest", n, 0x00D1_6E57, |rng| {
        let len = rng.msg_len();
        let msg = rng.bytes(len);
        let expect = T::digest(&msg);
        assert_eq!(
            &O::digest(&msg)[..],
            &expect[..],
            "one-shot, {} bytes",
            msg.len()
        );

        let cuts = rng.cuts(msg.len(), 6);
        let (mut ours, mut theirs) = (O::new(), T::new());
        let parts = pieces(&msg, &cuts);
        let fork_at = rng.below(parts.len());
        let mut fork = None;
        for (k, p) in parts.iter().enumerate() {
            ours.update(p);
            theirs.update(p);
            if k == fork_at {
                fork = Some((ours.clone(), theirs.clone()));
            }
        }
        assert_eq!(&ours.finalize()[..], &expect[..], "split at {cuts:?}");
        let (o, t) = fork.expect("fork point is within the parts");
        assert_eq!(
            &o.finalize()[..],
            &t.finalize()[..],
            "clone after part {fork_at}"
        );
    });
}

/// Applies the keystream of `ours` and `theirs` over `buf` in the pieces given by
/// `cuts`, alternating in-place and buffer-to-buffer calls, and compares.
fn apply_both<O: StreamCipher, T: StreamCipher>(
    ours: &mut O,
    theirs: &mut T,
    buf: &[u8],
    cuts: &[usize],
    rng: &mut Rng,
) {
    let mut expect = buf.to_vec();
    theirs.apply_keystream(&mut expect);
    let mut got = Vec::with_capacity(buf.len());
    for piece in pieces(buf, cuts) {
        if rng.below(2) == 0 {
            let mut p = piece.to_vec();
            ours.apply_keystream(&mut p);
            got.extend_from_slice(&p);
        } else {
            let mut out = vec![0; piece.len()];
            ours.apply_keystream_b2b(piece, &mut out);
            got.extend_from_slice(&out);
        }
    }
    assert!(got == expect, "{} bytes cut at {cuts:?}", buf.len());
}

/// Stream ciphers keyed by `new_from_slice` with a key length in `key_lens`; also
/// checks that both reject the lengths just outside that range.
pub fn stream<O: KeyInit + StreamCipher, T: KeyInit + StreamCipher>(
    n: usize,
    key_lens: RangeInclusive<usize>,
) {
    for bad in [key_lens.start().wrapping_sub(1), key_lens.end() + 1] {
        if bad <= 4096 {
            let key = vec![7u8; bad];
            assert!(O::new_from_slice(&key).is_err(), "accepts a {bad}-byte key");
            assert!(
                T::new_from_slice(&key).is_err(),
                "peer accepts a {bad}-byte key"
            );
        }
    }
    run("stream", n, 0x0057_4EA3, |rng| {
        let key = rng.bytes_in(*key_lens.start(), *key_lens.end());
        let (mut ours, mut theirs) = (
            O::new_from_slice(&key).unwrap(),
            T::new_from_slice(&key).unwrap(),
        );
        let len = rng.msg_len();
        let data = rng.bytes(len);
        let cuts = rng.cuts(data.len(), 5);
        apply_both(&mut ours, &mut theirs, &data, &cuts, rng);
    });
}

/// Stream ciphers with a key and an IV (CTR flavors): random chunks and random
/// seeks, compared with the peer's output and position.
pub fn stream_iv<O, T>(n: usize)
where
    O: KeyIvInit + StreamCipher + StreamCipherSeek,
    T: KeyIvInit + StreamCipher + StreamCipherSeek,
{
    run("stream_iv", n, 0x0057_111E, |rng| {
        let key = rng.bytes(O::key_size());
        let iv = rng.bytes(O::iv_size());
        let mut ours = O::new_from_slices(&key, &iv).unwrap();
        let mut theirs = T::new_from_slices(&key, &iv).unwrap();
        for _ in 0..rng.range(1, 3) {
            if rng.below(2) == 0 {
                let pos = rng.below(1 << 20) as u64;
                ours.seek(pos);
                theirs.seek(pos);
            }
            let len = rng.msg_len();
            let data = rng.bytes(len);
            let cuts = rng.cuts(data.len(), 4);
            apply_both(&mut ours, &mut theirs, &data, &cuts, rng);
            assert_eq!(ours.current_pos::<u64>(), theirs.current_pos::<u64>());
        }
    });
}

/// `data` (a multiple of the block size) as blocks of `N` bytes.
fn to_blocks<N: ArraySize>(data: &[u8]) -> Vec<Array<u8, N>> {
    data.chunks(N::USIZE)
        .map(|c| Array::try_from(c).expect("whole blocks"))
        .collect()
}

/// Block ciphers in ECB: random keys (length in `key_lens`), random numbers of blocks
/// through `encrypt_blocks`/`decrypt_blocks` and the single-block calls.
pub fn ecb<O, T>(n: usize, key_lens: RangeInclusive<usize>)
where
    O: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt,
    T: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt,
{
    let bs = O::block_size();
    assert_eq!(bs, T::block_size());
    run("ecb", n, 0xECB0, |rng| {
        let key = rng.bytes_in(*key_lens.start(), *key_lens.end());
        let (ours, theirs) = (
            O::new_from_slice(&key).unwrap(),
            T::new_from_slice(&key).unwrap(),
        );
        let blocks = rng.msg_len() / bs;
        let plain = rng.bytes(blocks * bs);
        let mut a = to_blocks(&plain);
        let mut b = to_blocks(&plain);
        ours.encrypt_blocks(&mut a);
        theirs.encrypt_blocks(&mut b);
        assert!(
            a.concat() == b.concat(),
            "encryption of {blocks} blocks, key {key:02x?}"
        );
        if blocks > 0 {
            let mut one = to_blocks(&plain[..bs]);
            ours.encrypt_block(&mut one[0]);
            assert!(one[0][..] == b[0][..], "single-block encryption");
        }
        ours.decrypt_blocks(&mut a);
        assert!(a.concat() == plain, "decryption of {blocks} blocks");
    });
}

/// Block modes (CBC and the like): our and the peer's encryptor (`OE`, `TE`) and
/// decryptor (`OD`, `TD`) over random keys, IVs and block counts, each message in
/// several calls.
pub fn block_mode<OE, OD, TE, TD>(n: usize)
where
    OE: KeyIvInit + BlockModeEncrypt,
    OD: KeyIvInit + BlockModeDecrypt,
    TE: KeyIvInit + BlockModeEncrypt,
    TD: KeyIvInit + BlockModeDecrypt,
{
    let bs = OE::block_size();
    run("block_mode", n, 0xCBC0, |rng| {
        let key = rng.bytes(OE::key_size());
        let iv = rng.bytes(OE::iv_size());
        let blocks = rng.msg_len() / bs;
        let plain = rng.bytes(blocks * bs);

        let mut expect = to_blocks(&plain);
        TE::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(&mut expect);
        let expect = expect.concat();
        let cuts = rng.cuts(blocks, 4);
        let mut enc = OE::new_from_slices(&key, &iv).unwrap();
        let mut got = to_blocks(&plain);
        let mut start = 0;
        for end in cuts.iter().copied().chain([blocks]) {
            enc.encrypt_blocks(&mut got[start..end]);
            start = end;
        }
        assert!(
            got.concat() == expect,
            "encryption of {blocks} blocks cut at {cuts:?}"
        );

        let mut dec = OD::new_from_slices(&key, &iv).unwrap();
        let mut got = to_blocks(&got.concat());
        let mut start = 0;
        for end in cuts.iter().copied().chain([blocks]) {
            dec.decrypt_blocks(&mut got[start..end]);
            start = end;
        }
        assert!(
            got.concat() == plain,
            "decryption of {blocks} blocks cut at {cuts:?}"
        );
        let mut theirs = to_blocks(&expect);
        TD::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(&mut theirs);
        assert!(
            theirs.concat() == plain,
            "peer decryption of {blocks} blocks"
        );
    });
}

#[cfg(test)]
mod tests {
    //! The drivers run here with the published crates on both sides (so they pass),
    //! and with a deliberately wrong "ours" (so they must fail).
    use super::*;
    use std::panic::catch_unwind;

    #[test]
    fn digest_driver_runs_and_catches_a_wrong_digest() {
        digest::<rc_md5::Md5, rc_md5::Md5>(300);
        // Same trait, different function: must be caught at once.
        let r = catch_unwind(|| digest::<rc_md5::Md5, WrongMd5>(3));
        assert!(r.is_err());
    }

    #[test]
    fn stream_drivers_run() {
        stream::<rc_rc4::Rc4, rc_rc4::Rc4>(200, 1..=256);
        stream_iv::<ctr::Ctr128BE<aes::Aes128>, ctr::Ctr128BE<aes::Aes128>>(100);
        stream_iv::<ctr::Ctr32BE<aes::Aes128>, ctr::Ctr32BE<aes::Aes128>>(50);
    }

    #[test]
    fn stream_driver_catches_a_different_cipher() {
        let r =
            catch_unwind(|| stream_iv::<ctr::Ctr128BE<aes::Aes128>, ctr::Ctr128LE<aes::Aes128>>(3));
        assert!(r.is_err());
    }

    #[test]
    fn block_drivers_run_and_catch_a_wrong_mode() {
        ecb::<aes::Aes192, aes::Aes192>(200, 24..=24);
        type E = cbc::Encryptor<aes::Aes128>;
        type D = cbc::Decryptor<aes::Aes128>;
        block_mode::<E, D, E, D>(200);
        let r = catch_unwind(|| {
            // ECB-like "mode" vs CBC: differs once there is a second block.
            block_mode::<E, D, cbc::Encryptor<aes::Aes128>, WrongDec>(50)
        });
        assert!(r.is_err());
    }

    /// MD5 of the message with one byte appended: a plausible, wrong digest.
    #[derive(Clone, Default)]
    struct WrongMd5(rc_md5::Md5);
    impl digest::HashMarker for WrongMd5 {}
    impl digest::OutputSizeUser for WrongMd5 {
        type OutputSize = digest::consts::U16;
    }
    impl digest::Update for WrongMd5 {
        fn update(&mut self, data: &[u8]) {
            digest::Update::update(&mut self.0, data);
        }
    }
    impl digest::FixedOutput for WrongMd5 {
        fn finalize_into(mut self, out: &mut digest::Output<Self>) {
            digest::Update::update(&mut self.0, b"!");
            digest::FixedOutput::finalize_into(self.0, out);
        }
    }

    /// A CBC decryptor that ignores chaining: right for one block only.
    struct WrongDec(aes::Aes128, cipher::Block<aes::Aes128>);
    impl cipher::BlockSizeUser for WrongDec {
        type BlockSize = cipher::consts::U16;
    }
    impl cipher::KeySizeUser for WrongDec {
        type KeySize = cipher::consts::U16;
    }
    impl cipher::IvSizeUser for WrongDec {
        type IvSize = cipher::consts::U16;
    }
    impl KeyIvInit for WrongDec {
        fn new(key: &cipher::Key<Self>, iv: &cipher::Iv<Self>) -> Self {
            Self(aes::Aes128::new(key), *iv)
        }
    }
    impl BlockModeDecrypt for WrongDec {
        fn decrypt_with_backend(
            &mut self,
            _f: impl cipher::BlockModeDecClosure<BlockSize = Self::BlockSize>,
        ) {
            unreachable!("the driver only calls decrypt_blocks")
        }
        fn decrypt_blocks(&mut self, blocks: &mut [cipher::Block<Self>]) {
            for b in blocks {
                self.0.decrypt_block(b);
                b.iter_mut().zip(self.1.iter()).for_each(|(x, y)| *x ^= y);
            }
        }
    }
}
