//! Seeded random cases against OpenSSL 3 (with its legacy provider) for every algorithm
//! it shares with this workspace (issue 11): AES-128/192/256 (ECB, CBC both ways, CTR),
//! Camellia-128/256 (ECB, CBC, CTR), DES, 3DES, Blowfish, CAST5, RC2 (ECB, CBC both
//! ways), RC4, MD5, SHA-1 and RIPEMD-160. Ours runs through our `cbc`/`ctr`.
//!
//! Needs `--features openssl` (`cargo xtask ci` runs it where OpenSSL's development files
//! are installed). `TESTKIT_CASES` sets the cases per algorithm and mode.
#![cfg(feature = "openssl")]

use cipher::{BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit};
use cipher::{StreamCipher, array::Array};
use digest::Digest;
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use openssl::md::Md;
use openssl::md_ctx::MdCtx;
use openssl::provider::Provider;
use testkit::{Rng, cases, seed};

const CASES: usize = 300;

/// Loads the default and legacy providers once for the whole process and keeps them
/// (unloading them while other test threads use them corrupts OpenSSL's state).
fn providers() {
    static LOADED: std::sync::Once = std::sync::Once::new();
    LOADED.call_once(|| {
        for name in ["default", "legacy"] {
            let p = Provider::try_load(None, name, true)
                .unwrap_or_else(|e| panic!("OpenSSL {name} provider: {e}"));
            std::mem::forget(p);
        }
    });
}

