//! `cargo xtask dropin`: our crates as drop-in replacements, seen from a user's project.
//!
//! Writes a throwaway project under `<target>/dropin/` that depends on **published**
//! crates (`hmac`, `rc4`, …) and patches crates.io with our crates
//! (`[patch.crates-io] md-5 = { path = … }`), runs known-answer vectors through the
//! published crates' APIs, and proves the patch took effect (`cargo tree -i <crate>`
//! must show our path). One table entry per check: a new crate adds one [`DropIn`].

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::util::{Cmd, Result, target_dir};
use crate::workspace::Workspace;

/// One drop-in check.
pub struct DropIn {
    /// Names the check (and its module in the generated `main.rs`).
    pub name: &'static str,
    /// Our crates it patches in; the entry is skipped while one of them does not exist.
    pub patches: &'static [&'static str],
    /// `[dependencies]` lines (published versions, as a user writes them).
    pub deps: &'static str,
    /// A module body defining `pub fn check() -> Result<(), String>`; it may use
    /// `crate::hex("…")` and `crate::expect(what, got, want)`.
    pub check: &'static str,
}

pub const DROPINS: &[DropIn] = &[
    DropIn {
        name: "hmac_md5",
        patches: &["md-5"],
        deps: "hmac = \"0.13\"\nmd-5 = \"0.11\"",
        check: HMAC_MD5,
    },
    DropIn {
        name: "hmac_sha1",
        patches: &["sha1"],
        deps: "hmac = \"0.13\"\nsha1 = \"0.11\"",
        check: HMAC_SHA1,
    },
    DropIn {
        name: "hmac_ripemd160",
        patches: &["ripemd"],
        deps: "hmac = \"0.13\"\nripemd = \"0.2\"",
        check: HMAC_RIPEMD160,
    },
    DropIn {
        name: "md2",
        patches: &["md2"],
        deps: "md2 = \"0.11\"",
        check: MD2,
    },
    DropIn {
        name: "rc4",
        patches: &["rc4"],
        deps: "rc4 = \"0.2\"",
        check: RC4,
    },
    DropIn {
        name: "aes_gcm",
        patches: &["aes"],
        deps: "aes-gcm = \"0.11\"\naes = \"0.9\"",
        check: AES_GCM,
    },
    DropIn {
        name: "aes_ctr_cbc",
        patches: &["aes"],
        deps: "aes = \"0.9\"\nctr = \"0.10\"\ncbc = \"0.2\"",
        check: AES_CTR_CBC,
    },
];

/// NIST CAVP GCM vectors (`gcmEncryptExtIV{128,192,256}.rsp`, 96-bit IV, 128-bit tag,
/// via PyPI cryptography-vectors 50.0.2) through the published `aes-gcm` 0.11: seal,
/// open, and a forged ciphertext must fail to open.
const AES_GCM: &str = r#"
use aes_gcm::aead::{Aead, AeadInOut, KeyInit, Payload};
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm, Nonce};

type Aes192Gcm = AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;

