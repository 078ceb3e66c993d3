//! Known answers through the public API (tests/data/vectors.txt), the legacy interfaces
//! against DES known answers, and every malformed-setting class.

use des_crypt::{DesCipher, Encrypt, Error, crypt, crypt_many, verify};

fn vectors() -> Vec<(String, Vec<u8>)> {
    include_str!("data/vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (h, k) = l.split_once('\t').expect("hash<TAB>key");
            (h.to_string(), k.as_bytes().to_vec())
        })
        .collect()
}

#[test]
fn known_answers() {
    for (hash, key) in vectors() {
        let setting = if hash.starts_with('_') {
            &hash[..9]
        } else {
            &hash[..2]
        };
        assert_eq!(crypt(&key, setting).as_deref(), Ok(&hash[..]), "{key:?}");
        assert_eq!(
            crypt(&key, &hash).as_deref(),
            Ok(&hash[..]),
            "{key:?} (full hash)"
        );
        assert!(verify(&key, &hash));
        let mut wrong = key.clone();
        wrong.push(b'x');
        // Traditional crypt ignores bytes past 8; BSDi does not.
        assert_eq!(
            verify(&wrong, &hash),
            key.len() >= 8 && !hash.starts_with('_')
        );
    }
    let jobs: Vec<(Vec<u8>, String)> = vectors().into_iter().map(|(h, k)| (k, h)).collect();
    for (r, (_, h)) in crypt_many(&jobs).iter().zip(&jobs) {
        assert_eq!(r.as_deref(), Ok(&h[..]));
    }
}

#[test]
fn key_rules() {
    // 8 significant bytes, NUL ends the key, the top bit of each byte is shifted out.
    let h = crypt(b"abcdefgh", "ab").unwrap();
    assert_eq!(crypt(b"abcdefghXYZ", "ab").unwrap(), h);
    assert_eq!(
        crypt(b"abc\0def", "ab").unwrap(),
        crypt(b"abc", "ab").unwrap()
    );
    assert_eq!(
        crypt(&[0xE1, 0xE2], "ab").unwrap(),
        crypt(b"ab", "ab").unwrap()
    );
    // BSDi folds long keys.
    assert_ne!(
        crypt(b"abcdefghX", "_J9..abcd").unwrap(),
        crypt(b"abcdefgh", "_J9..abcd").unwrap()
    );
    // libxcrypt runs a count of 0 as 1.
    assert_eq!(
        crypt(b"k", "_....abcd").unwrap()[9..],
        crypt(b"k", "_/...abcd").unwrap()[9..]
    );
}

#[test]
fn malformed_settings() {
    let cases: &[(&str, Error)] = &[
        ("", Error::TooShort { len: 0, min: 2 }),
        ("a", Error::TooShort { len: 1, min: 2 }),
        ("_", Error::TooShort { len: 1, min: 9 }),
        ("_J9..abc", Error::TooShort { len: 8, min: 9 }),
        ("a!", Error::InvalidChar { pos: 1, byte: b'!' }),
        ("!a", Error::InvalidChar { pos: 0, byte: b'!' }),
        ("*0", Error::InvalidChar { pos: 0, byte: b'*' }),
        ("ab-", Error::InvalidChar { pos: 2, byte: b'-' }),
        ("a\u{e9}", Error::InvalidChar { pos: 1, byte: 0xC3 }),
        ("_J9..ab!d", Error::InvalidChar { pos: 7, byte: b'!' }),
        ("_J9:.abcd", Error::InvalidChar { pos: 3, byte: b':' }),
        ("abgOeLfPimXQoX", Error::TooLong { len: 14, max: 13 }),
        ("_J9..abcdx/cgK8gMibwX", Error::TooLong { len: 21, max: 20 }),
        ("$1$abc$", Error::NotDesCrypt),
        ("$2b$05$abcdefghijklmnopqrstuu", Error::NotDesCrypt),
        ("$5$abc", Error::NotDesCrypt),
        ("$6$abc", Error::NotDesCrypt),
        ("$y$j9T$abc", Error::NotDesCrypt),
        ("$", Error::NotDesCrypt),
    ];
    for &(s, e) in cases {
        assert_eq!(crypt(b"key", s), Err(e), "{s:?}");
        assert!(!verify(b"key", s), "{s:?}");
        assert!(!e.to_string().is_empty());
    }
    assert!(Error::NotDesCrypt.to_string().contains("not DES crypt"));
    let r = crypt_many(&cases.iter().map(|&(s, _)| (b"key", s)).collect::<Vec<_>>());
    for (r, &(s, e)) in r.iter().zip(cases) {
        assert_eq!(r, &Err(e), "{s:?}");
    }
    // verify wants the whole hash, not a setting.
    assert!(!verify(b"test", "ab"));
    assert!(!verify(b"test", "abgOeLfPimXQ."));
}

