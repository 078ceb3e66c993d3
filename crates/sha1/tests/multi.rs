//! Multi-buffer SHA-1 (`sha1::multi`) against the single-stream hasher and RustCrypto
//! sha1 0.11.0: random messages of random, unequal lengths, 1..=33 at a time (partial
//! batches of 16 and 8 lanes), through the public functions and every available
//! backend's kernel.

use digest::Digest;
use testkit::Rng;

/// Lengths around the padding edges, mixed into the random ones.
const EDGES: [usize; 9] = [0, 1, 55, 56, 63, 64, 65, 119, 120];

fn messages(rng: &mut Rng, count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            let len = if rng.below(3) == 0 {
                EDGES[rng.below(EDGES.len())]
            } else {
                rng.below(2049)
            };
            rng.bytes(len)
        })
        .collect()
}

#[test]
fn multi_matches_single_stream() {
    let seed = testkit::seed(0x5A_B5);
    let mut rng = Rng::new(seed);
    let names: Vec<&str> = sha1::__backends::ALL
        .iter()
        .copied()
        .filter(|&n| testkit::available(n, sha1::__backends::available(n)))
        .collect();
    for round in 0..20 {
        for count in 1..=33 {
            let msgs = messages(&mut rng, count);
            let want: Vec<[u8; 20]> = msgs
                .iter()
                .map(|m| rc_sha1::Sha1::digest(m).into())
                .collect();
            let ctx = |what: &str, i: usize| {
                format!(
                    "{what}: round {round}, {count} messages, #{i} of {} bytes, seed {seed}",
                    msgs[i].len()
                )
            };

            let mut got = vec![[0u8; 20]; count];
            sha1::multi::digest_into(&msgs, &mut got);
            for i in 0..count {
                assert_eq!(got[i], want[i], "{}", ctx("digest_into", i));
                assert_eq!(
                    got[i],
                    <[u8; 20]>::from(sha1::Sha1::digest(&msgs[i])),
                    "{}",
                    ctx("Sha1::digest", i)
                );
            }
            for &name in &names {
                let mut out = vec![[0x5Au8; 20]; count];
                sha1::__backends::digest_many_with(name, &msgs, &mut out);
                for i in 0..count {
                    assert_eq!(out[i], want[i], "{}", ctx(name, i));
                }
            }
        }
    }
}

#[cfg(feature = "alloc")]
#[test]
fn vec_form() {
    let msgs: Vec<Vec<u8>> = (0..21).map(|i| vec![i as u8; 100 * i]).collect();
    let mut want = vec![[0u8; 20]; msgs.len()];
    sha1::multi::digest_into(&msgs, &mut want);
    assert_eq!(sha1::multi::digest_many_vec(&msgs), want);
}

#[test]
fn const_generic_form() {
    let msgs: [&[u8]; 17] = core::array::from_fn(|i| &b"abcdefghijklmnopq"[..i]);
    let out = sha1::multi::digest_many(msgs);
    for (m, o) in msgs.iter().zip(out) {
        assert_eq!(o, <[u8; 20]>::from(rc_sha1::Sha1::digest(m)));
    }
    assert_eq!(sha1::multi::digest_many::<0>([]), [[0u8; 20]; 0]);
}

#[test]
fn long_and_empty_mixed() {
    // One long message among empty ones: the others drop out at once.
    let long = Rng::new(7).bytes(100_003);
    let mut msgs: Vec<&[u8]> = vec![b""; 16];
    msgs[9] = &long;
    let mut out = [[0u8; 20]; 16];
    sha1::multi::digest_into(&msgs, &mut out);
    for (m, o) in msgs.iter().zip(out) {
        assert_eq!(o, <[u8; 20]>::from(rc_sha1::Sha1::digest(m)));
    }
}

#[test]
#[should_panic(expected = "one output per message")]
fn length_mismatch_panics() {
    let mut out = [[0u8; 20]; 1];
    sha1::multi::digest_into(&[b"a", b"b"], &mut out);
}