/// NIST CAVP GCM (gcmEncryptExtIV*.rsp, 96-bit IV, 128-bit tag): key, IV, PT, AAD, CT, tag.
const VECTORS: &[(&str, &str, &str, &str, &str, &str)] = &[
    // gcmEncryptExtIV128.rsp, [PTlen = 0] [AADlen = 0] Count = 0
    ("11754cd72aec309bf52f7687212e8957", "3c819d9a9bed087615030b65", "", "", "", "250327c674aaf477aef2675748cf6971"),
    // gcmEncryptExtIV128.rsp, [PTlen = 128] [AADlen = 0] Count = 0
    ("7fddb57453c241d03efbed3ac44e371c", "ee283a3fc75575e33efd4887", "d5de42b461646c255c87bd2962d3b9a2", "", "2ccda4a5415cb91e135c2a0f78c9b2fd", "b36d1df9b9d5e596f83e8b7f52971cb3"),
    // gcmEncryptExtIV128.rsp, [PTlen = 256] [AADlen = 128] Count = 0
    ("298efa1ccf29cf62ae6824bfc19557fc", "6f58a93fe1d207fae4ed2f6d", "cc38bccd6bc536ad919b1395f5d63801f99f8068d65ca5ac63872daf16b93901", "021fafd238463973ffe80256e5b1c6b1", "dfce4e9cd291103d7fe4e63351d9e79d3dfd391e3267104658212da96521b7db", "542465ef599316f73a7a560509a2d9f2"),
    // gcmEncryptExtIV128.rsp, [PTlen = 408] [AADlen = 160] Count = 0
    ("fe47fcce5fc32665d2ae399e4eec72ba", "5adb9609dbaeb58cbd6e7275", "7c0e88c88899a779228465074797cd4c2e1498d259b54390b85e3eef1c02df60e743f1b840382c4bccaf3bafb4ca8429bea063", "88319d6e1d3ffa5f987199166c8a9b56c2aeba5a", "98f4826f05a265e6dd2be82db241c0fbbbf9ffb1c173aa83964b7cf5393043736365253ddbc5db8778371495da76d269e5db3e", "291ef1982e4defedaa2249f898556b47"),
    // gcmEncryptExtIV128.rsp, [PTlen = 408] [AADlen = 720] Count = 0
    ("2c1f21cf0f6fb3661943155c3e3d8492", "23cb5ff362e22426984d1907", "42f758836986954db44bf37c6ef5e4ac0adaf38f27252a1b82d02ea949c8a1a2dbc0d68b5615ba7c1220ff6510e259f06655d8", "5d3624879d35e46849953e45a32a624d6a6c536ed9857c613b572b0333e701557a713e3f010ecdf9a6bd6c9e3e44b065208645aff4aabee611b391528514170084ccf587177f4488f33cfb5e979e42b6e1cfc0a60238982a7aec", "81824f0e0d523db30d3da369fdc0d60894c7a0a20646dd015073ad2732bd989b14a222b6ad57af43e1895df9dca2a5344a62cc", "57a3ee28136e94c74838997ae9823f3a"),
    // gcmEncryptExtIV192.rsp, [PTlen = 0] [AADlen = 0] Count = 0
    ("aa740abfadcda779220d3b406c5d7ec09a77fe9d94104539", "ab2265b4c168955561f04315", "", "", "", "f149e2b5f0adaa9842ca5f45b768a8fc"),
    // gcmEncryptExtIV192.rsp, [PTlen = 128] [AADlen = 0] Count = 0
    ("fbc0b4c56a714c83217b2d1bcadd2ed2e9efb0dcac6cc19f", "5f4b43e811da9c470d6a9b01", "d2ae38c4375954835d75b8e4c2f9bbb4", "", "69482957e6be5c54882d00314e0259cf", "191e9f29bef63a26860c1e020a21137e"),
    // gcmEncryptExtIV192.rsp, [PTlen = 256] [AADlen = 128] Count = 0
    ("0d4a900d1b0bb5b7be2438c2ba48fc45134cc198108cf885", "0bd44ff4d20c15d04fc61ee7", "567ccb3fa0db89708af3ff2bb029ddec52c66947585d291a28564bf56db706f7", "9ea42c50a7fdb85e141aa084b46bde12", "2f8a42cd183b0314fd20a3d97d9e0c5217b0f088d2ca87a8290d4bae69ad83f5", "de414592d77f2f0b50df4aec714fad43"),
    // gcmEncryptExtIV192.rsp, [PTlen = 408] [AADlen = 160] Count = 0
    ("9900227ae0fccbb0d35ecf954629c969f36e539399f32ebe", "1398992bfbd63149c14ba2a2", "9d4227eed28b9738f21541c4755a923a43ba20d6f3d6a6b7e31e56f1502f5e93ed4c00511c6a7daeb0281ab947e91756638154", "788b6885feff23fc27bf9c462877b642ba1aa68d", "7b6ee7dd98eda9b20edb414711d9710de402b01950a6712e5809f608f7c0aa0fba4098f145fea6886d7baf51fcd182c8febf49", "f22c7c21f5ece2de684821092194f26c"),
    // gcmEncryptExtIV192.rsp, [PTlen = 408] [AADlen = 720] Count = 0
    ("50f5cc5e33774f383235c64e77c502ca6c5d06ab0af6be04", "9d4c766490224946d91a99a7", "35df59329eb5fc30c28791164bf9b374df228d2be467414727f457a9dd0f079f7342e23adb06929ce0ad607116ee11718ce320", "4feca4174889298e992b765dfa67d33219f9b23898f8e869b7f1fbf5d71d87b44edd963d1055618b9db7bffe96b7856f3197868d6ce5e755a6c751661773e1def403a4cf036151ecae67b35f2891285420956604ef31c9aab341", "77670f6520a34dfc05819a10f322b30e397473fe51f8274bfb105c2eec37e24951abaef11e73c3c425a8c4b2d8c3ffeb8ed924", "5349ef7a70499f2760123c0d5dcf5a6d"),
    // gcmEncryptExtIV256.rsp, [PTlen = 0] [AADlen = 0] Count = 0
    ("b52c505a37d78eda5dd34f20c22540ea1b58963cf8e5bf8ffa85f9f2492505b4", "516c33929df5a3284ff463d7", "", "", "", "bdc1ac884d332457a1d2664f168c76f0"),
    // gcmEncryptExtIV256.rsp, [PTlen = 128] [AADlen = 0] Count = 0
    ("31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22", "0d18e06c7c725ac9e362e1ce", "2db5168e932556f8089a0622981d017d", "", "fa4362189661d163fcd6a56d8bf0405a", "d636ac1bbedd5cc3ee727dc2ab4a9489"),
    // gcmEncryptExtIV256.rsp, [PTlen = 256] [AADlen = 128] Count = 0
    ("37ccdba1d929d6436c16bba5b5ff34deec88ed7df3d15d0f4ddf80c0c731ee1f", "5c1b21c8998ed6299006d3f9", "ad4260e3cdc76bcc10c7b2c06b80b3be948258e5ef20c508a81f51e96a518388", "22ed235946235a85a45bc5fad7140bfa", "3b335f8b08d33ccdcad228a74700f1007542a4d1e7fc1ebe3f447fe71af29816", "1fbf49cc46f458bf6e88f6370975e6d4"),
    // gcmEncryptExtIV256.rsp, [PTlen = 408] [AADlen = 160] Count = 0
    ("24501ad384e473963d476edcfe08205237acfd49b5b8f33857f8114e863fec7f", "9ff18563b978ec281b3f2794", "27f348f9cdc0c5bd5e66b1ccb63ad920ff2219d14e8d631b3872265cf117ee86757accb158bd9abb3868fdc0d0b074b5f01b2c", "adb5ec720ccf9898500028bf34afccbcaca126ef", "eb7cb754c824e8d96f7c6d9b76c7d26fb874ffbf1d65c6f64a698d839b0b06145dae82057ad55994cf59ad7f67c0fa5e85fab8", "bc95c532fecc594c36d1550286a7a3f0"),
    // gcmEncryptExtIV256.rsp, [PTlen = 408] [AADlen = 720] Count = 0
    ("148579a3cbca86d5520d66c0ec71ca5f7e41ba78e56dc6eebd566fed547fe691", "b08a5ea1927499c6ecbfd4e0", "9d0b15fdf1bd595f91f8b3abc0f7dec927dfd4799935a1795d9ce00c9b879434420fe42c275a7cd7b39d638fb81ca52b49dc41", "e4f963f015ffbb99ee3349bbaf7e8e8e6c2a71c230a48f9d59860a29091d2747e01a5ca572347e247d25f56ba7ae8e05cde2be3c97931292c02370208ecd097ef692687fecf2f419d3200162a6480a57dad408a0dfeb492e2c5d", "2097e372950a5e9383c675e89eea1c314f999159f5611344b298cda45e62843716f215f82ee663919c64002a5c198d7878fd3f", "adbecdb0d5c2224d804d2886ff9a5760"),
];