/// FIPS 81 / SP 800-17 style known answer: key 0123456789ABCDEF, "Now is t".
#[test]
fn legacy_des() {
    let key = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF];
    let pt = *b"Now is t";
    let ct = [0x3F, 0xA4, 0x0E, 0x8A, 0x98, 0x4D, 0x48, 0x15];
    let c = DesCipher::new(&key);
    assert_eq!(c.des_cipher(&pt, 0, 1), Ok(ct));
    assert_eq!(c.des_cipher(&ct, 0, -1), Ok(pt));
    assert_eq!(c.des_cipher(&pt, 0, 0), Err(Error::ZeroCount));
    // Salt bits above 24 are ignored; count n is n chained encryptions.
    assert_eq!(c.des_cipher(&pt, 0xFF00_0000, 1), Ok(ct));
    let twice = c.des_cipher(&ct, 0x1234, 1).unwrap();
    assert_eq!(c.des_cipher(&ct, 0x1234, 1), Ok(twice));
    assert_eq!(c.des_cipher(&twice, 0x1234, -1), Ok(ct));
    // crypt by hand: key shifted, 25 salted encryptions of zero.
    let k = b"test\0\0\0\0".map(|b| b << 1);
    let salt = 38 | 39 << 6; // "ab"
    let out = DesCipher::new(&k).des_cipher(&[0; 8], salt, 25).unwrap();
    let v = u64::from_be_bytes(out);
    let alpha = des_crypt::ALPHABET;
    let mut s = String::from("ab");
    for i in 0..10 {
        s.push(alpha[((v >> (58 - 6 * i)) & 63) as usize] as char);
    }
    s.push(alpha[((v << 2) & 63) as usize] as char);
    assert_eq!(s, "abgOeLfPimXQo");

    let bits =
        |b: &[u8; 8]| -> [u8; 64] { core::array::from_fn(|i| (b[i / 8] >> (7 - i % 8)) & 1) };
    let mut e = Encrypt::new(&[0; 64]);
    e.setkey(&bits(&key));
    let mut block = bits(&pt);
    e.encrypt(&mut block, false);
    assert_eq!(block, bits(&ct));
    e.encrypt(&mut block, true);
    assert_eq!(block, bits(&pt));
}

/// Random settings (alphabet characters mixed with `$ _ * ! :`, spaces and non-ASCII,
/// lengths 0..=24; BSDi counts kept small) and random keys: every call returns, an `Ok` hash verifies and has
/// the format's length, and `crypt_many` agrees with `crypt`.
#[test]
fn no_panics_on_random_settings() {
    let pool: Vec<char> = des_crypt::ALPHABET
        .iter()
        .map(|&b| b as char)
        .chain(['$', '_', '*', '!', ':', ' ', '\u{e9}', '\u{20ac}', '\0'])
        .collect();
    let mut rng = testkit::Rng::new(testkit::seed(0x5E77));
    let mut jobs = Vec::new();
    for _ in 0..testkit::cases(20_000) {
        let len = rng.below(25);
        let mut v: Vec<char> = (0..len).map(|_| pool[rng.below(pool.len())]).collect();
        if v.first() == Some(&'_') {
            // Keep BSDi counts below 4096 (the top two count characters 0).
            for c in v.iter_mut().skip(3).take(2) {
                *c = '.';
            }
        }
        let s: String = v.into_iter().collect();
        let klen = rng.below(20);
        let key = rng.bytes(klen);
        match crypt(&key, &s) {
            Ok(h) => {
                assert_eq!(h.len(), if s.starts_with('_') { 20 } else { 13 }, "{s:?}");
                assert!(verify(&key, &h), "{s:?}");
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        jobs.push((key, s));
    }
    let want: Vec<_> = jobs.iter().map(|(k, s)| crypt(k, s)).collect();
    assert_eq!(crypt_many(&jobs), want);
}
