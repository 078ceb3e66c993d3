//! A backend table compiled as a crate compiles it: `backends.rs` with the table, a file
//! per row in `backends/`. `simdcrypt_rustc` is set by the build scripts of the crates
//! that use it; this test has none, so the `rustc:` row is never compiled in.

mod backends;

use backends::__table::{ALL, TABLE, available, selected};
use backends::{Backend, detect};

#[test]
fn generated_table() {
    assert_eq!(TABLE.len(), 4);
    assert_eq!(TABLE[3].rustc, "1.89");
    assert!(!TABLE[3].compiled());
    assert!(!available("later"));
    assert_eq!(TABLE[2].compiled(), cfg!(target_arch = "x86_64"));
    assert_eq!(TABLE[0].name, "soft");
    assert_eq!(TABLE[2].min_blocks, 3);
    assert_eq!(TABLE[1].needs, &["intel", "amd"]);
    assert!(TABLE[0].about.contains("Portable"));
    assert!(available("soft"));
    assert!(!available("never"));
    assert!(!available("nonsense"));
    if cfg!(target_arch = "x86_64") {
        assert_eq!(ALL, &["soft", "never", "sse2"]);
        assert_eq!(selected(), "sse2");
    } else {
        assert_eq!(selected(), "soft");
    }
    assert_eq!(Backend::by_name("soft").map(|b| b.name()), Some("soft"));
}

#[test]
fn dispatch_calls_the_rows_module() {
    let soft = Backend::by_name("soft").unwrap();
    assert_eq!(backends::twice(soft, 21), ("soft", 42));
    assert_eq!(backends::scaled::<3>(soft, 5), ("soft", 15));
    assert_eq!(backends::overridden(soft, 1), ("soft arm", 1));
    let best = detect();
    assert_eq!(backends::twice(best, 4).0, best.name());
    assert_eq!(backends::scaled::<2>(best, 4), (best.name(), 8));
    if cfg!(target_arch = "x86_64") {
        assert_eq!(backends::overridden(best, 3), ("sse2", 6));
    }
}