fn run<C: KeyInit + AeadInOut>(i: usize, key: &[u8], iv: &[u8], pt: &[u8], aad: &[u8], want: &[u8]) -> Result<(), String> {
    let c = C::new_from_slice(key).map_err(|e| e.to_string())?;
    let nonce = Nonce::<C::NonceSize>::try_from(iv).map_err(|_| "IV length".to_string())?;
    let got = c.encrypt(&nonce, Payload { msg: pt, aad }).map_err(|e| e.to_string())?;
    crate::expect(&format!("NIST GCM vector {i} (ciphertext || tag)"), &got, want)?;
    let back = c.decrypt(&nonce, Payload { msg: &got, aad }).map_err(|e| e.to_string())?;
    crate::expect(&format!("NIST GCM vector {i} decryption"), &back, pt)?;
    let mut bad = got.clone();
    bad[0] ^= 1;
    if c.decrypt(&nonce, Payload { msg: &bad, aad }).is_ok() {
        return Err(format!("NIST GCM vector {i}: a forged ciphertext verified"));
    }
    Ok(())
}

pub fn check() -> Result<(), String> {
    for (i, (key, iv, pt, aad, ct, tag)) in VECTORS.iter().enumerate() {
        let (key, iv, pt, aad) = (crate::hex(key), crate::hex(iv), crate::hex(pt), crate::hex(aad));
        let mut want = crate::hex(ct);
        want.extend(crate::hex(tag));
        match key.len() {
            16 => run::<Aes128Gcm>(i, &key, &iv, &pt, &aad, &want)?,
            24 => run::<Aes192Gcm>(i, &key, &iv, &pt, &aad, &want)?,
            32 => run::<Aes256Gcm>(i, &key, &iv, &pt, &aad, &want)?,
            n => return Err(format!("{n}-byte key")),
        }
    }
    Ok(())
}
"#;