/// OpenSSL's `name` over `data` without padding, encrypting or decrypting.
fn ossl(name: &str, key: &[u8], iv: Option<&[u8]>, data: &[u8], enc: bool) -> Vec<u8> {
    let cipher = Cipher::fetch(None, name, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut ctx = CipherCtx::new().unwrap();
    if enc {
        ctx.encrypt_init(Some(&cipher), None, None).unwrap();
    } else {
        ctx.decrypt_init(Some(&cipher), None, None).unwrap();
    }
    ctx.set_key_length(key.len()).unwrap();
    if enc {
        ctx.encrypt_init(None, Some(key), iv).unwrap();
    } else {
        ctx.decrypt_init(None, Some(key), iv).unwrap();
    }
    ctx.set_padding(false);
    let mut out = vec![0; data.len() + 32];
    let n = ctx.cipher_update(data, Some(&mut out)).unwrap();
    let m = ctx.cipher_final(&mut out[n..]).unwrap();
    out.truncate(n + m);
    out
}

fn blocks<N: cipher::array::ArraySize>(data: &[u8]) -> Vec<Array<u8, N>> {
    data.chunks(N::USIZE)
        .map(|c| Array::try_from(c).unwrap())
        .collect()
}

fn flat<N: cipher::array::ArraySize>(b: &[Array<u8, N>]) -> Vec<u8> {
    b.iter().flat_map(|x| x.iter().copied()).collect()
}

/// ECB and CBC (both directions) of block cipher `C` with `key_len`-byte keys against
/// OpenSSL's `ecb`/`cbc` names.
fn block_cipher<C>(seed_id: u64, key_len: usize, ecb: &str, cbc_name: &str)
where
    C: KeyInit + BlockCipherEncrypt + cipher::BlockCipherDecrypt + Clone,
{
    use cipher::typenum::Unsigned;
    let bs = C::BlockSize::USIZE;
    let mut rng = Rng::new(seed(seed_id));
    for case in 0..cases(CASES) {
        let key = rng.bytes(key_len);
        let iv = rng.bytes(bs);
        let n = rng.below(100);
        let data = rng.bytes(n * bs);
        let c = C::new_from_slice(&key).unwrap();
        let what = |m: &str| format!("{ecb} {m}: case {case}, key {key:02x?}, {n} blocks");

        let mut b = blocks::<C::BlockSize>(&data);
        c.encrypt_blocks(&mut b);
        assert_eq!(
            flat(&b),
            ossl(ecb, &key, None, &data, true),
            "{}",
            what("ECB")
        );

        let mut b = blocks::<C::BlockSize>(&data);
        cbc::Encryptor::<C>::inner_iv_slice_init(c.clone(), &iv)
            .unwrap()
            .encrypt_blocks(&mut b);
        let ct = flat(&b);
        assert_eq!(
            ct,
            ossl(cbc_name, &key, Some(&iv), &data, true),
            "{}",
            what("CBC enc")
        );
        let mut b = blocks::<C::BlockSize>(&ct);
        cbc::Decryptor::<C>::inner_iv_slice_init(c.clone(), &iv)
            .unwrap()
            .decrypt_blocks(&mut b);
        assert_eq!(flat(&b), data, "{}", what("CBC dec"));
        assert_eq!(
            ossl(cbc_name, &key, Some(&iv), &ct, false),
            data,
            "{}",
            what("OpenSSL CBC dec")
        );
    }
}

/// CTR with a 128-bit big-endian counter (`ctr::Ctr128BE`) against OpenSSL's `name`.
fn ctr128<C>(seed_id: u64, key_len: usize, name: &str)
where
    C: KeyInit + BlockCipherEncrypt + cipher::BlockSizeUser<BlockSize = cipher::consts::U16>,
{
    let mut rng = Rng::new(seed(seed_id));
    for case in 0..cases(CASES) {
        let key = rng.bytes(key_len);
        // Half the cases start near the counter's wrap, which OpenSSL carries across all
        // 128 bits as Ctr128BE does.
        let mut iv = rng.bytes(16);
        if rng.below(2) == 0 {
            iv[8..].fill(0xff);
        }
        let len = rng.msg_len();
        let data = rng.bytes(len);
        let mut buf = data.clone();
        let c = C::new_from_slice(&key).unwrap();
        let core = ctr::CtrCore::<C, ctr::flavors::Ctr128BE>::inner_iv_slice_init(c, &iv).unwrap();
        ctr::Ctr128BE::<C>::from_core(core).apply_keystream(&mut buf);
        assert_eq!(
            buf,
            ossl(name, &key, Some(&iv), &data, true),
            "{name} case {case}"
        );
    }
}

use cipher::InnerIvInit;

#[test]
fn aes() {
    providers();
    block_cipher::<aes::Aes128>(0x0551_0001, 16, "AES-128-ECB", "AES-128-CBC");
    block_cipher::<aes::Aes192>(0x0551_0002, 24, "AES-192-ECB", "AES-192-CBC");
    block_cipher::<aes::Aes256>(0x0551_0003, 32, "AES-256-ECB", "AES-256-CBC");
    ctr128::<aes::Aes128>(0x0551_0011, 16, "AES-128-CTR");
    ctr128::<aes::Aes192>(0x0551_0012, 24, "AES-192-CTR");
    ctr128::<aes::Aes256>(0x0551_0013, 32, "AES-256-CTR");
}

#[test]
fn camellia() {
    providers();
    block_cipher::<camellia::Camellia128>(0x0551_0004, 16, "CAMELLIA-128-ECB", "CAMELLIA-128-CBC");
    block_cipher::<camellia::Camellia256>(0x0551_0005, 32, "CAMELLIA-256-ECB", "CAMELLIA-256-CBC");
    ctr128::<camellia::Camellia128>(0x0551_0014, 16, "CAMELLIA-128-CTR");
    ctr128::<camellia::Camellia256>(0x0551_0015, 32, "CAMELLIA-256-CTR");
}

#[test]
fn des_family() {
    providers();
    block_cipher::<des::Des>(0x0551_0006, 8, "DES-ECB", "DES-CBC");
    block_cipher::<des::TdesEde3>(0x0551_0007, 24, "DES-EDE3-ECB", "DES-EDE3-CBC");
    block_cipher::<des::TdesEde2>(0x0551_0008, 16, "DES-EDE-ECB", "DES-EDE-CBC");
}

#[test]
fn legacy_64bit_ciphers() {
    providers();
    for len in [4, 16, 56] {
        block_cipher::<blowfish::Blowfish>(0x0551_0009 + len as u64, len, "BF-ECB", "BF-CBC");
    }
    for len in [5, 16] {
        block_cipher::<cast5::Cast5>(0x0551_0100 + len as u64, len, "CAST5-ECB", "CAST5-CBC");
    }
    block_cipher::<rc2::Rc2>(0x0551_0200, 16, "RC2-ECB", "RC2-CBC");
}

#[test]
fn rc4() {
    providers();
    let mut rng = Rng::new(seed(0x0551_0300));
    for case in 0..cases(CASES) {
        let key = rng.bytes_in(5, 64);
        let len = rng.msg_len();
        let data = rng.bytes(len);
        let mut ours = data.clone();
        rc4::Rc4::new_from_slice(&key)
            .unwrap()
            .apply_keystream(&mut ours);
        assert_eq!(
            ours,
            ossl("RC4", &key, None, &data, true),
            "RC4 case {case}"
        );
    }
}

fn digest<D: Digest>(seed_id: u64, name: &str) {
    let md = Md::fetch(None, name, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut rng = Rng::new(seed(seed_id));
    for case in 0..cases(CASES) {
        let len = rng.msg_len();
        let data = rng.bytes(len);
        let mut ctx = MdCtx::new().unwrap();
        ctx.digest_init(&md).unwrap();
        ctx.digest_update(&data).unwrap();
        let mut want = vec![0; md.size()];
        ctx.digest_final(&mut want).unwrap();
        // Ours fed in random pieces.
        let mut d = D::new();
        let mut start = 0;
        for cut in rng.cuts(data.len(), 4).into_iter().chain([data.len()]) {
            d.update(&data[start..cut]);
            start = cut;
        }
        assert_eq!(
            d.finalize().to_vec(),
            want,
            "{name} case {case}, {} bytes",
            data.len()
        );
    }
}

#[test]
fn digests() {
    providers();
    digest::<md5::Md5>(0x0551_0400, "MD5");
    digest::<sha1::Sha1>(0x0551_0401, "SHA1");
    digest::<ripemd::Ripemd160>(0x0551_0402, "RIPEMD160");
}
