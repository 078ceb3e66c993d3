//! Criterion bench: `rc4/<impl>/<size>` for each backend (through the hidden
//! `__backends` hook), the public API, and RustCrypto's rc4 0.2.0, interleaved.

use criterion::{Criterion, criterion_group, criterion_main};
use rc4::{__backends, KeyInit, Rc4};
use testkit::bench::{self, Bench};

const KEY: &[u8; 16] = b"simdcrypt bench!";

fn rc4(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in rc4::__backends::ALL {
        if __backends::available(id) {
            let mut cipher = Rc4::new_from_slice(KEY).unwrap();
            impls.push(Bench::new(id, move |buf| {
                __backends::apply_keystream_with(id, &mut cipher, buf)
            }));
        }
    }
    impls.push(bench::stream("api", Rc4::new_from_slice(KEY).unwrap()));
    impls.push(bench::stream(
        "rustcrypto-0.2.0",
        rc_rc4::Rc4::new_from_slice(KEY).unwrap(),
    ));
    bench::bytes(c, "rc4", impls);
}

criterion_group!(benches, rc4);
criterion_main!(benches);