/// NIST SP 800-38A F.2.1/F.2.2 (CBC-AES128) and F.5.1/F.5.2 (CTR-AES128) through the
/// published `cbc` 0.2 and `ctr` 0.10 (CTR in pieces and after a seek).
const AES_CTR_CBC: &str = r#"
use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, StreamCipher, StreamCipherSeek};

/// NIST SP 800-38A, F.2.1/F.2.2 (CBC-AES128) and F.5.1/F.5.2 (CTR-AES128).
const KEY: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                  30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const CBC_IV: &str = "000102030405060708090a0b0c0d0e0f";
const CBC_CT: &str = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
                      73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7";
const CTR_IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const CTR_CT: &str = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
                      5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee";

pub fn check() -> Result<(), String> {
    let (key, pt) = (crate::hex(KEY), crate::hex(PT));
    let blocks = |d: &[u8]| -> Vec<aes::Block> { d.chunks(16).map(|c| c.try_into().unwrap()).collect() };
    let flat = |b: &[aes::Block]| -> Vec<u8> { b.iter().flat_map(|x| x.iter().copied()).collect() };

    let mut b = blocks(&pt);
    cbc::Encryptor::<aes::Aes128>::new_from_slices(&key, &crate::hex(CBC_IV))
        .map_err(|e| e.to_string())?
        .encrypt_blocks(&mut b);
    crate::expect("SP 800-38A F.2.1 CBC-AES128.Encrypt", &flat(&b), &crate::hex(CBC_CT))?;
    cbc::Decryptor::<aes::Aes128Dec>::new_from_slices(&key, &crate::hex(CBC_IV))
        .map_err(|e| e.to_string())?
        .decrypt_blocks(&mut b);
    crate::expect("SP 800-38A F.2.2 CBC-AES128.Decrypt", &flat(&b), &pt)?;

    let mut buf = pt.clone();
    let mut c = ctr::Ctr128BE::<aes::Aes128>::new_from_slices(&key, &crate::hex(CTR_IV))
        .map_err(|e| e.to_string())?;
    c.apply_keystream(&mut buf[..5]);
    c.apply_keystream(&mut buf[5..]);
    crate::expect("SP 800-38A F.5.1 CTR-AES128.Encrypt (in pieces)", &buf, &crate::hex(CTR_CT))?;
    c.seek(0u64);
    c.apply_keystream(&mut buf);
    crate::expect("SP 800-38A F.5.2 CTR-AES128.Decrypt", &buf, &pt)?;
    Ok(())
}
"#;

/// RFC 2202 §2 (HMAC-MD5 test cases 1–7) through the published `hmac`, and two
/// RFC 1321 §A.5 digests through `digest`.
const HMAC_MD5: &str = r#"
use hmac::Hmac;
use md5::{Digest, Md5};

pub fn check() -> Result<(), String> {
    crate::hmac_cases::<Hmac<Md5>>("RFC 2202 HMAC-MD5", 16, [
        "9294727a3638bb1c13f48ef8158bfc9d", "750c783e6ab0b503eaa86e310a5db738",
        "56be34521d144c88dbb8c733f0e8b3f6", "697eaf0aca3a3aea3a75164746ffaa79",
        "56461ef2342edc00f9bab995690efd4c", "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd",
        "6f630fad67cda0ee1fb1f562db3aa53e",
    ])?;
    crate::expect("RFC 1321 md5(\"abc\")", &Md5::digest(b"abc")[..],
        &crate::hex("900150983cd24fb0d6963f7d28e17f72"))?;
    crate::expect("RFC 1321 md5(digits x8)", &Md5::digest("1234567890".repeat(8).as_bytes())[..],
        &crate::hex("57edf4a22be3c955ac49da2e2107b67a"))?;
    Ok(())
}
"#;

/// RFC 2202 §3 (HMAC-SHA1 test cases 1–7) through the published `hmac`, and two
/// FIPS 180 digests through `digest`.
const HMAC_SHA1: &str = r#"
use hmac::Hmac;
use sha1::{Digest, Sha1};

pub fn check() -> Result<(), String> {
    crate::hmac_cases::<Hmac<Sha1>>("RFC 2202 HMAC-SHA1", 20, [
        "b617318655057264e28bc0b6fb378c8ef146be00", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
        "125d7342b9ac11cd91a39af48aa17b4f63f175d3", "4c9007f4026250c6bc8414f9bf50c86c2d7235da",
        "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04", "aa4ae5e15272d00e95705637ce8a3b55ed402112",
        "e8e99d0f45237d786d6bbaa7965c7808bbff1a91",
    ])?;
    crate::expect("FIPS 180 sha1(\"abc\")", &Sha1::digest(b"abc")[..],
        &crate::hex("a9993e364706816aba3e25717850c26c9cd0d89d"))?;
    crate::expect("FIPS 180 sha1(448-bit message)",
        &Sha1::digest(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")[..],
        &crate::hex("84983e441c3bd26ebaae4aa1f95129e5e54670f1"))?;
    Ok(())
}
"#;

/// RFC 2286 §2 (HMAC-RIPEMD160 test cases 1–7) through the published `hmac`, and the
/// RIPEMD authors' digests of "abc" (all four widths) and of one million 'a'.
const HMAC_RIPEMD160: &str = r#"
use hmac::Hmac;
use ripemd::{Digest, Ripemd128, Ripemd160, Ripemd256, Ripemd320};

pub fn check() -> Result<(), String> {
    crate::hmac_cases::<Hmac<Ripemd160>>("RFC 2286 HMAC-RIPEMD160", 20, [
        "24cb4bd67d20fc1a5d2ed7732dcc39377f0a5668", "dda6c0213a485a9e24f4742064a7f033b43c4069",
        "b0b105360de759960ab4f35298e116e295d8e7c1", "d5ca862f4d21d5e610e18b4cf1beb97a4365ecf4",
        "7619693978f91d90539ae786500ff3d8e0518e39", "6466ca07ac5eac29e1bd523e5ada7605b791fd8b",
        "69ea60798d71616cce5fd0871e23754cd75d5a0a",
    ])?;
    crate::expect("ripemd128(\"abc\")", &Ripemd128::digest(b"abc")[..],
        &crate::hex("c14a12199c66e4ba84636b0f69144c77"))?;
    crate::expect("ripemd160(\"abc\")", &Ripemd160::digest(b"abc")[..],
        &crate::hex("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"))?;
    crate::expect("ripemd256(\"abc\")", &Ripemd256::digest(b"abc")[..],
        &crate::hex("afbd6e228b9d8cbbcef5ca2d03e6dba10ac0bc7dcbe4680e1e42d2e975459b65"))?;
    crate::expect("ripemd320(\"abc\")", &Ripemd320::digest(b"abc")[..],
        &crate::hex("de4c01b3054f8930a79d09ae738e92301e5a17085beffdc1b8d116713e74f82fa942d64cdbc4682d"))?;
    crate::expect("ripemd160(1M x 'a')", &Ripemd160::digest(vec![b'a'; 1_000_000])[..],
        &crate::hex("52783243c1697bdbe16d37f97f68f08325dc1528"))?;
    Ok(())
}
"#;

/// RFC 1319 §A.5 (all seven MD2 test-suite digests) through `digest`, one shot and
/// byte by byte.
const MD2: &str = r#"
use md2::{Digest, Md2};

pub fn check() -> Result<(), String> {
    let cases: [(&str, &str); 7] = [
        ("", "8350e5a3e24c153df2275c9f80692773"),
        ("a", "32ec01ec4a6dac72c0ab96fb34c0b5d1"),
        ("abc", "da853b0d3f88d99b30283a69e6ded6bb"),
        ("message digest", "ab4f496bfb2a530b219ff33031fe06b0"),
        ("abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "da33def2a42df13975352846c30338cd"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "d5976f79d83d3a0dc9806c3c66f3efd8"),
    ];
    for (msg, want) in cases {
        let what = format!("RFC 1319 md2({msg:?})");
        crate::expect(&what, &Md2::digest(msg.as_bytes())[..], &crate::hex(want))?;
        let mut h = Md2::new();
        msg.as_bytes().iter().for_each(|b| h.update([*b]));
        crate::expect(&format!("{what} (bytewise)"), &h.finalize()[..], &crate::hex(want))?;
    }
    Ok(())
}
"#;

/// The seven test cases of RFC 2202 (HMAC-MD5, HMAC-SHA1) and RFC 2286 (HMAC-RIPEMD)
/// share their keys and messages; `key_len` is the hash's output length (cases 1, 3, 5).
/// Each case runs whole, then byte by byte through the constant-time `verify_slice`.
const HMAC_HELPER: &str = r#"
fn hmac_cases<M: hmac::Mac + hmac::KeyInit>(label: &str, key_len: usize, want: [&str; 7])
    -> Result<(), String> {
    let aa80 = [0xaa; 80];
    let key4: Vec<u8> = (1..=25).collect();
    let (k1, k3, k5) = (vec![0x0b; key_len], vec![0xaa; key_len], vec![0x0c; key_len]);
    let cases: [(&[u8], &[u8]); 7] = [
        (&k1, b"Hi There"),
        (b"Jefe", b"what do ya want for nothing?"),
        (&k3, &[0xdd; 50]),
        (&key4, &[0xcd; 50]),
        (&k5, b"Test With Truncation"),
        (&aa80, b"Test Using Larger Than Block-Size Key - Hash Key First"),
        (&aa80, b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data"),
    ];
    for (i, ((key, data), want)) in cases.iter().zip(want).enumerate() {
        let mut mac = <M as hmac::KeyInit>::new_from_slice(key).map_err(|e| e.to_string())?;
        mac.update(data);
        expect(&format!("{label} case {}", i + 1), &mac.finalize().into_bytes()[..], &hex(want))?;
        let mut mac = <M as hmac::KeyInit>::new_from_slice(key).map_err(|e| e.to_string())?;
        data.iter().for_each(|b| mac.update(&[*b]));
        mac.verify_slice(&hex(want))
            .map_err(|_| format!("{label} case {} (bytewise) mismatch", i + 1))?;
    }
    Ok(())
}
"#;

/// RFC 6229 §2 keystreams (keys of 40, 128 and 256 bits and §3's 0x833222772a), all 18
/// offsets, through `StreamCipher::apply_keystream` in one call and in odd-sized pieces.
const RC4: &str = r#"
use rc4::{KeyInit, Rc4, StreamCipher};

const OFFSETS: [usize; 18] =
    [0, 16, 240, 256, 496, 512, 752, 768, 1008, 1024, 1520, 1536, 2032, 2048, 3056, 3072, 4080, 4096];

const VECTORS: [(&str, [&str; 18]); 4] = [
    ("0102030405", [
        "b2396305f03dc027ccc3524a0a1118a8", "6982944f18fc82d589c403a47a0d0919",
        "28cb1132c96ce286421dcaadb8b69eae", "1cfcf62b03eddb641d77dfcf7f8d8c93",
        "42b7d0cdd918a8a33dd51781c81f4041", "6459844432a7da923cfb3eb4980661f6",
        "ec10327bde2beefd18f9277680457e22", "eb62638d4f0ba1fe9fca20e05bf8ff2b",
        "45129048e6a0ed0b56b490338f078da5", "30abbcc7c20b01609f23ee2d5f6bb7df",
        "3294f744d8f9790507e70f62e5bbceea", "d8729db41882259bee4f825325f5a130",
        "1eb14a0c13b3bf47fa2a0ba93ad45b8b", "cc582f8ba9f265e2b1be9112e975d2d7",
        "f2e30f9bd102ecbf75aaade9bc35c43c", "ec0e11c479dc329dc8da7968fe965681",
        "068326a2118416d21f9d04b2cd1ca050", "ff25b58995996707e51fbdf08b34d875",
    ]),
    ("0102030405060708090a0b0c0d0e0f10", [
        "9ac7cc9a609d1ef7b2932899cde41b97", "5248c4959014126a6e8a84f11d1a9e1c",
        "065902e4b620f6cc36c8589f66432f2b", "d39d566bc6bce3010768151549f3873f",
        "b6d1e6c4a5e4771cad79538df295fb11", "c68c1d5c559a974123df1dbc52a43b89",
        "c5ecf88de897fd57fed301701b82a259", "eccbe13de1fcc91c11a0b26c0bc8fa4d",
        "e7a72574f8782ae26aabcf9ebcd66065", "bdf0324e6083dcc6d3cedd3ca8c53c16",
        "b40110c4190b5622a96116b0017ed297", "ffa0b514647ec04f6306b892ae661181",
        "d03d1bc03cd33d70dff9fa5d71963ebd", "8a44126411eaa78bd51e8d87a8879bf5",
        "fabeb76028ade2d0e48722e46c4615a3", "c05d88abd50357f935a63c59ee537623",
        "ff38265c1642c1abe8d3c2fe5e572bf8", "a36a4c301ae8ac13610ccbc12256cacc",
    ]),
    ("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20", [
        "eaa6bd25880bf93d3f5d1e4ca2611d91", "cfa45c9f7e714b54bdfa80027cb14380",
        "114ae344ded71b35f2e60febad727fd8", "02e1e7056b0f623900496422943e97b6",
        "91cb93c787964e10d9527d999c6f936b", "49b18b42f8e8367cbeb5ef104ba1c7cd",
        "87084b3ba700bade955610672745b374", "e7a7b9e9ec540d5ff43bdb12792d1b35",
        "c799b596738f6b018c76c74b1759bd90", "7fec5bfd9f9b89ce6548309092d7e958",
        "40f250b26d1f096a4afd4c340a588815", "3e34135c79db010200767651cf263073",
        "f656abccf88dd827027b2ce917d464ec", "18b62503bfbc077fbabb98f20d98ab34",
        "8aed95ee5b0dcbfbef4eb21d3a3f52f9", "625a1ab00ee39a5327346bddb01a9c18",
        "a13a7c79c7e119b5ab0296ab28c300b9", "f3e4c0a2e02d1d01f7f0a74618af2b48",
    ]),
    ("833222772a", [
        "80ad97bdc973df8a2e879e92a497efda", "20f060c2f2e5126501d3d4fea10d5fc0",
        "faa148e99046181fec6b2085f3b20ed9", "f0daf5bab3d596839857846f73fbfe5a",
        "1c7e2fc4639232fe297584b296996bc8", "3db9b249406cc8edffac55ccd322ba12",
        "e4f9f7e0066154bbd125b745569bc897", "75d5ef262b44c41a9cf63ae14568e1b9",
        "6da453dbf81e82334a3d8866cb50a1e3", "7828d074119cab5c22b294d7a9bfa0bb",
        "adb89cea9a15fbe617295bd04b8ca05c", "6251d87fd4aaae9a7e4ad5c217d3f300",
        "e7119bd6dd9b22afe8f89585432881e2", "785b60fd7ec4e9fcb6545f350d660fab",
        "afecc037fdb7b0838eb3d70bcd268382", "dbc1a7b49d57358cc9fa6d61d73b7cf0",
        "6349d126a37afcba89794f9804914fdc", "bf42c3018c2f7c66bfde524975768115",
    ]),
];

pub fn check() -> Result<(), String> {
    for (key, rows) in VECTORS {
        let key = crate::hex(key);
        let mut whole = vec![0u8; 4112];
        Rc4::new_from_slice(&key).map_err(|e| e.to_string())?.apply_keystream(&mut whole);
        let mut pieces = vec![0u8; 4112];
        let mut rc4 = Rc4::new_from_slice(&key).map_err(|e| e.to_string())?;
        let mut rest = &mut pieces[..];
        for n in [1usize, 15, 64, 3, 255, 1000, 7].iter().cycle() {
            if rest.is_empty() { break; }
            let (now, later) = rest.split_at_mut((*n).min(rest.len()));
            rc4.apply_keystream(now);
            rest = later;
        }
        for (off, want) in OFFSETS.iter().zip(rows) {
            let what = format!("RFC 6229 key {} offset {off}", crate::hex_str(&key));
            crate::expect(&what, &whole[*off..off + 16], &crate::hex(want))?;
            crate::expect(&format!("{what} (in pieces)"), &pieces[*off..off + 16], &crate::hex(want))?;
        }
    }
    let too_long = vec![0u8; 257];
    if Rc4::new_from_slice(&too_long).is_ok() || Rc4::new_from_slice(&[]).is_ok() {
        return Err("rc4 accepted a key outside 1..=256 bytes".into());
    }
    Ok(())
}
"#;

const MAIN_HEAD: &str = r#"//! Generated by `cargo xtask dropin`: published crates, patched with simdcrypt's.

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn hex_str(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn expect(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {}, want {}", hex_str(got), hex_str(want)))
    }
}
"#;

/// The generated `Cargo.toml` and `src/main.rs` for the entries `active`.
fn project(ws: &Workspace, active: &[&DropIn]) -> (String, String) {
    let mut toml = String::from(
        "# Generated by `cargo xtask dropin`: a throwaway user project.\n\
         [package]\nname = \"simdcrypt-dropin\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         # Not a member of the simdcrypt workspace above it.\n[workspace]\n\n[dependencies]\n",
    );
    let mut seen_deps = Vec::new();
    for line in active.iter().flat_map(|d| d.deps.lines()) {
        if !seen_deps.contains(&line) {
            seen_deps.push(line);
            toml.push_str(line);
            toml.push('\n');
        }
    }
    toml.push_str("\n[patch.crates-io]\n");
    let mut seen_patches = Vec::new();
    for name in active.iter().flat_map(|d| d.patches.iter()) {
        if let Some(c) = ws.find(name)
            && !seen_patches.contains(name)
        {
            seen_patches.push(name);
            // A TOML literal string: no escapes, so Windows paths stay as they are.
            let _ = writeln!(toml, "{} = {{ path = '{}' }}", c.package, c.dir.display());
        }
    }
    let mut main = String::from(MAIN_HEAD);
    if seen_deps.iter().any(|d| d.starts_with("hmac ")) {
        main.push_str(HMAC_HELPER);
    }
    for d in active {
        let _ = write!(main, "\nmod check_{} {{{}}}\n", d.name, d.check);
    }
    main.push_str("\nfn main() {\n    let mut failed = 0;\n");
    for d in active {
        let _ = writeln!(
            main,
            "    match check_{0}::check() {{\n        Ok(()) => println!(\"ok   {0}\"),\n        \
             Err(e) => {{ println!(\"FAIL {0}: {{e}}\"); failed += 1; }}\n    }}",
            d.name
        );
    }
    main.push_str("    if failed > 0 {\n        std::process::exit(1);\n    }\n}\n");
    (toml, main)
}

pub fn run(ws: &Workspace) -> Result {
    let mut active = Vec::new();
    for d in DROPINS {
        let missing: Vec<&str> = d
            .patches
            .iter()
            .copied()
            .filter(|p| ws.find(p).is_none())
            .collect();
        if missing.is_empty() {
            active.push(d);
        } else {
            crate::util::skip(format!(
                "dropin {}: crates/{} not in the workspace yet",
                d.name,
                missing.join(", crates/")
            ));
        }
    }
    if active.is_empty() {
        crate::util::skip("dropin: none of its crates exist yet");
        return Ok(());
    }
    let dir = target_dir().join("dropin");
    let (toml, main) = project(ws, &active);
    if crate::util::dry_run() {
        println!("would write {}/Cargo.toml:\n{toml}", dir.display());
    } else {
        fs::create_dir_all(dir.join("src")).map_err(|e| format!("{}: {e}", dir.display()))?;
        write_if_changed(&dir.join("Cargo.toml"), &toml)?;
        write_if_changed(&dir.join("src/main.rs"), &main)?;
    }
    let manifest = dir.join("Cargo.toml").display().to_string();
    let target = dir.join("target").display().to_string();
    // Resolve afresh so the newest published dependents are the ones tested.
    let _ = fs::remove_file(dir.join("Cargo.lock"));
    Cmd::cargo()
        .dir(&dir)
        .args(["run", "--manifest-path", &manifest, "--target-dir", &target])
        .run()?;
    // The proof that the published graph uses our code, not crates.io's.
    let mut patched = Vec::new();
    for name in active.iter().flat_map(|d| d.patches.iter()) {
        if patched.contains(name) {
            continue;
        }
        patched.push(name);
        let ours = ws.get(name)?;
        let tree = Cmd::cargo()
            .dir(&dir)
            .args(["tree", "--manifest-path", &manifest, "-i", &ours.package])
            .env("CARGO_TERM_COLOR", "never");
        println!("$ {}", tree.display());
        if crate::util::dry_run() {
            continue;
        }
        let out = tree.output()?;
        print!("{out}");
        let path = ours.dir.display().to_string();
        if !out.lines().next().is_some_and(|l| l.contains(&path)) {
            return Err(format!(
                "dropin: `cargo tree -i {}` does not show {path}: the [patch.crates-io] did not \
                 take effect (is our version semver-compatible with the published one?)",
                ours.package
            ));
        }
        println!("patched: {} resolves to {path}", ours.package);
    }
    Ok(())
}

fn write_if_changed(path: &Path, text: &str) -> Result {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Crate;
    use std::path::PathBuf;

    #[test]
    fn generated_project() {
        let krate = |package: &str, lib: &str| Crate {
            dir: PathBuf::from(format!("/w/crates/{package}")),
            package: package.into(),
            lib: lib.into(),
            version: Some("0.11.1".into()),
            publish: true,
            peer_version: None,
        };
        let ws = Workspace {
            root: PathBuf::from("/w"),
            crates: vec![krate("md-5", "md5"), krate("rc4", "rc4")],
            backends: Vec::new(),
            has_speed: false,
            speed_openssl: false,
        };
        let active: Vec<&DropIn> = DROPINS
            .iter()
            .filter(|d| ["hmac_md5", "rc4"].contains(&d.name))
            .collect();
        let (toml, main) = project(&ws, &active);
        assert!(toml.contains("\n[workspace]\n"));
        assert!(toml.contains("hmac = \"0.13\"\nmd-5 = \"0.11\"\nrc4 = \"0.2\"\n"));
        assert!(
            main.contains("fn hmac_cases<"),
            "the HMAC helper comes with hmac"
        );
        assert!(toml.contains("[patch.crates-io]\nmd-5 = { path = '/w/crates/md-5' }\nrc4 = { path = '/w/crates/rc4' }\n"));
        assert!(main.contains("mod check_hmac_md5 {"));
        assert!(main.contains("match check_rc4::check()"));
    }
}
